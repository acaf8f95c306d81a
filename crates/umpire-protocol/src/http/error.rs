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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_error_body_is_as_documented() {
        let body = ErrorBody {
            error: ErrorFields {
                code: "name_taken".into(),
                message: "that name is taken".into(),
            },
        };
        crate::http::example::check(
            &body,
            json!({"error": {"code": "name_taken", "message": "that name is taken"}}),
        );
    }
}
