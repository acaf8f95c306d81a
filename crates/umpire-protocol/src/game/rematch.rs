//! [`RematchFrame`]: a player of a finished game asked for a rematch.

use serde::{Deserialize, Serialize};

/// `{"type":"rematch","game":OLD,"rematch":NEW}`: join NEW to play it. Players only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RematchFrame {
    /// The finished game.
    pub game: String,
    /// The new game's id.
    pub rematch: String,
}
