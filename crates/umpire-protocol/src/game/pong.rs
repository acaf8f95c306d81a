//! [`PongFrame`]: the answer to a client's application-level `ping`.

use serde::{Deserialize, Serialize};

/// `{"type":"pong","n":N}`: sent at once, to the connection that sent `{"type":"ping","n":N}`
/// only, with the same `n`. Browsers cannot send WebSocket pings; a page measures its lag with
/// this pair. It tells nothing of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PongFrame {
    /// The `n` of the ping this answers.
    pub n: u32,
}
