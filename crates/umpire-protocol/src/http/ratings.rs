//! The bodies of the ratings API: `GET /api/leaderboard`, `GET /api/players/{name}` and
//! `GET /api/players/{name}/history`.

use serde::{Deserialize, Serialize};

/// A rating, exact: `{"rating","deviation","volatility","provisional"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExactRating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The Glicko-2 volatility.
    pub volatility: f64,
    /// Whether the deviation is above the provisional bound.
    pub provisional: bool,
}

/// A player's rating in one rule set and time class, as shown now (the deviation grown over
/// idle rating periods), with the game counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RatingLine {
    /// The rating.
    #[serde(flatten)]
    pub rating: ExactRating,
    /// The rule set.
    pub rules: String,
    /// The time class.
    pub class: String,
    /// Rated games played.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
    /// When the last rated game ended, ms since the Unix epoch.
    pub updated_ms: i64,
}

/// The query of `GET /api/leaderboard`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// Rule set (default `wild16`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Time class (default `rapid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// How many lines (default 50, at most 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// Include provisional ratings, marked as such (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LeaderboardLine {
    /// 1 for the highest rating.
    pub rank: u64,
    /// The player's name.
    pub name: String,
    /// `account` or `bot`.
    pub kind: String,
    /// The rating and counts.
    #[serde(flatten)]
    pub line: RatingLine,
}

/// The answer of `GET /api/leaderboard`, highest rating first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LeaderboardBody {
    /// The rule set.
    pub rules: String,
    /// The time class.
    pub class: String,
    /// The deviation above which a rating is provisional (110).
    pub provisional_deviation: f64,
    /// The lines.
    pub players: Vec<LeaderboardLine>,
}

/// A player's games: all of them and the rated ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GamesPlayed {
    /// Games played.
    pub played: i64,
    /// Rated games played.
    pub rated: i64,
}

/// The answer of `GET /api/players/{name}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerBody {
    /// The player's name.
    pub name: String,
    /// `guest`, `account` or `bot`.
    pub kind: String,
    /// Games played.
    pub games: GamesPlayed,
    /// The player's ratings per rule set and time class.
    pub ratings: Vec<RatingLine>,
}

/// The query of `GET /api/players/{name}/history`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    /// Only this rule set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Only this time class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// How many games (default 100, at most 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

/// One rated game of a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HistoryLine {
    /// The game's id.
    pub game: String,
    /// The rule set.
    pub rules: String,
    /// The time class.
    pub class: String,
    /// The opponent's user id.
    pub opponent: String,
    /// The player's score: 1, 0.5 or 0.
    pub score: f64,
    /// The rating before the game.
    pub before: ExactRating,
    /// The rating after it.
    pub after: ExactRating,
    /// After minus before.
    pub change: f64,
    /// Rated games played after this one.
    pub games: i64,
    /// When the game ended, ms since the Unix epoch.
    pub at_ms: i64,
}

/// The answer of `GET /api/players/{name}/history`, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HistoryBody {
    /// The player's name.
    pub name: String,
    /// The rated games.
    pub history: Vec<HistoryLine>,
}
