//! [`ChallengeJson`]: an open challenge as the lobby feed shows it.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::side::Side;

/// CHALLENGE of `docs/PROTOCOL.md`: only what its creator chose and who is involved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChallengeJson {
    /// The game's id.
    pub id: String,
    /// The creator's name.
    pub creator: String,
    /// The colour the creator plays.
    pub creator_color: Side,
    /// The addressee's name for a direct challenge, `null` for a challenge to anyone.
    pub opponent: Option<String>,
    /// The rule set's id.
    pub rules: String,
    /// The time control.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// A practice game (never rated).
    #[serde(default)]
    pub practice: bool,
    /// The time class.
    pub class: String,
}
