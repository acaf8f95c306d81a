//! [`Header`]: the fields of a game's `state` frame that say what the game is.

use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::rating::SeatRatings;
use crate::side::BySide;

/// Who plays what: the version, the rule set, the players' names, the time control, whether
/// the game is rated and its time class, and in a rated game both seats' ratings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Header {
    /// The protocol version ([`crate::PROTOCOL_VERSION`]); a client refuses one it does not know.
    pub protocol: u32,
    /// The rule set's id (`wild16`, `umpire1965`, …).
    pub rules: String,
    /// The players' display names (`agent:KIND` for a house agent, `?` for a free seat).
    pub players: BySide<String>,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// A practice game (never rated; each player may see its own belief overlay).
    #[serde(default)]
    pub practice: bool,
    /// The time class (`bullet`, `blitz`, `rapid`, `classical`, `correspondence`).
    pub class: String,
    /// Both seats' ratings: rated games only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<SeatRatings>,
}
