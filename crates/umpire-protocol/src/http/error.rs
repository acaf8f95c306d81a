//! [`ErrorBody`]: every HTTP refusal.

use serde::{Deserialize, Serialize};

/// `{"error":{"code":"…","message":"…"}}`, with an HTTP status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorBody {
    /// The refusal.
    pub error: ErrorFields,
}

/// A refusal's stable code and sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorFields {
    /// The stable code clients may match on.
    pub code: String,
    /// What went wrong, in words.
    pub message: String,
}
