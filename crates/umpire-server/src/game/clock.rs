//! [`Clocks`]: both players' clocks with increment; server time is the truth.

use std::time::Duration;

use tokio::time::Instant;

use umpire_rules::shakmaty::Color;

/// A time control: the clock each side starts with and the increment added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Milliseconds on each clock at the start.
    pub initial_ms: i64,
    /// Milliseconds added to the mover's clock after each move.
    pub increment_ms: i64,
}

impl TimeControl {
    /// The longest clock accepted: 30 days (correspondence).
    pub const MAX_MS: i64 = 30 * 24 * 3600 * 1000;

    /// Checks the bounds: a start clock from one second to [`TimeControl::MAX_MS`], an
    /// increment from zero to one day.
    pub fn checked(initial_ms: i64, increment_ms: i64) -> Result<TimeControl, String> {
        if !(1000..=TimeControl::MAX_MS).contains(&initial_ms) {
            return Err(format!(
                "initial clock must be from 1000 ms to {} ms (30 days)",
                TimeControl::MAX_MS
            ));
        }
        if !(0..=24 * 3600 * 1000).contains(&increment_ms) {
            return Err("increment must be from 0 ms to one day".to_owned());
        }
        Ok(TimeControl {
            initial_ms,
            increment_ms,
        })
    }
}

/// The clocks of a game: what each side has left, which one runs and since when.
///
/// Time is kept exactly (nanoseconds) and rounded only when read: charging the running side
/// at any moment (say at a rejected attempt nobody else hears of) changes nothing that any
/// later reading shows, so what the clocks show is a function of the accepted moves and of
/// time alone. The instants are `tokio::time::Instant`s: a paused tokio runtime is a test
/// clock.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Nanoseconds each side has left (negative once its flag has fallen).
    remaining_ns: [i64; 2],
    running: Option<Color>,
    since: Instant,
    increment_ms: i64,
}

/// What the clocks show at one moment: public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// White's time left, milliseconds (never below zero).
    pub white_ms: i64,
    /// Black's time left, milliseconds (never below zero).
    pub black_ms: i64,
    /// The side whose clock runs.
    pub running: Option<Color>,
}

fn index(side: Color) -> usize {
    side.fold_wb(0, 1)
}

const NS_PER_MS: i64 = 1_000_000;

/// Milliseconds as nanoseconds, saturating (clocks are bounded far below the limit).
fn ns_of_ms(ms: i64) -> i64 {
    ms.saturating_mul(NS_PER_MS)
}

/// Whole milliseconds of `ns`, rounded down (towards minus infinity, so that a clock with
/// any time left below a millisecond reads 0 and one past its flag reads below 0).
fn ms_of_ns(ns: i64) -> i64 {
    ns.div_euclid(NS_PER_MS)
}

impl Clocks {
    /// Stopped clocks at the start of a game.
    pub fn new(tc: TimeControl, now: Instant) -> Clocks {
        Clocks {
            remaining_ns: [ns_of_ms(tc.initial_ms); 2],
            running: None,
            since: now,
            increment_ms: tc.increment_ms,
        }
    }

    /// Sets a side's time left (when a game is rebuilt from its stored commands).
    pub fn set(&mut self, side: Color, ms: i64) {
        self.remaining_ns[index(side)] = ns_of_ms(ms);
    }

    /// Starts `side`'s clock at `now` (the other stops).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.charge(now);
        self.running = Some(side);
        self.since = now;
    }

    /// Stops both clocks at `now`, charging the running side.
    pub fn stop(&mut self, now: Instant) {
        self.charge(now);
        self.running = None;
        self.since = now;
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// Exactly what `side` has left at `now`, in nanoseconds.
    fn left_ns(&self, side: Color, now: Instant) -> i64 {
        let base = self.remaining_ns[index(side)];
        if self.running == Some(side) {
            let spent = now.saturating_duration_since(self.since).as_nanos();
            base.saturating_sub(i64::try_from(spent).unwrap_or(i64::MAX))
        } else {
            base
        }
    }

    /// What `side` has left at `now`, whole milliseconds rounded down (negative once its
    /// flag has fallen).
    pub fn left(&self, side: Color, now: Instant) -> i64 {
        ms_of_ns(self.left_ns(side, now))
    }

    /// Whether `side`'s flag has fallen at `now`: no time at all left, to the nanosecond.
    pub fn flag_fallen(&self, side: Color, now: Instant) -> bool {
        self.left_ns(side, now) <= 0
    }

    /// Charges the running side exactly for the time since its clock last started or was
    /// charged. No later reading changes: the time is kept to the nanosecond.
    pub fn charge(&mut self, now: Instant) {
        if let Some(running) = self.running {
            self.remaining_ns[index(running)] = self.left_ns(running, now);
            self.since = now;
        }
    }

    /// After `side` moved at `now`: charges it, adds the increment and starts the other clock.
    /// Returns what `side` has left, in milliseconds.
    pub fn moved(&mut self, side: Color, now: Instant) -> i64 {
        self.charge(now);
        let i = index(side);
        self.remaining_ns[i] = self.remaining_ns[i].saturating_add(ns_of_ms(self.increment_ms));
        self.start(!side, now);
        self.left(side, now)
    }

    /// When the running side's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        let side = self.running?;
        let left = self.remaining_ns[index(side)].max(0) as u64;
        Some(self.since + Duration::from_nanos(left))
    }

    /// What the clocks show at `now`.
    pub fn reading(&self, now: Instant) -> ClockReading {
        ClockReading {
            white_ms: self.left(Color::White, now).max(0),
            black_ms: self.left(Color::Black, now).max(0),
            running: self.running,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increment_is_added_after_a_move_and_the_other_clock_runs() {
        let t0 = Instant::now();
        let tc = TimeControl::checked(60_000, 2_000).unwrap();
        let mut c = Clocks::new(tc, t0);
        c.start(Color::White, t0);
        let t1 = t0 + Duration::from_millis(5_000);
        assert_eq!(c.left(Color::White, t1), 55_000);
        assert_eq!(c.moved(Color::White, t1), 57_000);
        assert_eq!(c.running(), Some(Color::Black));
        let t2 = t1 + Duration::from_millis(1_500);
        assert_eq!(c.left(Color::Black, t2), 58_500);
        assert_eq!(c.left(Color::White, t2), 57_000);
        assert_eq!(c.deadline(), Some(t1 + Duration::from_millis(60_000)));
    }

    #[test]
    fn charging_without_a_move_keeps_the_clock_running() {
        let t0 = Instant::now();
        let mut c = Clocks::new(TimeControl::checked(10_000, 0).unwrap(), t0);
        c.start(Color::White, t0);
        let t1 = t0 + Duration::from_millis(4_000);
        c.charge(t1);
        assert_eq!(c.left(Color::White, t1), 6_000);
        assert_eq!(c.running(), Some(Color::White));
        assert_eq!(
            c.left(Color::White, t1 + Duration::from_millis(7_000)),
            -1_000
        );
        assert_eq!(c.reading(t1 + Duration::from_millis(7_000)).white_ms, 0);
    }

    #[test]
    fn charging_at_any_moments_changes_no_later_reading() {
        // Issue 31, item 1: with whole milliseconds kept, each charge at a rejected attempt
        // gave the mover back its sub-millisecond remainder, so the opponent's reading told
        // how many silent attempts there had been.
        let t0 = Instant::now();
        let tc = TimeControl::checked(60_000, 0).unwrap();
        let mut quiet = Clocks::new(tc, t0);
        quiet.start(Color::White, t0);
        let mut busy = quiet;
        let mut t = t0;
        for _ in 0..150 {
            t += Duration::from_micros(1_700);
            busy.charge(t);
        }
        let moved_at = t + Duration::from_micros(333);
        assert_eq!(
            quiet.moved(Color::White, moved_at),
            busy.moved(Color::White, moved_at)
        );
        let later = moved_at + Duration::from_micros(12_345);
        assert_eq!(quiet.reading(later), busy.reading(later));
        assert_eq!(quiet.deadline(), busy.deadline());
        assert_eq!(quiet.left(Color::White, later), 60_000 - 256);
    }

    #[test]
    fn a_flag_falls_only_with_no_time_at_all_left() {
        let t0 = Instant::now();
        let mut c = Clocks::new(TimeControl::checked(1_000, 0).unwrap(), t0);
        c.start(Color::Black, t0);
        let almost = t0 + Duration::from_nanos(999_999_999);
        assert_eq!(c.left(Color::Black, almost), 0);
        assert!(!c.flag_fallen(Color::Black, almost));
        assert!(c.flag_fallen(Color::Black, t0 + Duration::from_secs(1)));
        assert_eq!(c.deadline(), Some(t0 + Duration::from_secs(1)));
    }

    #[test]
    fn bounds_are_checked() {
        assert!(TimeControl::checked(999, 0).is_err());
        assert!(TimeControl::checked(60_000, -1).is_err());
        assert!(TimeControl::checked(TimeControl::MAX_MS + 1, 0).is_err());
        assert!(TimeControl::checked(TimeControl::MAX_MS, 0).is_ok());
    }
}
