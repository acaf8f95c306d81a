//! [`DecisionTimes`]: how long an agent took per decision, as a bounded histogram (percentiles
//! and the exact maximum) that adds across games.

/// Buckets of one millisecond, from 0 up to this many milliseconds.
const FINE_MS: u64 = 1024;
/// Beyond [`FINE_MS`], buckets of this many milliseconds.
const COARSE_STEP_MS: u64 = 10;
/// The number of coarse buckets (up to about 11 s); longer decisions share the last one.
const COARSE: usize = 1024;
const BUCKETS: usize = FINE_MS as usize + COARSE;

/// A histogram of decision times: 1 ms buckets up to 1,024 ms, 10 ms buckets up to about 11 s,
/// one bucket beyond; the maximum is kept exactly. Its size is fixed whatever the number of
/// decisions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DecisionTimes {
    counts: [u32; BUCKETS],
    count: u64,
    max_us: u64,
}

impl Default for DecisionTimes {
    fn default() -> DecisionTimes {
        DecisionTimes {
            counts: [0; BUCKETS],
            count: 0,
            max_us: 0,
        }
    }
}

impl std::fmt::Debug for DecisionTimes {
    /// The count, median, 99th percentile and maximum (not the buckets).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecisionTimes")
            .field("count", &self.count)
            .field("p50_ms", &self.quantile_ms(0.5))
            .field("p99_ms", &self.quantile_ms(0.99))
            .field("max_ms", &self.max_ms())
            .finish()
    }
}

fn bucket(us: u64) -> usize {
    let ms = us / 1000;
    if ms < FINE_MS {
        ms as usize
    } else {
        let coarse = ((ms - FINE_MS) / COARSE_STEP_MS).min(COARSE as u64 - 1);
        FINE_MS as usize + coarse as usize
    }
}

/// The upper edge of bucket `i`, in milliseconds.
fn upper_ms(i: usize) -> u64 {
    if i < FINE_MS as usize {
        i as u64 + 1
    } else {
        FINE_MS + (i as u64 - FINE_MS + 1) * COARSE_STEP_MS
    }
}

impl DecisionTimes {
    /// Counts one decision of `us` microseconds.
    pub fn record(&mut self, us: u64) {
        let b = bucket(us);
        self.counts[b] = self.counts[b].saturating_add(1);
        self.count += 1;
        self.max_us = self.max_us.max(us);
    }

    /// Adds another histogram.
    pub fn add(&mut self, other: &DecisionTimes) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts.iter()) {
            *mine = mine.saturating_add(*theirs);
        }
        self.count += other.count;
        self.max_us = self.max_us.max(other.max_us);
    }

    /// Decisions counted.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The longest decision, in milliseconds (`None` before any).
    pub fn max_ms(&self) -> Option<f64> {
        (self.count > 0).then(|| self.max_us as f64 / 1000.0)
    }

    /// An upper bound of the `q`-quantile (`q` in [0, 1]) of the decision times, in
    /// milliseconds: the upper edge of the bucket holding it, never above the maximum (`None`
    /// before any decision).
    pub fn quantile_ms(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += u64::from(c);
            if seen >= rank {
                let edge = upper_ms(i) as f64;
                return Some(edge.min(self.max_us as f64 / 1000.0));
            }
        }
        self.max_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_maximum_of_known_times() {
        let mut t = DecisionTimes::default();
        assert_eq!(t.quantile_ms(0.5), None);
        // 98 decisions of 10.5 ms, one of 150 ms, one of 10.2 s.
        for _ in 0..98 {
            t.record(10_500);
        }
        t.record(150_000);
        t.record(10_200_000);
        assert_eq!(t.count(), 100);
        assert_eq!(t.quantile_ms(0.5), Some(11.0));
        assert_eq!(t.quantile_ms(0.99), Some(151.0));
        assert_eq!(t.max_ms(), Some(10_200.0));
        assert_eq!(t.quantile_ms(1.0), Some(10_200.0));
        let mut sum = DecisionTimes::default();
        sum.add(&t);
        sum.add(&t);
        assert_eq!(sum.count(), 200);
        assert_eq!(sum.quantile_ms(0.99), Some(151.0));
    }

    #[test]
    fn very_long_decisions_share_the_last_bucket_and_keep_their_maximum() {
        let mut t = DecisionTimes::default();
        t.record(u64::MAX / 2);
        assert_eq!(t.max_ms(), Some((u64::MAX / 2) as f64 / 1000.0));
        assert!(t.quantile_ms(0.5).is_some_and(|q| q > 10_000.0));
    }
}
