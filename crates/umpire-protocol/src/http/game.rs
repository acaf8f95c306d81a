//! The bodies of the game requests: `POST /api/games` (create), `GET /api/games` (list),
//! `GET /api/games/{id}`, join, rematch, decline and `DELETE`.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::side::{BySide, Side};

/// The request of `POST /api/games`; every field may be left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// The rule set (default `wild16`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The initial clock, ms (default ten minutes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<i64>,
    /// The increment, ms (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<i64>,
    /// `white`, `black` or `random` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// A built-in agent to play at once (`random`, `guided-random`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The agent's strength, 1 to 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Rated (default false: casual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// A practice game (default false): never rated; its players may see their own belief
    /// overlay while it goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<bool>,
    /// A direct challenge to this account's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
}

/// The query of `GET /api/games`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GamesQuery {
    /// `open`, `live` or `over`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// A seated account's rating in a game summary, exact:
/// `{"rating","deviation","volatility","provisional","games"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SummaryRating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation, grown over idle rating periods.
    pub deviation: f64,
    /// The Glicko-2 volatility.
    pub volatility: f64,
    /// Whether the deviation is above the provisional bound.
    pub provisional: bool,
    /// Rated games played in the rule set and class.
    pub games: i64,
}

/// A game summary: the answer of `GET /api/games/{id}`, each line of `GET /api/games`, and
/// with `you` the answer of create, join and rematch (which also has `rematch_of`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// The rule set.
    pub rules: String,
    /// The players' names (`agent:KIND`, `?` for a free seat).
    pub players: BySide<String>,
    /// `open`, `live` or `over`.
    pub status: String,
    /// The score once over.
    pub result: Option<String>,
    /// The reason once over.
    pub reason: Option<String>,
    /// The time control.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// A practice game (never rated; its players may see their own belief while it goes on).
    #[serde(default)]
    pub practice: bool,
    /// The time class.
    pub class: String,
    /// Each seated account's rating in the rule set and class; `null` for a guest, an agent
    /// or a free seat.
    pub ratings: BySide<Option<SummaryRating>>,
    /// The addressee of a direct challenge, else `null`.
    pub opponent: Option<String>,
    /// The caller's colour: in the answers of create, join and rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Side>,
    /// The finished game this one is a rematch of: in the answer of rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
}

/// The answer of `DELETE /api/games/{id}` and `POST /api/games/{id}/decline`:
/// `{"id":ID,"removed":"cancelled"|"declined"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RemovedBody {
    /// The game's id.
    pub id: String,
    /// `cancelled` or `declined`.
    pub removed: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::example::check;
    use serde_json::json;

    fn summary() -> GameSummary {
        GameSummary {
            id: "k3x9".into(),
            rules: "wild16".into(),
            players: BySide {
                white: "ann".into(),
                black: "agent:random".into(),
            },
            status: "over".into(),
            result: Some("1-0".into()),
            reason: Some("checkmate".into()),
            time_control: TimeControl {
                initial_ms: 600_000,
                increment_ms: 0,
            },
            rated: false,
            practice: false,
            class: "rapid".into(),
            ratings: BySide {
                white: Some(SummaryRating {
                    rating: 1500.0,
                    deviation: 350.0,
                    volatility: 0.06,
                    provisional: true,
                    games: 0,
                }),
                black: None,
            },
            opponent: None,
            you: None,
            rematch_of: None,
        }
    }

    fn summary_json() -> serde_json::Value {
        json!({
            "id": "k3x9", "rules": "wild16",
            "players": {"white": "ann", "black": "agent:random"},
            "status": "over", "result": "1-0", "reason": "checkmate",
            "time_control": {"initial_ms": 600000, "increment_ms": 0},
            "rated": false, "practice": false, "class": "rapid",
            "ratings": {
                "white": {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06,
                          "provisional": true, "games": 0},
                "black": null,
            },
            "opponent": null,
        })
    }

    /// `GET /api/games/ID`: `{id,rules,players,status,result,reason,time_control,rated,class,
    /// ratings,opponent}`; create and join add `you`, rematch also `rematch_of`.
    #[test]
    fn a_summary_is_as_documented() {
        check(&summary(), summary_json());
        let mut created = summary();
        created.you = Some(Side::Black);
        created.rematch_of = Some("old".into());
        let mut want = summary_json();
        want["you"] = json!("black");
        want["rematch_of"] = json!("old");
        check(&created, want);
        check(&vec![summary()], json!([summary_json()]));
    }

    #[test]
    fn the_game_requests_and_removal_are_as_documented() {
        check(&NewGameRequest::default(), json!({}));
        let g = NewGameRequest {
            rules: Some("cincinnati".into()),
            initial_ms: Some(300_000),
            increment_ms: Some(2_000),
            color: Some("white".into()),
            agent: Some("random".into()),
            level: Some(3),
            rated: Some(false),
            practice: Some(true),
            opponent: Some("bob".into()),
        };
        check(
            &g,
            json!({"rules": "cincinnati", "initial_ms": 300000, "increment_ms": 2000,
                   "color": "white", "agent": "random", "level": 3, "rated": false,
                   "practice": true, "opponent": "bob"}),
        );
        assert!(serde_json::from_value::<NewGameRequest>(json!({"colour": "white"})).is_err());
        check(
            &GamesQuery {
                status: Some("open".into()),
            },
            json!({"status": "open"}),
        );
        check(
            &RemovedBody {
                id: "k3x9".into(),
                removed: "declined".into(),
            },
            json!({"id": "k3x9", "removed": "declined"}),
        );
    }
}
