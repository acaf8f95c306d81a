//! [`Variant`]: how a new leaf is scored, and the quality bonus of the EPT-QB variant.

use std::fmt;
use std::str::FromStr;

/// How the Monte Carlo search scores the leaf it adds on each iteration. Seed 000 reports these
/// two as the ones that give meaningful value estimates in guided Kriegspiel ("Bandit Tree
/// Search (Avg)" and "EPT-QB").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Tree-only search with average backup: no playout; the new leaf's determinized position
    /// is scored by the static evaluation, and every node keeps the mean of the scores below.
    TreeAverage,
    /// Early playout termination with a quality bonus: a short playout (both sides by the
    /// playout policy) from the leaf, cut after a few plies and scored by the static
    /// evaluation; decisive results are then moved towards the extreme by how short they were
    /// compared with the search's other results ([`QualityBonus`]).
    QualityBonus,
}

impl Variant {
    /// Both variants.
    pub const ALL: [Variant; 2] = [Variant::TreeAverage, Variant::QualityBonus];

    /// `"tree-avg"` or `"ept-qb"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Variant::TreeAverage => "tree-avg",
            Variant::QualityBonus => "ept-qb",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown MCTS variant {s:?} (known: tree-avg, ept-qb)"))
    }
}

/// The quality bonus after Pepels, Tak, Lanctot and Winands ("Quality-based rewards for
/// Monte-Carlo tree search simulations", 2014), applied to the length of decisive results.
///
/// For a decisive result `r` (±1) reached `len` plies below the root, with the running mean
/// `m` and standard deviation `s` of the lengths of the decisive results seen so far in this
/// search, the quality is `λ = (m - len) / s` for a win (shorter is better) and
/// `(len - m) / s` for a loss (later is better), and the reward is
/// `r·(1 - a) + a·(2σ(kλ) - 1)`, `σ` the logistic function: a win is worth between `1 - 2a`
/// and 1, a loss between -1 and `-(1 - 2a)`, higher the better the quality. Results that are
/// not decisive are returned unchanged.
#[derive(Clone, Copy, Debug, Default)]
pub struct QualityBonus {
    n: f64,
    mean: f64,
    m2: f64,
}

/// The weight `a` of the bonus.
pub const BONUS_WEIGHT: f64 = 0.15;
/// The steepness `k` of the logistic.
pub const BONUS_STEEPNESS: f64 = 1.5;

impl QualityBonus {
    /// Forgets every length seen.
    pub fn reset(&mut self) {
        *self = QualityBonus::default();
    }

    /// The reward for result `r` (in [-1, 1]) reached `len` plies below the root.
    pub fn reward(&mut self, r: f64, len: u32) -> f64 {
        if r.abs() < 1.0 {
            return r;
        }
        let len = f64::from(len);
        let lambda = if self.n >= 2.0 {
            let sd = (self.m2 / (self.n - 1.0)).sqrt().max(1e-6);
            let d = (self.mean - len) / sd;
            if r > 0.0 { d } else { -d }
        } else {
            0.0
        };
        // Welford's running mean and variance.
        self.n += 1.0;
        let delta = len - self.mean;
        self.mean += delta / self.n;
        self.m2 += delta * (len - self.mean);
        let sigma = 1.0 / (1.0 + (-BONUS_STEEPNESS * lambda).exp());
        r.signum() * (1.0 - BONUS_WEIGHT) + BONUS_WEIGHT * (2.0 * sigma - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.as_str().parse::<Variant>(), Ok(v));
        }
        assert!("uct".parse::<Variant>().is_err());
    }

    #[test]
    fn shorter_wins_earn_more_and_the_reward_stays_in_range() {
        let mut q = QualityBonus::default();
        for len in [10, 12, 14, 16, 18] {
            q.reward(1.0, len);
        }
        let short = q.reward(1.0, 4);
        let long = q.reward(1.0, 30);
        assert!(short > long, "{short} {long}");
        assert!(short <= 1.0 && long >= 1.0 - 2.0 * BONUS_WEIGHT);
        let early_loss = q.reward(-1.0, 2);
        let late_loss = q.reward(-1.0, 40);
        assert!(late_loss > early_loss, "{late_loss} {early_loss}");
        assert!(early_loss >= -1.0 && late_loss <= -(1.0 - 2.0 * BONUS_WEIGHT));
        assert_eq!(q.reward(0.3, 5), 0.3);
    }
}
