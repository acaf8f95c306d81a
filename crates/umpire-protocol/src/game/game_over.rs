//! [`GameOverFrame`]: the end of a game the server declared.

use serde::{Deserialize, Serialize};

use crate::clock::Clocks;
use crate::ending::Ending;
use crate::rating::SeatRatings;

/// `{"type":"game_over","game":…,"result":…,"clocks":…}`: a flag fell, a player abandoned, or
/// the game was aborted; sent to every connection after the `update` that announced it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameOverFrame {
    /// The game's id.
    pub game: String,
    /// The result.
    pub result: Option<Ending>,
    /// The clocks at the end.
    pub clocks: Clocks,
    /// In a rated game: both seats' ratings with `after` and `change`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<SeatRatings>,
}
