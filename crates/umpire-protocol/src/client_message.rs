//! What a client may send over the game WebSocket, parsed strictly: every malformed,
//! oversized or unknown frame is a [`Refusal`] with a stable code, never a panic.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest text frame a client may send, in bytes.
pub const MAX_FRAME_BYTES: usize = 2048;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientMessage {
    /// What the client asks.
    pub action: Action,
    /// An id chosen by the client, echoed as `reply_to` in the answer.
    pub id: Option<u64>,
}

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Try a move (UCI text, checked by the umpire's parser).
    Attempt(String),
    /// Ask "Any?".
    Any,
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's offer.
    DrawAccept,
    /// Decline the opponent's offer.
    DrawDecline,
    /// Resign.
    Resign,
    /// A chat line to the opponent (MSG).
    Msg(String),
    /// List my own men (RELIST).
    Relist,
    /// Ask for the whole state again.
    Sync,
    /// An application-level ping: answered at once with `{"type":"pong","n":N}` on the same
    /// connection, by the socket itself (the game's task never sees it).
    Ping(u32),
}

/// Why a client frame was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Stable code: `frame_too_large`, `bad_json`, `unknown_command` or `bad_message`.
    pub code: &'static str,
    /// What was wrong.
    pub message: String,
    /// The id, if one could be read.
    pub id: Option<u64>,
}

/// A client's frame as it travels: one JSON object tagged by `type`, unknown fields refused.
/// [`parse`] reads it with its limits and refusals into a [`ClientMessage`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientFrame {
    /// `{"type":"attempt","move":"e2e4"}`: try a move (UCI, or SAN on the player's own board).
    Attempt {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"any"}`: ask "Any?".
    Any {
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"draw","action":"offer"|"accept"|"decline"}`.
    Draw {
        /// `offer`, `accept` or `decline`.
        action: String,
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"resign"}`.
    Resign {
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"msg","text":"…"}`: MSG, a chat line to the opponent.
    Msg {
        /// The line: 1 to [`MAX_CHAT_CHARS`] characters, not only blanks.
        text: String,
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"relist"}`: RELIST.
    Relist {
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"sync"}`: the whole `state` again.
    Sync {
        /// Echoed as `reply_to`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// `{"type":"ping","n":N}`: answered at once with `{"type":"pong","n":N}` (players and
    /// spectators alike), to measure the connection's lag.
    Ping {
        /// Any number, echoed in the `pong`.
        n: u32,
    },
}

impl ClientFrame {
    /// The frame as the text of a WebSocket message.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

const KNOWN: [&str; 8] = [
    "attempt", "any", "draw", "resign", "msg", "relist", "sync", "ping",
];

/// Parses one text frame.
pub fn parse(text: &str) -> Result<ClientMessage, Refusal> {
    let refuse = |code, message: String, id| Refusal { code, message, id };
    if text.len() > MAX_FRAME_BYTES {
        return Err(refuse(
            "frame_too_large",
            format!("frames are limited to {MAX_FRAME_BYTES} bytes"),
            None,
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| refuse("bad_json", format!("not JSON: {e}"), None))?;
    let id = value.get("id").and_then(Value::as_u64);
    let Some(kind) = value.get("type").and_then(Value::as_str).map(str::to_owned) else {
        return Err(refuse(
            "bad_json",
            "a frame is a JSON object with a string \"type\"".to_owned(),
            id,
        ));
    };
    if !KNOWN.contains(&kind.as_str()) {
        return Err(refuse(
            "unknown_command",
            format!("unknown type {kind:?} (known: {})", KNOWN.join(", ")),
            id,
        ));
    }
    let wire: ClientFrame = serde_json::from_value(value)
        .map_err(|e| refuse("bad_message", format!("{kind}: {e}"), id))?;
    let (action, id) = match wire {
        ClientFrame::Attempt { mv, id } => (Action::Attempt(mv), id),
        ClientFrame::Any { id } => (Action::Any, id),
        ClientFrame::Draw { action, id } => {
            let a = match action.as_str() {
                "offer" => Action::DrawOffer,
                "accept" => Action::DrawAccept,
                "decline" => Action::DrawDecline,
                other => {
                    return Err(refuse(
                        "bad_message",
                        format!("draw action {other:?} is not offer, accept or decline"),
                        id,
                    ));
                }
            };
            (a, id)
        }
        ClientFrame::Resign { id } => (Action::Resign, id),
        ClientFrame::Msg { text, id } => {
            if text.chars().count() > MAX_CHAT_CHARS || text.trim().is_empty() {
                return Err(refuse(
                    "bad_message",
                    format!("a chat line has 1 to {MAX_CHAT_CHARS} characters"),
                    id,
                ));
            }
            if text.chars().any(crate::chat::forbidden_char) {
                return Err(refuse(
                    "bad_message",
                    "a chat line may not hold control or text-direction characters".to_owned(),
                    id,
                ));
            }
            (Action::Msg(text), id)
        }
        ClientFrame::Relist { id } => (Action::Relist, id),
        ClientFrame::Sync { id } => (Action::Sync, id),
        ClientFrame::Ping { n } => (Action::Ping(n), None),
    };
    Ok(ClientMessage { action, id })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_parses() {
        let cases = [
            (
                r#"{"type":"attempt","move":"e2e4","id":7}"#,
                Action::Attempt("e2e4".into()),
            ),
            (r#"{"type":"any"}"#, Action::Any),
            (r#"{"type":"draw","action":"offer"}"#, Action::DrawOffer),
            (r#"{"type":"draw","action":"accept"}"#, Action::DrawAccept),
            (r#"{"type":"draw","action":"decline"}"#, Action::DrawDecline),
            (r#"{"type":"resign"}"#, Action::Resign),
            (
                r#"{"type":"msg","text":"hello"}"#,
                Action::Msg("hello".into()),
            ),
            (r#"{"type":"relist"}"#, Action::Relist),
            (r#"{"type":"sync"}"#, Action::Sync),
            (r#"{"type":"ping","n":4294967295}"#, Action::Ping(u32::MAX)),
        ];
        for (text, action) in &cases {
            assert_eq!(&parse(text).unwrap().action, action, "{text}");
        }
        assert_eq!(parse(cases[0].0).unwrap().id, Some(7));
    }

    #[test]
    fn refusals_have_stable_codes() {
        let big = format!(
            r#"{{"type":"msg","text":"{}"}}"#,
            "x".repeat(MAX_FRAME_BYTES)
        );
        let cases = [
            (big.as_str(), "frame_too_large"),
            ("{", "bad_json"),
            ("[1,2]", "bad_json"),
            (r#"{"type":5}"#, "bad_json"),
            (r#"{"type":"castle"}"#, "unknown_command"),
            (r#"{"type":"attempt"}"#, "bad_message"),
            (
                r#"{"type":"attempt","move":"e2e4","extra":1}"#,
                "bad_message",
            ),
            (r#"{"type":"draw","action":"maybe","id":3}"#, "bad_message"),
            (r#"{"type":"ping"}"#, "bad_message"),
            (r#"{"type":"ping","n":-1}"#, "bad_message"),
            (r#"{"type":"ping","n":4294967296}"#, "bad_message"),
            (r#"{"type":"ping","n":1,"id":2}"#, "bad_message"),
            (r#"{"type":"msg","text":"   "}"#, "bad_message"),
        ];
        for (text, code) in cases {
            assert_eq!(parse(text).unwrap_err().code, code, "{text}");
        }
        assert_eq!(
            parse(r#"{"type":"draw","action":"maybe","id":3}"#)
                .unwrap_err()
                .id,
            Some(3)
        );
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(14);
        let pieces = [
            "{",
            "}",
            "\"type\"",
            ":",
            "\"attempt\"",
            ",",
            "\"move\"",
            "\"e2e4\"",
            "\"id\"",
            "1",
            "-1",
            "null",
            "[",
            "]",
            "\"msg\"",
            "\"text\"",
            "\u{0}",
            "\\",
            "1e400",
            "\"draw\"",
        ];
        for _ in 0..20_000 {
            let n = rng.random_range(0..12);
            let text: String = (0..n)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            let _ = parse(&text);
        }
    }
}
