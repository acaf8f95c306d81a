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

/// Whether a chat line may not carry `c`: control characters (C0, DEL, C1: ESC, CR, LF, BEL…,
/// which move a terminal's cursor or clear its screen) and the invisible direction and
/// formatting marks that reorder what a reader sees (bidi embeddings, overrides and isolates,
/// the direction marks, zero-width joiners, the byte-order mark, line and paragraph
/// separators). The server refuses a line that has one (`bad_message`).
pub fn forbidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// `text` safe to print on a terminal or a page as plain text: every [`forbidden_char`]
/// written as `\u{…}` (and a backslash doubled, so the escape cannot be forged). Clients print
/// chat (and any text from another user) through this, whatever the server let pass.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if forbidden_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_direction_marks_are_forbidden_and_escaped() {
        for c in [
            '\u{1b}', '\r', '\n', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200f}',
        ] {
            assert!(forbidden_char(c), "{c:?}");
        }
        for c in ['a', 'é', '♞', '日', ' '] {
            assert!(!forbidden_char(c), "{c:?}");
        }
        assert_eq!(
            printable("hi\u{1b}[2J\rUmpire: \u{202e}x\\"),
            "hi\\u{1b}[2J\\u{d}Umpire: \\u{202e}x\\\\"
        );
        assert_eq!(printable("good luck ♞"), "good luck ♞");
    }
}
