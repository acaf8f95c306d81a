//! The frame limit of a game socket's reader: whether a frame that came in may pass the rate
//! limit ([`FrameLimit`]), and when a refused one is answered ([`Refusals`]).
//!
//! Refusals are coalesced in time, per key and not per socket: a player's sockets in one game
//! share one key, a spectator's sockets (every game) the key of its address
//! ([`crate::http::refusal_budget`]). The first frame refused after the key had a quiet spell
//! of at least [`REFUSAL_EVERY`] is answered at once; frames refused sooner are not answered
//! one by one, but on each socket the latest of them is answered once [`REFUSAL_EVERY`] has
//! passed since the key's previous answer (the reader arms a timer for it; if another socket
//! of the key answered first, the timer is armed again). So a client that waits for each
//! answer and sends again at once on one socket always hears within [`REFUSAL_EVERY`], and a
//! flood lasting `d` gets at most `1 + d / REFUSAL_EVERY` answers however many sockets it
//! opens, whatever the pace of the server's writer.

use std::sync::Arc;

use tokio::time::Instant;

use crate::http::rate_limit::{Limiter, TokenBucket};
use crate::http::refusal_budget::RefusalBudget;

pub use crate::http::refusal_budget::REFUSAL_EVERY;

/// The frame id a refusal answers (`reply_to`), `None` for a frame without one.
pub type FrameId = Option<u64>;

/// When refused frames are answered: at most one answer per [`REFUSAL_EVERY`] for all the
/// sockets of one key together ([`RefusalBudget`]: a player in a game, or a spectator's
/// address), the latest refused frame's on each socket. `F` is what is kept of a refused frame
/// until it is answered (the reader keeps the frame's text, bounded by the transport's limit,
/// and reads its id only when it answers, so that a flood costs no parsing).
#[derive(Debug)]
pub struct Refusals<F = FrameId> {
    /// The answers of this socket's key, shared with the key's other sockets.
    budget: Arc<RefusalBudget>,
    /// This socket's key in `budget`.
    key: String,
    /// A refused frame not answered yet (the latest such): it is answered when due.
    pending: Option<F>,
    /// When to try again to answer `pending` (the key's next free moment, as last seen).
    retry: Option<Instant>,
}

impl<F> Refusals<F> {
    /// The refusals of a socket whose answers count against `key` in `budget`.
    pub fn new(budget: Arc<RefusalBudget>, key: String) -> Refusals<F> {
        Refusals {
            budget,
            key,
            pending: None,
            retry: None,
        }
    }

    /// A frame with `id` was refused at `now`: `Some(id)` to answer it at once, `None` when it
    /// waits (replacing any earlier refused frame still waiting) until [`Refusals::due`].
    pub fn refused(&mut self, id: F, now: Instant) -> Option<F> {
        if self.pending.is_none() {
            match self.budget.claim(&self.key, now) {
                Ok(()) => return Some(id),
                Err(next) => self.retry = Some(next),
            }
        }
        self.pending = Some(id);
        None
    }

    /// When the waiting refusal is to be answered, if one waits (the reader's timer).
    pub fn due(&self) -> Option<Instant> {
        self.pending.as_ref().and(self.retry)
    }

    /// The waiting refusal to answer at `now`, if one waits, is due, and the key's budget
    /// allows it (another socket of the key may have answered meanwhile: then it waits on,
    /// with a later [`Refusals::due`]).
    pub fn fire(&mut self, now: Instant) -> Option<F> {
        if self.due().is_none_or(|due| now < due) {
            return None;
        }
        match self.budget.claim(&self.key, now) {
            Ok(()) => {
                self.retry = None;
                self.pending.take()
            }
            Err(next) => {
                self.retry = Some(next);
                None
            }
        }
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
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The refusals of a socket of its own key.
    fn refusals() -> Refusals<FrameId> {
        Refusals::new(Arc::new(RefusalBudget::new()), "game/white".to_owned())
    }

    /// Sockets of one key (one player in one game) flooding at once, one refused frame each
    /// every millisecond for 10 s: all together get at most `1 + 10 s / 250 ms` answers (not
    /// that many per socket), and every socket's flood end is still answered.
    #[test]
    fn sockets_of_one_key_share_one_answer_per_interval() {
        let t0 = Instant::now();
        let budget = Arc::new(RefusalBudget::new());
        let mut sockets: Vec<Refusals<FrameId>> = (0..12)
            .map(|_| Refusals::new(budget.clone(), "game/white".to_owned()))
            .collect();
        let mut answered = 0u128;
        let end = t0 + ms(10_000);
        let mut now = t0;
        while now < end {
            for (s, r) in sockets.iter_mut().enumerate() {
                if r.due().is_some_and(|due| due <= now) && r.fire(now).is_some() {
                    answered += 1;
                }
                if r.refused(Some(s as u64), now).is_some() {
                    answered += 1;
                }
            }
            now += ms(1);
        }
        let bound = 1 + (now - t0).as_millis() / REFUSAL_EVERY.as_millis();
        assert!(
            answered <= bound,
            "{answered} answers to 12 sockets, over {bound}"
        );
        assert!(answered >= 30, "{answered} answers");
        // Once the flood stops each socket's last refused frame is answered in turn.
        let mut last = Vec::new();
        for _ in 0..(2 * sockets.len()) {
            now += REFUSAL_EVERY;
            for r in &mut sockets {
                if let Some(a) = r.fire(now) {
                    last.push(a);
                }
            }
        }
        last.sort_unstable();
        assert_eq!(last, (0..12).map(Some).collect::<Vec<_>>());
    }

    /// Another key (the opponent, or another spectator's address) keeps its own answers.
    #[test]
    fn another_key_is_not_held_back() {
        let t0 = Instant::now();
        let budget = Arc::new(RefusalBudget::new());
        let mut white = Refusals::<FrameId>::new(budget.clone(), "game/white".to_owned());
        let mut black = Refusals::<FrameId>::new(budget, "game/black".to_owned());
        assert_eq!(white.refused(Some(1), t0), Some(Some(1)));
        assert_eq!(black.refused(Some(2), t0), Some(Some(2)));
    }

    /// A client that waits for each answer and sends again at once, refused every time:
    /// every refused frame is answered, none later than [`REFUSAL_EVERY`] after it was sent.
    #[test]
    fn a_client_that_waits_for_each_answer_always_hears() {
        let t0 = Instant::now();
        let mut r = refusals();
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
        let mut r = refusals();
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
        let mut r = refusals();
        assert_eq!(r.refused(None, t0), Some(None));
        assert_eq!(r.due(), None);
        assert_eq!(r.refused(Some(5), t0 + REFUSAL_EVERY), Some(Some(5)));
        assert_eq!(r.due(), None);
    }
}
