//! [`Histogram`]: a lock-free histogram of durations, cheap enough to record every command on
//! the server's hot path (one atomic add, no allocation), read as percentiles.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;

/// Sub-buckets per power of two: percentiles are within 1/16 (6.25 %) of the true value.
const SUB: u64 = 16;
/// Values below this many microseconds get a bucket each.
const EXACT: u64 = 2 * SUB;
/// Powers of two covered above [`EXACT`]: up to 2^40 µs (12 days); larger values count as
/// the largest bucket.
const OCTAVES: u64 = 35;
/// Number of buckets.
const BUCKETS: usize = (EXACT + OCTAVES * SUB) as usize;

/// Counts of durations in log-linear buckets of microseconds.
#[derive(Debug)]
pub struct Histogram {
    buckets: Box<[AtomicU64]>,
    max_us: AtomicU64,
    sum_us: AtomicU64,
}

/// Percentiles of a [`Histogram`], in milliseconds (each the upper bound of its bucket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Durations recorded.
    pub count: u64,
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest (exact).
    pub max_ms: f64,
}

/// The bucket of a duration of `us` microseconds.
fn bucket(us: u64) -> usize {
    if us < EXACT {
        return us as usize;
    }
    // us >= 32, so the top bit is at 5 or more.
    let top = u64::from(63 - us.leading_zeros());
    let octave = (top - 5).min(OCTAVES - 1);
    let sub = if top - 5 >= OCTAVES {
        SUB - 1
    } else {
        (us >> (top - 4)) & (SUB - 1)
    };
    (EXACT + octave * SUB + sub) as usize
}

/// The largest duration (µs) that falls in bucket `b`.
fn upper_bound(b: usize) -> u64 {
    let b = b as u64;
    if b < EXACT {
        return b;
    }
    let octave = (b - EXACT) / SUB;
    let sub = (b - EXACT) % SUB;
    let top = octave + 5;
    let width = 1u64 << (top - 4);
    (1u64 << top) + sub * width + width - 1
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram::new()
    }
}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Histogram {
        Histogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            max_us: AtomicU64::new(0),
            sum_us: AtomicU64::new(0),
        }
    }

    /// Counts one duration.
    pub fn record(&self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.buckets[bucket(us)].fetch_add(1, Ordering::Relaxed);
        self.max_us.fetch_max(us, Ordering::Relaxed);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    /// Forgets every duration counted so far.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            b.store(0, Ordering::Relaxed);
        }
        self.max_us.store(0, Ordering::Relaxed);
        self.sum_us.store(0, Ordering::Relaxed);
    }

    /// The percentiles of what was counted (a snapshot; counts racing with it may be missed).
    pub fn summary(&self) -> Summary {
        let counts: Vec<u64> = self
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        let count: u64 = counts.iter().sum();
        if count == 0 {
            return Summary::default();
        }
        let at = |p: f64| -> f64 {
            // The smallest bucket holding at least the fraction p of the durations.
            let rank = ((count as f64 * p).ceil() as u64).clamp(1, count);
            let mut seen = 0;
            for (b, c) in counts.iter().enumerate() {
                seen += c;
                if seen >= rank {
                    return upper_bound(b) as f64 / 1000.0;
                }
            }
            upper_bound(BUCKETS - 1) as f64 / 1000.0
        };
        let max_ms = self.max_us.load(Ordering::Relaxed) as f64 / 1000.0;
        Summary {
            count,
            mean_ms: self.sum_us.load(Ordering::Relaxed) as f64 / count as f64 / 1000.0,
            p50_ms: at(0.5).min(max_ms),
            p90_ms: at(0.9).min(max_ms),
            p99_ms: at(0.99).min(max_ms),
            p999_ms: at(0.999).min(max_ms),
            max_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_falls_in_a_bucket_whose_bounds_hold_it() {
        let mut v = 0u64;
        while v < 1 << 41 {
            let b = bucket(v);
            assert!(b < BUCKETS, "{v}");
            if v < 1 << 40 {
                assert!(upper_bound(b) >= v, "{v} above its bucket {b}");
                assert!(b == 0 || upper_bound(b - 1) < v, "{v} below its bucket {b}");
                // Within 1/16 of the value.
                assert!(upper_bound(b) - v <= v / SUB, "{v}: bucket too wide");
            }
            v = v * 9 / 8 + 1;
        }
    }

    #[test]
    fn percentiles_of_a_known_spread() {
        let h = Histogram::new();
        // 1..=1000 ms, one each.
        for ms in 1..=1000u64 {
            h.record(Duration::from_millis(ms));
        }
        let s = h.summary();
        assert_eq!(s.count, 1000);
        assert_eq!(s.max_ms, 1000.0);
        for (got, want) in [(s.p50_ms, 500.0), (s.p90_ms, 900.0), (s.p99_ms, 990.0)] {
            assert!(got >= want && got <= want * 1.07, "{got} for {want}");
        }
        assert!((s.mean_ms - 500.5).abs() < 1e-9);
        h.clear();
        assert_eq!(h.summary(), Summary::default());
    }
}
