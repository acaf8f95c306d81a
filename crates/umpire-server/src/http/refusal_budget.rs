//! [`RefusalBudget`]: when a `rate_limited` answer may be sent, shared by every socket of one
//! key (a player in a game, all its sockets; a spectator's address, all its sockets in every
//! game), so that opening more sockets gets no more answers.
//!
//! Each key may be answered at most once per [`REFUSAL_EVERY`]: a socket that wants to answer
//! a refused frame claims the key's slot; if another socket of the key answered less than
//! [`REFUSAL_EVERY`] ago, it is told when to try again. A key whose last answer is older than
//! [`REFUSAL_EVERY`] holds nothing worth keeping, so the table forgets such keys when it is
//! full ([`MAX_KEYS`]); if it is still full, nobody new is answered until keys age out (the
//! refused frames wait, they are not answered early).

use std::collections::HashMap;
use std::sync::Mutex;

use std::time::Duration;

use tokio::time::Instant;

/// The least time between two `rate_limited` answers to one key: a player in a game, all its
/// sockets; a spectator's address, all its sockets (250 ms).
pub const REFUSAL_EVERY: Duration = Duration::from_millis(250);

/// The most keys remembered at once (each one answered within the last [`REFUSAL_EVERY`]).
pub const MAX_KEYS: usize = 100_000;

/// The last `rate_limited` answer of each key, see the module's documentation.
#[derive(Debug, Default)]
pub struct RefusalBudget {
    last: Mutex<HashMap<String, Instant>>,
}

impl RefusalBudget {
    /// An empty table.
    pub fn new() -> RefusalBudget {
        RefusalBudget::default()
    }

    /// Claims `key`'s answer at `now`: `Ok(())` if the key was not answered within the last
    /// [`REFUSAL_EVERY`] (it is answered now), else `Err(t)`: the earliest moment to claim it
    /// again.
    pub fn claim(&self, key: &str, now: Instant) -> Result<(), Instant> {
        // A poisoned lock still holds sound instants: the budget goes on.
        let mut map = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(last) = map.get_mut(key) {
            let next = *last + REFUSAL_EVERY;
            if now < next {
                return Err(next);
            }
            *last = now;
            return Ok(());
        }
        if map.len() >= MAX_KEYS {
            map.retain(|_, last| now.saturating_duration_since(*last) < REFUSAL_EVERY);
            if map.len() >= MAX_KEYS {
                let oldest = map.values().min().copied().unwrap_or(now);
                return Err(oldest + REFUSAL_EVERY);
            }
        }
        map.insert(key.to_owned(), now);
        Ok(())
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_answered_at_most_once_per_interval_whoever_asks() {
        let t0 = Instant::now();
        let b = RefusalBudget::new();
        assert_eq!(b.claim("g/white", t0), Ok(()));
        // Another socket of the same key, a moment later: not now, at t0 + 250 ms.
        assert_eq!(
            b.claim("g/white", t0 + Duration::from_millis(10)),
            Err(t0 + REFUSAL_EVERY)
        );
        // Another key is not held back.
        assert_eq!(b.claim("g/black", t0), Ok(()));
        assert_eq!(b.claim("g/white", t0 + REFUSAL_EVERY), Ok(()));
    }

    #[test]
    fn a_full_table_forgets_keys_answered_long_ago() {
        let t0 = Instant::now();
        let b = RefusalBudget::new();
        for i in 0..MAX_KEYS {
            assert_eq!(b.claim(&i.to_string(), t0), Ok(()));
        }
        // Full, every key fresh: a new key waits until the oldest ages out.
        assert_eq!(b.claim("new", t0), Err(t0 + REFUSAL_EVERY));
        // Later, the old keys are forgotten and the new one is answered.
        assert_eq!(b.claim("new", t0 + REFUSAL_EVERY), Ok(()));
        assert_eq!(b.len(), 1);
    }
}
