//! [`OwnMan`]: one of the player's own men as the umpire holds them (RELIST).

use serde::{Deserialize, Serialize};

/// `{"square":"e2","man":"pawn"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OwnMan {
    /// The square, `a1` to `h8`.
    pub square: String,
    /// `pawn`, `knight`, `bishop`, `rook`, `queen` or `king`.
    pub man: String,
}
