//! [`ErrorFrame`]: a refusal on a WebSocket (the game socket and the lobby feed).

use serde::{Deserialize, Serialize};

/// `{"type":"error","code":"…","message":"…","reply_to":…}`: sent only to the connection that
/// caused it; nothing in the game changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorFrame {
    /// The stable code (`docs/PROTOCOL.md`, Refusals).
    pub code: String,
    /// What was wrong, in words.
    pub message: String,
    /// The `id` of the client's frame this refuses, if it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<u64>,
}
