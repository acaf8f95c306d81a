//! Rate limits: a token bucket ([`TokenBucket`]) per key ([`Limiter`]), used on log-in (per
//! address; the back-off per address and account is [`crate::http::backoff`]), on minting
//! guest accounts (per address), on making accounts and bots (per address), on creating games
//! (per account, and per address for guests), on the frames of each player in each game
//! (however many sockets it opens) and of each spectator's connection. A refused request gets
//! the `rate_limited` refusal (HTTP 429 / an `error` frame, at most one per 250 ms for a
//! player's game sockets together, or a spectator address's: [`crate::http::frame_limit`]);
//! nothing else changes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// A bucket of `capacity` tokens refilled at `per_second`; each request takes one.
#[derive(Clone, Copy, Debug)]
pub struct TokenBucket {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket at `now`.
    pub fn new(capacity: u32, per_second: f64, now: Instant) -> TokenBucket {
        TokenBucket {
            capacity: f64::from(capacity),
            per_second,
            tokens: f64::from(capacity),
            last: now,
        }
    }

    /// Takes one token at `now`; false (and nothing taken) when the bucket is empty.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket is full at `now` (it can then be forgotten).
    fn is_full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.per_second >= self.capacity
    }
}

/// The most keys a [`Limiter`] remembers; full buckets are forgotten first.
const MAX_KEYS: usize = 100_000;

/// One token bucket per key (an account name, an address).
#[derive(Debug)]
pub struct Limiter {
    capacity: u32,
    per_second: f64,
    buckets: Mutex<HashMap<String, TokenBucket>>,
}

impl Limiter {
    /// Buckets of `capacity` tokens refilled at `per_second`.
    pub fn new(capacity: u32, per_second: f64) -> Limiter {
        Limiter {
            capacity,
            per_second,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `key`'s bucket at `now`.
    pub fn take(&self, key: &str, now: Instant) -> bool {
        // A poisoned lock still holds sound buckets (each update is a few assignments): the
        // limit goes on, it does not open.
        let mut map = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= MAX_KEYS {
            map.retain(|_, b| !b.is_full(now));
            if map.len() >= MAX_KEYS {
                return false;
            }
        }
        if let Some(bucket) = map.get_mut(key) {
            return bucket.take(now);
        }
        map.entry(key.to_owned())
            .or_insert_with(|| TokenBucket::new(self.capacity, self.per_second, now))
            .take(now)
    }
}

/// Log-in tries per address, whatever the names tried: a burst of
/// [`LOGIN_BURST_PER_ADDRESS`] (30), then one every 10 seconds. A wrong password also backs
/// off that address for that account ([`crate::http::backoff`]); no count is kept per account
/// alone, so that no one can lock an owner out from another address.
pub fn login_limiter() -> Limiter {
    Limiter::new(LOGIN_BURST_PER_ADDRESS, 0.1)
}

/// The log-in tries one address may make at once, see [`login_limiter`].
pub const LOGIN_BURST_PER_ADDRESS: u32 = 30;

/// Accounts (`POST /api/register`) and bots (`POST /api/bots`) made per address: a burst of
/// [`NEW_ACCOUNTS_BURST`] (20), then one a minute. Each costs an argon2 hash or a token and a
/// row kept forever; loopback is counted too (a load test makes guests, not accounts).
pub fn new_account_limiter() -> Limiter {
    Limiter::new(NEW_ACCOUNTS_BURST, 1.0 / 60.0)
}

/// The accounts and bots one address may make at once, see [`new_account_limiter`].
pub const NEW_ACCOUNTS_BURST: u32 = 20;

/// Frames of one player in one game, all its sockets together (keyed by game and colour): a
/// burst of [`FRAME_BURST`] (200), then [`FRAMES_PER_SECOND`] (100) a second. Opening more
/// sockets gives no more frames.
pub fn player_frame_limiter() -> Limiter {
    Limiter::new(FRAME_BURST, FRAMES_PER_SECOND)
}

/// The frames a player (all its sockets of a game) or a spectator's socket may send at once.
pub const FRAME_BURST: u32 = 200;

/// The frames a player (all its sockets of a game) or a spectator's socket may send a second
/// once its burst is spent.
pub const FRAMES_PER_SECOND: f64 = 100.0;

/// Game sockets opened on finished games per address (loopback only with
/// [`crate::Options::limit_loopback_guests`]): a burst of [`FINISHED_SOCKETS_BURST`] (30),
/// then one every 2 seconds. Each may wake the game's task from storage (a replay, and the
/// game kept in memory until [`crate::game::round::IDLE_UNLOAD`] after its last connection),
/// so one address keeps at most about 60 finished games in memory, however fast it opens and
/// closes sockets on old games. A finished game's record and review need no socket.
pub fn finished_socket_limiter() -> Limiter {
    Limiter::new(FINISHED_SOCKETS_BURST, 0.5)
}

/// The sockets on finished games one address may open at once, see
/// [`finished_socket_limiter`].
pub const FINISHED_SOCKETS_BURST: u32 = 30;

/// Games created per account (or guest, or bot): a burst of 30, then one every 2 seconds.
pub fn creation_limiter() -> Limiter {
    Limiter::new(30, 0.5)
}

/// Guest accounts minted (`POST /api/guest`) per IP address: a burst of 100, then one every
/// 10 seconds (360 an hour).
pub fn guest_account_limiter() -> Limiter {
    Limiter::new(100, 0.1)
}

/// Games created by guests per IP address: a burst of 60, then one a second.
pub fn guest_creation_limiter() -> Limiter {
    Limiter::new(60, 1.0)
}

/// Frames per spectator's connection (and per lobby feed): a burst of [`FRAME_BURST`], then
/// [`FRAMES_PER_SECOND`] a second.
pub fn frame_bucket(now: Instant) -> TokenBucket {
    TokenBucket::new(FRAME_BURST, FRAMES_PER_SECOND, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_refuses_past_its_burst_and_refills_with_time() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(3, 2.0, t0);
        assert!(b.take(t0) && b.take(t0) && b.take(t0));
        assert!(!b.take(t0));
        // Half a second at two a second: one more token.
        let t1 = t0 + Duration::from_millis(500);
        assert!(b.take(t1));
        assert!(!b.take(t1));
        // Never more than the capacity.
        let t2 = t1 + Duration::from_secs(3600);
        assert!(b.take(t2) && b.take(t2) && b.take(t2));
        assert!(!b.take(t2));
    }

    #[test]
    fn a_limiter_keeps_one_bucket_per_key() {
        let t0 = Instant::now();
        let l = Limiter::new(1, 0.001);
        assert!(l.take("ann", t0));
        assert!(!l.take("ann", t0));
        assert!(l.take("bob", t0));
    }
}
