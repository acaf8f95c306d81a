//! Chat between the players: checked against the game's and the player's limits, stored,
//! then sent to both players (never to spectators).
//!
//! Limits (each refusal a `bad_message`-style error with its own code, the game unharmed):
//! - per game, at most [`MAX_CHAT_LINES`] lines and [`MAX_CHAT_BYTES`] bytes of text
//!   (`chat_full`): the chat a game holds, in memory and in storage, is bounded;
//! - per player, a burst of [`CHAT_BURST`] lines, then one line per [`CHAT_REFILL`]
//!   (`chat_rate`);
//! - a `state` frame carries only the last [`STATE_CHAT_LINES`] lines (the frame's size is
//!   bounded whatever the chat); earlier lines are paged over HTTP
//!   (`GET /api/games/{id}/chat?before=N`, at most [`CHAT_PAGE_LINES`] a page).
//!
//! The text itself was checked when the frame was parsed
//! ([`umpire_protocol::client_message::parse`]: 1 to 500 characters, no control or
//! text-direction characters); lines stored before that check are cleaned when loaded
//! ([`clean_stored`]).

use std::time::{Duration, Instant};

use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;

use super::{Round, Seat, index};
use crate::error::ApiError;
use crate::game::projection;
use crate::store::ChatRow;

/// The most chat lines a game holds: 500.
pub const MAX_CHAT_LINES: usize = 500;

/// The most bytes of chat text a game holds: 64 KiB.
pub const MAX_CHAT_BYTES: usize = 64 * 1024;

/// How many chat lines a player may send at once before the rate applies: 8.
pub const CHAT_BURST: u32 = 8;

/// After the burst, one chat line per player per 3 seconds.
pub const CHAT_REFILL: Duration = Duration::from_secs(3);

/// The chat lines a `state` frame carries: the last 50.
pub const STATE_CHAT_LINES: usize = 50;

/// The most chat lines one page of `GET /api/games/{id}/chat` answers: 100.
pub const CHAT_PAGE_LINES: usize = 100;

/// One player's chat allowance: a bucket of [`CHAT_BURST`] lines refilled one per
/// [`CHAT_REFILL`].
#[derive(Clone, Copy, Debug)]
pub struct ChatBucket {
    tokens: u32,
    since: Option<Instant>,
}

impl Default for ChatBucket {
    fn default() -> ChatBucket {
        ChatBucket {
            tokens: CHAT_BURST,
            since: None,
        }
    }
}

impl ChatBucket {
    /// Takes one line's allowance at `now`; false if none is left.
    pub fn take(&mut self, now: Instant) -> bool {
        if let Some(since) = self.since {
            let refill = CHAT_REFILL.as_millis().max(1);
            let earned = now.saturating_duration_since(since).as_millis() / refill;
            if earned > 0 {
                let earned = u32::try_from(earned).unwrap_or(u32::MAX);
                self.tokens = self.tokens.saturating_add(earned).min(CHAT_BURST);
                let spent = CHAT_REFILL.saturating_mul(earned);
                self.since = since.checked_add(spent).or(Some(now));
            }
        }
        if self.tokens == 0 {
            return false;
        }
        if self.tokens == CHAT_BURST {
            self.since = Some(now);
        }
        self.tokens -= 1;
        true
    }
}

/// Whether a game holding `lines` lines of `bytes` bytes may take one more of `len` bytes.
pub fn fits(lines: usize, bytes: usize, len: usize) -> bool {
    lines < MAX_CHAT_LINES && bytes.saturating_add(len) <= MAX_CHAT_BYTES
}

/// A stored line as the frames may carry it: every control or text-direction character
/// dropped (lines stored before the server refused them).
pub fn clean_stored(text: String) -> String {
    if text.chars().any(umpire_protocol::chat::forbidden_char) {
        text.chars()
            .filter(|&c| !umpire_protocol::chat::forbidden_char(c))
            .collect()
    } else {
        text
    }
}

impl Round {
    pub(super) async fn say(&mut self, side: Color, text: String) -> Result<(), ApiError> {
        if self.row.status == "open" {
            return Err(ApiError::conflict(
                "game_not_started",
                "nobody to talk to yet",
            ));
        }
        let bytes: usize = self.chat.iter().map(|(_, t)| t.len()).sum();
        if !fits(self.chat.len(), bytes, text.len()) {
            return Err(ApiError::conflict(
                "chat_full",
                format!(
                    "this game's chat is full ({MAX_CHAT_LINES} lines or {MAX_CHAT_BYTES} bytes)"
                ),
            ));
        }
        if !self.chat_buckets[index(side)].take(Instant::now()) {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "chat_rate",
                format!(
                    "too many chat lines: {CHAT_BURST} at once, then one every {} s",
                    CHAT_REFILL.as_secs()
                ),
            ));
        }
        let line = ChatRow {
            side: color_name(side).to_owned(),
            text,
            at_ms: self.store.now_ms(),
        };
        self.store
            .append_chat(&self.row.id, self.chat.len() as i64, &line)
            .await?;
        let frame = projection::chat_frame(side, &line.text);
        self.chat.push((side, line.text));
        self.subs.retain(|s| {
            matches!(s.seat, Seat::Player(_)) && s.tx.send(frame.clone()).is_ok()
                || matches!(s.seat, Seat::Spectator) && !s.tx.is_closed()
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_holds_at_most_its_lines_and_bytes() {
        assert!(fits(0, 0, 500));
        assert!(fits(MAX_CHAT_LINES - 1, 0, 10));
        assert!(!fits(MAX_CHAT_LINES, 0, 1));
        assert!(fits(1, MAX_CHAT_BYTES - 10, 10));
        assert!(!fits(1, MAX_CHAT_BYTES - 10, 11));
    }

    #[test]
    fn a_player_sends_a_burst_then_one_line_per_refill() {
        let t0 = Instant::now();
        let mut b = ChatBucket::default();
        for _ in 0..CHAT_BURST {
            assert!(b.take(t0));
        }
        assert!(!b.take(t0));
        assert!(!b.take(t0 + CHAT_REFILL / 2));
        assert!(b.take(t0 + CHAT_REFILL));
        assert!(!b.take(t0 + CHAT_REFILL));
        // A long silence refills the burst, no more.
        let later = t0 + CHAT_REFILL * 1000;
        for _ in 0..CHAT_BURST {
            assert!(b.take(later));
        }
        assert!(!b.take(later));
    }

    #[test]
    fn stored_lines_lose_their_control_characters() {
        assert_eq!(clean_stored("a\u{1b}[2Jb\u{202e}c".into()), "a[2Jbc");
        assert_eq!(clean_stored("plain".into()), "plain");
    }
}
