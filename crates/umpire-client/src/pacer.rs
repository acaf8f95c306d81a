//! [`Pacer`]: spaces the commands of one load-test game evenly in time, so that `umpire
//! loadtest --rate R` offers the server R commands per second in all instead of as many as it
//! can answer.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The send schedule of one game, shared by its two players: one command per `interval`, the
/// first at `first`. A game that fell behind (its answer came late) sends at once and keeps
/// the interval from then on; it never sends a burst to catch up.
#[derive(Debug)]
pub struct Pacer {
    interval: Duration,
    next: Mutex<Instant>,
}

impl Pacer {
    /// A schedule whose first slot is `first`, then one slot every `interval`.
    pub fn new(first: Instant, interval: Duration) -> Pacer {
        Pacer {
            interval,
            next: Mutex::new(first),
        }
    }

    /// Takes the next slot as of `now`: the scheduled time, or `now` if that is past. The slot
    /// after it is `interval` later.
    pub fn take(&self, now: Instant) -> Instant {
        let Ok(mut next) = self.next.lock() else {
            return now;
        };
        let slot = (*next).max(now);
        *next = slot + self.interval;
        slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_one_interval_apart_and_a_late_game_does_not_burst() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let p = Pacer::new(t0 + ms(30), ms(100));
        // Early: the scheduled slots, one interval apart, whatever the asking time.
        assert_eq!(p.take(t0), t0 + ms(30));
        assert_eq!(p.take(t0 + ms(10)), t0 + ms(130));
        // Late (the slot at 230 has passed): now, then one interval after now.
        assert_eq!(p.take(t0 + ms(500)), t0 + ms(500));
        assert_eq!(p.take(t0 + ms(501)), t0 + ms(600));
    }
}
