//! [`KingTracker`]: the set of squares where a lone enemy king may stand, kept with the
//! tablebase's own [`Split`] (an attempt divides the set by the umpire's answer) and spread
//! (the king's reply), White-oriented.

use umpire_rules::shakmaty::Bitboard;
use umpire_rules::{Attempt, CheckKind};
use umpire_tablebase::{Answer, Layout, Split};

/// Where the lone king may be, as far as the player can tell since the tracking began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingTracker {
    /// `None`: not tracking (every square possible).
    set: Option<u64>,
}

impl KingTracker {
    /// A tracker that knows the king is on one of `set` (White-oriented).
    pub fn starting(set: u64) -> KingTracker {
        KingTracker { set: Some(set) }
    }

    /// The tracked set, if tracking.
    pub fn set(&self) -> Option<u64> {
        self.set
    }

    /// The set to probe with `layout` to move: the tracked one, or every square of the
    /// layout's domain when not tracking or when the tracked set has no square left there (an
    /// observation the tracker could not follow); tracking starts.
    pub fn current(&mut self, layout: Layout) -> u64 {
        self.current_in(layout.domain())
    }

    /// [`KingTracker::current`] with the squares where the king may stand given as `domain`
    /// (a table's layout with surplus men beside it: [`super::Board::domain`]).
    pub fn current_in(&mut self, domain: u64) -> u64 {
        let set = match self.set {
            Some(s) if s & domain != 0 => s & domain,
            _ => domain,
        };
        self.set = Some(set);
        set
    }

    /// Stops tracking.
    pub fn forget(&mut self) {
        self.set = None;
    }

    /// Replaces the tracked set, if tracking, by `next` of it (`None`: an observation that
    /// cannot be followed; tracking stops).
    pub fn narrow(&mut self, next: impl FnOnce(u64) -> Option<u64>) {
        if let Some(set) = self.set {
            self.set = next(set);
        }
    }

    /// `attempt` from `layout` was illegal: the king is where it makes the attempt illegal.
    pub fn illegal(&mut self, layout: Layout, attempt: Attempt) {
        let Some(set) = self.set else { return };
        if !layout.attempts().contains(&attempt) {
            self.set = None;
            return;
        }
        let split = Split::new(&layout, attempt);
        self.set = Some(set & split.illegal);
    }

    /// `attempt` from `layout` was played and the player heard `checks`: keep the squares
    /// that give that answer, then spread them by the king's reply.
    pub fn moved(
        &mut self,
        layout: Layout,
        attempt: Attempt,
        checks: impl Iterator<Item = CheckKind>,
    ) {
        let Some(set) = self.set else { return };
        if !layout.attempts().contains(&attempt) {
            self.set = None;
            return;
        }
        let mut kinds = [CheckKind::Knight; 2];
        let mut n = 0;
        for k in checks {
            if n < 2 {
                kinds[n] = k;
            }
            n += 1;
        }
        let heard = Answer::of_checks(&kinds[..n.min(2)]);
        let split = Split::new(&layout, attempt);
        let mut kept = 0u64;
        for sq in Bitboard(set & split.good()) {
            if split.answer(sq) == Some(heard) {
                kept |= Bitboard::from_square(sq).0;
            }
        }
        self.set = Some(split.spread(kept));
    }
}
