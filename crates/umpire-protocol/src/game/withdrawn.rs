//! [`WithdrawnFrame`]: the open game a connection waits in no longer exists.

use serde::{Deserialize, Serialize};

/// `{"type":"withdrawn","game":…,"reason":"cancelled"|"declined"|"expired"|"abandoned"}`; the
/// server sends nothing more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WithdrawnFrame {
    /// The game's id.
    pub game: String,
    /// Why: `cancelled`, `declined`, `expired` or `abandoned` (its creator was gone).
    pub reason: String,
}
