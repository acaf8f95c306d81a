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
    /// The opponent's name.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::example::check;
    use serde_json::json;

    fn exact() -> ExactRating {
        ExactRating {
            rating: 1712.5,
            deviation: 64.25,
            volatility: 0.06,
            provisional: false,
        }
    }

    fn line() -> RatingLine {
        RatingLine {
            rating: exact(),
            rules: "wild16".into(),
            class: "rapid".into(),
            games: 31,
            wins: 20,
            losses: 9,
            draws: 2,
            updated_ms: 1_700_000_000_000,
        }
    }

    fn line_json() -> serde_json::Value {
        json!({"rules": "wild16", "class": "rapid", "rating": 1712.5, "deviation": 64.25,
               "volatility": 0.06, "provisional": false, "games": 31, "wins": 20,
               "losses": 9, "draws": 2, "updated_ms": 1_700_000_000_000_i64})
    }

    /// `{rules,class,provisional_deviation:110,players:[{rank,name,kind,rating,deviation,
    /// volatility,provisional,games,wins,losses,draws,updated_ms}]}`.
    #[test]
    fn the_leaderboard_is_as_documented() {
        let body = LeaderboardBody {
            rules: "wild16".into(),
            class: "rapid".into(),
            provisional_deviation: 110.0,
            players: vec![LeaderboardLine {
                rank: 1,
                name: "ann".into(),
                kind: "account".into(),
                line: line(),
            }],
        };
        let mut player = line_json();
        player["rank"] = json!(1);
        player["name"] = json!("ann");
        player["kind"] = json!("account");
        check(
            &body,
            json!({"rules": "wild16", "class": "rapid", "provisional_deviation": 110.0,
                   "players": [player]}),
        );
        check(
            &LeaderboardQuery {
                rules: Some("wild16".into()),
                class: None,
                limit: Some(10),
                provisional: Some(true),
            },
            json!({"rules": "wild16", "limit": 10, "provisional": true}),
        );
    }

    /// `{name,kind,games:{played,rated},ratings:[{rules,class,rating,deviation,volatility,
    /// provisional,games,wins,losses,draws,updated_ms}]}`.
    #[test]
    fn a_player_is_as_documented() {
        let body = PlayerBody {
            name: "ann".into(),
            kind: "account".into(),
            games: GamesPlayed {
                played: 40,
                rated: 31,
            },
            ratings: vec![line()],
        };
        check(
            &body,
            json!({"name": "ann", "kind": "account", "games": {"played": 40, "rated": 31},
                   "ratings": [line_json()]}),
        );
    }

    /// `{name,history:[{game,rules,class,opponent,score,before,after,change,games,at_ms}]}`.
    #[test]
    fn a_history_is_as_documented() {
        let mut after = exact();
        after.rating = 1720.75;
        let body = HistoryBody {
            name: "ann".into(),
            history: vec![HistoryLine {
                game: "k3x9".into(),
                rules: "wild16".into(),
                class: "rapid".into(),
                opponent: "u2".into(),
                score: 1.0,
                before: exact(),
                after,
                change: 8.25,
                games: 32,
                at_ms: 5,
            }],
        };
        let rating = |r: f64| json!({"rating": r, "deviation": 64.25, "volatility": 0.06, "provisional": false});
        check(
            &body,
            json!({"name": "ann", "history": [{
                "game": "k3x9", "rules": "wild16", "class": "rapid", "opponent": "u2",
                "score": 1.0, "before": rating(1712.5), "after": rating(1720.75),
                "change": 8.25, "games": 32, "at_ms": 5}]}),
        );
        check(
            &HistoryQuery {
                rules: None,
                class: Some("blitz".into()),
                limit: None,
            },
            json!({"class": "blitz"}),
        );
    }
}
