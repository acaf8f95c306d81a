//! [`Backoff`]: wrong passwords counted per (address, account), each one past
//! [`FREE_FAILURES`] doubling the wait before that address may try that account again.
//!
//! The key is the pair, never the account alone: a stranger guessing at an account from an
//! address of their own makes only their own address wait, and the owner logging in from any
//! other address is never held back (the limit per address,
//! [`crate::http::rate_limit::login_limiter`], bounds guessing at many accounts from one
//! address). A right password clears the pair's count.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Wrong passwords an address may give for an account before it has to wait.
pub const FREE_FAILURES: u32 = 5;

/// The wait after the first failure past [`FREE_FAILURES`]; each further failure doubles it.
pub const FIRST_WAIT: Duration = Duration::from_secs(1);

/// The longest wait.
pub const MAX_WAIT: Duration = Duration::from_secs(15 * 60);

/// A pair with no failure for this long is forgotten (its count starts again).
pub const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);

/// The most pairs remembered; past that the forgettable ones are dropped, and if none is,
/// new pairs are refused until some are (an attacker filling the table only shuts itself out
/// while it keeps trying).
const MAX_KEYS: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    last: Instant,
    until: Instant,
}

/// The failures of each (address, account) pair.
#[derive(Debug, Default)]
pub struct Backoff {
    pairs: Mutex<HashMap<String, Failures>>,
}

/// The key of an address and an account name (names compared without case).
pub fn key(address: &str, name: &str) -> String {
    format!("{address} {}", name.to_lowercase())
}

impl Backoff {
    /// `Ok` if `key` may try now, else how long it must still wait.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let Ok(mut map) = self.pairs.lock() else {
            return Ok(());
        };
        if let Some(f) = map.get(key) {
            if now >= f.until {
                return Ok(());
            }
            return Err(f.until - now);
        }
        if map.len() >= MAX_KEYS {
            map.retain(|_, f| now.saturating_duration_since(f.last) < FORGET_AFTER);
            if map.len() >= MAX_KEYS {
                return Err(FIRST_WAIT);
            }
        }
        Ok(())
    }

    /// A wrong password from `key` at `now`.
    pub fn failed(&self, key: &str, now: Instant) {
        let Ok(mut map) = self.pairs.lock() else {
            return;
        };
        let f = map.entry(key.to_owned()).or_insert(Failures {
            count: 0,
            last: now,
            until: now,
        });
        if now.saturating_duration_since(f.last) >= FORGET_AFTER {
            f.count = 0;
        }
        f.count = f.count.saturating_add(1);
        f.last = now;
        if f.count > FREE_FAILURES {
            let doublings = (f.count - FREE_FAILURES - 1).min(20);
            let wait = FIRST_WAIT.saturating_mul(1 << doublings).min(MAX_WAIT);
            f.until = now + wait;
        }
    }

    /// The right password from `key`: its count starts again.
    pub fn succeeded(&self, key: &str) {
        if let Ok(mut map) = self.pairs.lock() {
            map.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_past_the_free_failures_and_only_for_that_pair() {
        let t0 = Instant::now();
        let b = Backoff::default();
        let k = key("203.0.113.9", "Ann");
        for _ in 0..FREE_FAILURES {
            assert!(b.check(&k, t0).is_ok());
            b.failed(&k, t0);
        }
        assert!(b.check(&k, t0).is_ok());
        b.failed(&k, t0);
        assert_eq!(b.check(&k, t0), Err(FIRST_WAIT));
        let t1 = t0 + FIRST_WAIT;
        assert!(b.check(&k, t1).is_ok());
        b.failed(&k, t1);
        assert_eq!(b.check(&k, t1), Err(FIRST_WAIT * 2));
        // The same account from another address, and another account from this one: free.
        assert!(b.check(&key("198.51.100.7", "ann"), t1).is_ok());
        assert!(b.check(&key("203.0.113.9", "bob"), t1).is_ok());
        // The wait never passes the cap.
        let mut t = t1;
        for _ in 0..40 {
            t += MAX_WAIT;
            b.failed(&k, t);
        }
        assert_eq!(b.check(&k, t), Err(MAX_WAIT));
        // The right password clears the count.
        b.succeeded(&k);
        assert!(b.check(&k, t).is_ok());
    }
}
