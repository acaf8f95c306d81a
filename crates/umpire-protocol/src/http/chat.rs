//! The bodies of `GET /api/games/{id}/chat`: earlier chat lines of a game, for its players.

use serde::{Deserialize, Serialize};

use crate::chat::ChatLine;

/// The query of `GET /api/games/{id}/chat`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ChatQuery {
    /// The lines before this number (from 0); all the latest when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    /// How many lines (default and most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

/// The answer of `GET /api/games/{id}/chat`: the lines numbered `from`, `from + 1`, …, oldest
/// first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatPageBody {
    /// The number of the first line.
    pub from: i64,
    /// The lines.
    pub lines: Vec<ChatLine>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::example::check;
    use crate::side::Side;
    use serde_json::json;

    /// `{"from":F,"lines":[{"from","text"}…]}` and `?before=N&limit=L`.
    #[test]
    fn a_chat_page_is_as_documented() {
        check(
            &ChatPageBody {
                from: 7,
                lines: vec![ChatLine {
                    from: Side::Black,
                    text: "good luck".into(),
                }],
            },
            json!({"from": 7, "lines": [{"from": "black", "text": "good luck"}]}),
        );
        check(
            &ChatQuery {
                before: Some(57),
                limit: None,
            },
            json!({"before": 57}),
        );
    }
}
