//! [`ChatLine`]: a MSG line between the players, as the `state` frame lists them.

use serde::{Deserialize, Serialize};

use crate::side::Side;

/// `{"from":"black","text":"good luck"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatLine {
    /// Who wrote it.
    pub from: Side,
    /// The line (1 to [`MAX_CHAT_CHARS`](crate::client_message::MAX_CHAT_CHARS) characters).
    pub text: String,
}
