//! The frame limit of a game socket's reader: whether a frame that came in may pass the rate
//! limit ([`FrameLimit`]), and when a refused one is answered ([`Refusals`]).
//!
//! Refusals are coalesced in time: the first frame refused after a quiet spell of at least
//! [`REFUSAL_EVERY`] is answered at once; frames refused sooner are not answered one by one,
//! but the latest of them is answered once [`REFUSAL_EVERY`] has passed since the previous
//! answer (the reader arms a timer for it). So a client that waits for each answer and sends
//! again at once always hears within [`REFUSAL_EVERY`], and a flood lasting `d` gets at most
//! `1 + d / REFUSAL_EVERY` answers, whatever the pace of the server's writer.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::http::rate_limit::{Limiter, TokenBucket};

/// The least time between two `rate_limited` answers on one connection (250 ms).
pub const REFUSAL_EVERY: Duration = Duration::from_millis(250);

/// The frame id a refusal answers (`reply_to`), `None` for a frame without one.
pub type FrameId = Option<u64>;

/// When refused frames are answered: at most one answer per [`REFUSAL_EVERY`], the latest
/// refused frame's. `F` is what is kept of a refused frame until it is answered (the reader
/// keeps the frame's text, bounded by the transport's limit, and reads its id only when it
/// answers, so that a flood costs no parsing).
#[derive(Debug)]
pub struct Refusals<F = FrameId> {
    /// When the previous `rate_limited` answer was sent.
    last_answer: Option<Instant>,
    /// A refused frame not answered yet (the latest such): it is answered when due.
    pending: Option<F>,
}

impl<F> Default for Refusals<F> {
    fn default() -> Self {
        Refusals {
            last_answer: None,
            pending: None,
        }
    }
}

impl<F> Refusals<F> {
    /// A frame with `id` was refused at `now`: `Some(id)` to answer it at once, `None` when it
    /// waits (replacing any earlier refused frame still waiting) until [`Refusals::due`].
    pub fn refused(&mut self, id: F, now: Instant) -> Option<F> {
        let quiet = self
            .last_answer
            .is_none_or(|last| now.saturating_duration_since(last) >= REFUSAL_EVERY);
        if quiet && self.pending.is_none() {
            self.last_answer = Some(now);
            return Some(id);
        }
        self.pending = Some(id);
        None
    }

    /// When the waiting refusal is to be answered, if one waits (the reader's timer).
    pub fn due(&self) -> Option<Instant> {
        let last = self.last_answer?;
        self.pending.as_ref().map(|_| last + REFUSAL_EVERY)
    }

    /// The waiting refusal to answer at `now`, if one waits and is due; it no longer waits.
    pub fn fire(&mut self, now: Instant) -> Option<F> {
        if self.due().is_none_or(|due| now < due) {
            return None;
        }
        self.last_answer = Some(now);
        self.pending.take()
    }
}

/// Whether a frame may pass the rate limit: a player's frames count against that player's
/// bucket in this game ([`crate::http::rate_limit::player_frame_limiter`], shared by all its
/// sockets), a spectator's against its connection's.
#[derive(Debug)]
pub struct FrameLimit {
    player: Option<(Arc<Limiter>, String)>,
    own: TokenBucket,
}

impl FrameLimit {
    /// A player's limit (`player`: the shared limiter and this player's key in it), or a
    /// spectator's (`None`: a bucket of this connection's own), starting at `now`.
    pub fn new(player: Option<(Arc<Limiter>, String)>, now: Instant) -> FrameLimit {
        FrameLimit {
            player,
            own: crate::http::rate_limit::frame_bucket(now.into_std()),
        }
    }

    /// Whether a frame that came in at `now` passes (and takes a token).
    pub fn admit(&mut self, now: Instant) -> bool {
        let now = now.into_std();
        match &self.player {
            Some((limiter, key)) => limiter.take(key, now),
            None => self.own.take(now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A client that waits for each answer and sends again at once, refused every time:
    /// every refused frame is answered, none later than [`REFUSAL_EVERY`] after it was sent.
    #[test]
    fn a_client_that_waits_for_each_answer_always_hears() {
        let t0 = Instant::now();
        let mut r = Refusals::<FrameId>::default();
        assert_eq!(r.refused(Some(1), t0), Some(Some(1)));
        let mut now = t0;
        for id in 2..50 {
            // Sent again at once: it waits, with a timer.
            assert_eq!(r.refused(Some(id), now), None);
            let due = r.due().expect("a timer is armed for the waiting refusal");
            assert!(due - now <= REFUSAL_EVERY);
            // Not before it is due.
            assert_eq!(r.fire(due - ms(1)), None);
            now = due;
            assert_eq!(r.fire(now), Some(Some(id)));
            assert_eq!(r.due(), None, "no timer once answered");
        }
    }

    /// A flood: one refused frame every millisecond for 10 s gets at most `1 + 10 s / 250 ms`
    /// answers, the last frame refused among them (so the flood's end is heard).
    #[test]
    fn a_flood_gets_one_answer_per_interval() {
        let t0 = Instant::now();
        let mut r = Refusals::<FrameId>::default();
        let mut answered = Vec::new();
        for id in 0..10_000u64 {
            let now = t0 + ms(id);
            if let Some(due) = r.due()
                && due <= now
                && let Some(a) = r.fire(due)
            {
                answered.push(a);
            }
            if let Some(a) = r.refused(Some(id), now) {
                answered.push(a);
            }
        }
        let end = r.due().expect("the last refusal waits");
        answered.push(r.fire(end).unwrap());
        let bound = 1 + (end - t0).as_millis() / REFUSAL_EVERY.as_millis();
        assert!(
            answered.len() as u128 <= bound,
            "{} answers",
            answered.len()
        );
        assert!(answered.len() >= 40, "{} answers", answered.len());
        assert_eq!(answered.last(), Some(&Some(9_999)));
    }

    /// After a quiet spell the first refusal is answered at once, with no timer.
    #[test]
    fn a_refusal_after_a_quiet_spell_is_answered_at_once() {
        let t0 = Instant::now();
        let mut r = Refusals::<FrameId>::default();
        assert_eq!(r.refused(None, t0), Some(None));
        assert_eq!(r.due(), None);
        assert_eq!(r.refused(Some(5), t0 + REFUSAL_EVERY), Some(Some(5)));
        assert_eq!(r.due(), None);
    }
}
