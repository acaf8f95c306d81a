//! [`Ending`]: the result of a finished game as frames carry it.

use serde::{Deserialize, Serialize};

/// `{"score":"1-0"|"0-1"|"1/2-1/2"|"*","reason":…}`: the score and the reason of the rules core
/// (`EndReason::as_str`, `docs/JSON.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Ending {
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (aborted).
    pub score: String,
    /// Why the game ended (`checkmate`, `time_forfeit`, `abandonment`, …).
    pub reason: String,
}
