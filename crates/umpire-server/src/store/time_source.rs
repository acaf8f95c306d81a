//! [`TimeSource`]: where the server reads the time, both the instants the live games' clocks
//! and timers run on and the wall-clock milliseconds stored with what it keeps. The system in
//! production; a hand-turned clock in tests, so that an in-process server plays a game the
//! same way twice.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

/// Where the time comes from.
#[derive(Clone, Debug, Default)]
pub enum TimeSource {
    /// The system's clocks (`tokio::time::Instant::now()`, which a paused tokio runtime also
    /// controls, and `SystemTime`).
    #[default]
    System,
    /// A clock that moves only when told ([`ManualClock::advance`]).
    Manual(Arc<ManualClock>),
}

/// A clock for tests: it starts at a chosen wall-clock time and moves only by
/// [`ManualClock::advance`].
#[derive(Debug)]
pub struct ManualClock {
    origin: Instant,
    epoch_ms: i64,
    elapsed_ns: AtomicU64,
}

impl ManualClock {
    /// A clock reading `epoch_ms` milliseconds since the Unix epoch.
    pub fn new(epoch_ms: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock {
            origin: Instant::now(),
            epoch_ms,
            elapsed_ns: AtomicU64::new(0),
        })
    }

    /// Moves the clock on by `by`.
    pub fn advance(&self, by: Duration) {
        let ns = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        self.elapsed_ns.fetch_add(ns, Ordering::SeqCst);
    }

    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.elapsed_ns.load(Ordering::SeqCst))
    }
}

impl TimeSource {
    /// The instant now, for clocks and timers.
    pub fn now(&self) -> Instant {
        match self {
            TimeSource::System => Instant::now(),
            TimeSource::Manual(c) => c.origin + c.elapsed(),
        }
    }

    /// Milliseconds since the Unix epoch now, for what is stored.
    pub fn now_ms(&self) -> i64 {
        match self {
            TimeSource::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64),
            TimeSource::Manual(c) => c
                .epoch_ms
                .saturating_add(i64::try_from(c.elapsed().as_millis()).unwrap_or(i64::MAX)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new(1_700_000_000_000);
        let time = TimeSource::Manual(clock.clone());
        let t0 = time.now();
        assert_eq!(time.now(), t0);
        assert_eq!(time.now_ms(), 1_700_000_000_000);
        clock.advance(Duration::from_micros(2_500));
        assert_eq!(time.now() - t0, Duration::from_micros(2_500));
        assert_eq!(time.now_ms(), 1_700_000_000_002);
    }
}
