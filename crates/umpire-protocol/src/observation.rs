//! An [`Observation`] as it travels in a player's frames ([`PlayerObservation`]): who acted, the
//! player's own command and verdict (if the player acted), whether a move was played, and what
//! the player heard, each announcement with the rule set's words; and what a spectator learns
//! of one command ([`PublicObservation`]). [`crate::decode`] reads a player's back.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use umpire_rules::{Announcement, Observation, RuleSet, Verdict};

use crate::announcement::HeardAnnouncement;
use crate::side::Side;

/// One OBSERVATION of a player (`docs/PROTOCOL.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerObservation {
    /// Who gave the command.
    pub actor: Side,
    /// The player's own command and its verdict; `null` when the opponent acted.
    pub own: Option<OwnJudgement>,
    /// Whether a move was played (the turn passed).
    pub moved: bool,
    /// What this player heard.
    pub heard: Vec<HeardAnnouncement>,
}

/// The player's own command and the umpire's verdict on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OwnJudgement {
    /// The command in record words (`e2e4`, `any`, `draw offer`, `flag`, …).
    pub command: String,
    /// `accepted`, `answered`, `illegal`, `impossible`, `repeat`, `invalid` or `game_over`.
    pub verdict: String,
    /// For `invalid`: the stable code of `Invalid::as_str`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `invalid`: why, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What a spectator learns of one command: who acted, whether a move was played, and the
/// announcements both players heard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PublicObservation {
    /// Who gave the command.
    pub actor: Side,
    /// Whether a move was played.
    pub moved: bool,
    /// What both players heard.
    pub heard: Vec<HeardAnnouncement>,
}

/// The announcements `list` of `rules` as sent.
pub fn heard_all(rules: &RuleSet, list: &[Announcement]) -> Vec<HeardAnnouncement> {
    list.iter()
        .map(|&a| HeardAnnouncement::new(rules, a))
        .collect()
}

impl PlayerObservation {
    /// The observation `obs` of `rules` as sent.
    pub fn new(rules: &RuleSet, obs: &Observation) -> PlayerObservation {
        let own = obs.own.map(|own| {
            let why = match own.verdict {
                Verdict::Invalid(why) => Some(why),
                _ => None,
            };
            OwnJudgement {
                command: own.command.to_text(),
                verdict: own.verdict.as_str().to_owned(),
                reason: why.map(|w| w.as_str().to_owned()),
                message: why.map(|w| w.message().to_owned()),
            }
        });
        PlayerObservation {
            actor: obs.actor.into(),
            own,
            moved: obs.moved,
            heard: heard_all(rules, &obs.announcements),
        }
    }
}

/// An observation as a JSON value ([`PlayerObservation`]).
pub fn observation_json(rules: &RuleSet, obs: &Observation) -> Value {
    serde_json::to_value(PlayerObservation::new(rules, obs)).unwrap_or_default()
}
