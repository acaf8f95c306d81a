//! [`TimeClass`]: the time-control class a game is rated in (bullet, blitz, rapid, classical,
//! correspondence), from its clock and increment.

use std::fmt;
use std::str::FromStr;

/// A start clock of a day or more makes a correspondence game: such a game is never abandoned
/// (only its clocks end it) and is rated in its own class.
pub const CORRESPONDENCE_MS: i64 = 24 * 3600 * 1000;

/// How many moves the estimated duration of a game counts increments for.
pub const ESTIMATED_MOVES: i64 = 40;

/// The class of a time control. Ratings are kept per rule set and class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeClass {
    /// Estimated duration under 3 minutes.
    Bullet,
    /// Estimated duration from 3 to under 8 minutes.
    Blitz,
    /// Estimated duration from 8 to under 25 minutes.
    Rapid,
    /// Estimated duration of 25 minutes or more, with a start clock under a day.
    Classical,
    /// A start clock of a day or more.
    Correspondence,
}

impl TimeClass {
    /// Every class, fastest first.
    pub const ALL: [TimeClass; 5] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
    ];

    /// The class of a start clock and increment (milliseconds): correspondence from a start
    /// clock of a day, else by the estimated duration `initial + 40 × increment`: bullet under
    /// 180 s, blitz under 480 s, rapid under 1,500 s, classical otherwise.
    pub fn of(initial_ms: i64, increment_ms: i64) -> TimeClass {
        if initial_ms >= CORRESPONDENCE_MS {
            return TimeClass::Correspondence;
        }
        let estimate_ms = initial_ms.saturating_add(increment_ms.saturating_mul(ESTIMATED_MOVES));
        if estimate_ms < 180_000 {
            TimeClass::Bullet
        } else if estimate_ms < 480_000 {
            TimeClass::Blitz
        } else if estimate_ms < 1_500_000 {
            TimeClass::Rapid
        } else {
            TimeClass::Classical
        }
    }

    /// The name in the API and the database.
    pub const fn as_str(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for TimeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a time class.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a time class (bullet, blitz, rapid, classical, correspondence)")]
pub struct UnknownTimeClass(pub String);

impl FromStr for TimeClass {
    type Err = UnknownTimeClass;

    fn from_str(s: &str) -> Result<TimeClass, UnknownTimeClass> {
        TimeClass::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownTimeClass(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;
    const SEC: i64 = 1000;

    #[test]
    fn the_estimate_counts_forty_increments() {
        // 1+0 and 2+0 are bullet; 2+1 is 2 min + 40 s = 160 s, still bullet; 2+2 is 200 s.
        assert_eq!(TimeClass::of(MIN, 0), TimeClass::Bullet);
        assert_eq!(TimeClass::of(2 * MIN, SEC), TimeClass::Bullet);
        assert_eq!(TimeClass::of(2 * MIN, 2 * SEC), TimeClass::Blitz);
        assert_eq!(TimeClass::of(3 * MIN, 0), TimeClass::Blitz);
        assert_eq!(TimeClass::of(5 * MIN, 3 * SEC), TimeClass::Blitz);
        assert_eq!(TimeClass::of(8 * MIN, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(10 * MIN, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(15 * MIN, 10 * SEC), TimeClass::Rapid);
        assert_eq!(TimeClass::of(20 * MIN, 10 * SEC), TimeClass::Classical);
        assert_eq!(TimeClass::of(25 * MIN, 0), TimeClass::Classical);
        assert_eq!(TimeClass::of(90 * MIN, 30 * SEC), TimeClass::Classical);
    }

    #[test]
    fn the_thresholds_are_exclusive_upper_bounds() {
        assert_eq!(TimeClass::of(180 * SEC - 1, 0), TimeClass::Bullet);
        assert_eq!(TimeClass::of(180 * SEC, 0), TimeClass::Blitz);
        assert_eq!(TimeClass::of(480 * SEC - 1, 0), TimeClass::Blitz);
        assert_eq!(TimeClass::of(480 * SEC, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(1500 * SEC - 1, 0), TimeClass::Rapid);
        assert_eq!(TimeClass::of(1500 * SEC, 0), TimeClass::Classical);
    }

    #[test]
    fn a_day_on_the_clock_is_correspondence() {
        assert_eq!(
            TimeClass::of(CORRESPONDENCE_MS - 1, 0),
            TimeClass::Classical
        );
        assert_eq!(
            TimeClass::of(CORRESPONDENCE_MS, 0),
            TimeClass::Correspondence
        );
        assert_eq!(
            TimeClass::of(3 * CORRESPONDENCE_MS, CORRESPONDENCE_MS),
            TimeClass::Correspondence
        );
    }

    #[test]
    fn names_round_trip() {
        for c in TimeClass::ALL {
            assert_eq!(c.as_str().parse::<TimeClass>(), Ok(c));
        }
        assert!("Blitz".parse::<TimeClass>().is_err());
        assert!("".parse::<TimeClass>().is_err());
    }
}
