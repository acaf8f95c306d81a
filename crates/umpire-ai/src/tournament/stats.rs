//! Match statistics: the score with a 95 % interval, the Elo difference, the sequential
//! probability ratio test, and Bradley–Terry ratings for a round robin.
//!
//! Formulas (N games, W wins, D draws, L losses, from the first agent's side):
//!
//! - score `s = (W + D/2) / N`; per-game variance `v = (W(1-s)² + D(1/2-s)² + L s²) / N`;
//!   95 % interval: Wilson's score interval with z = 1.96, `(s + z²/2N ± z √(s(1-s)/N +
//!   z²/4N²)) / (1 + z²/N)`, which stays inside [0, 1] and is not a single point at a score of
//!   0 or 1 (the normal interval `s ± z √(v/N)` collapses to 1 to 1 after four wins);
//! - Elo difference `E(s) = -400 log10(1/s - 1)`; its interval is `E` of the score interval's
//!   ends (unbounded where an end is 0 or 1);
//! - SPRT of H0: Elo = elo0 against H1: Elo = elo1, with the normal approximation of the
//!   log-likelihood ratio: `s0 = 1/(1+10^(-elo0/400))`, `s1` likewise,
//!   `LLR = N (s1-s0)(2s - s0 - s1) / (2v)`; stop accepting H1 when `LLR ≥ ln((1-β)/α)`,
//!   H0 when `LLR ≤ ln(β/(1-α))` (α = β = 0.05: ±2.944); no decision while `v = 0`;
//! - Bradley–Terry: strengths γ maximising the likelihood of the pairwise results (a draw is
//!   half a win each way), found by the minorisation–maximisation iteration
//!   `γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)`; ratings `400 log10 γ_i`, shifted to average 0.

/// Wins, draws and losses, from one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference of an expected score in (0, 1); `None` at 0 or 1 (or outside).
pub fn elo_of_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score in [0, 1] (a draw is half a point); `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The per-game variance of the score; `None` before any game.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let dev = |x: f64| (x - s) * (x - s);
        Some(
            (self.wins as f64 * dev(1.0)
                + self.draws as f64 * dev(0.5)
                + self.losses as f64 * dev(0.0))
                / n,
        )
    }

    /// The 95 % interval of the score: Wilson's score interval, within [0, 1].
    pub fn score_interval(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let n = self.games() as f64;
        let z2 = Z95 * Z95;
        let denominator = 1.0 + z2 / n;
        let centre = (s + z2 / (2.0 * n)) / denominator;
        let half = Z95 / denominator * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
        Some(((centre - half).max(0.0), (centre + half).min(1.0)))
    }

    /// Whether the Elo difference and both ends of its interval are finite: not while the
    /// score or an end of its interval is 0 or 1 (too few games to bound it).
    pub fn elo_bounded(&self) -> bool {
        self.elo().is_some()
            && self
                .elo_interval()
                .is_some_and(|(lo, hi)| lo.is_some() && hi.is_some())
    }

    /// The Elo difference (`None` at a score of 0 or 1, or before any game).
    pub fn elo(&self) -> Option<f64> {
        elo_of_score(self.score()?)
    }

    /// The Elo difference at the ends of the score interval (each `None` where the end is 0
    /// or 1).
    pub fn elo_interval(&self) -> Option<(Option<f64>, Option<f64>)> {
        let (lo, hi) = self.score_interval()?;
        Some((elo_of_score(lo), elo_of_score(hi)))
    }
}

/// A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference under H0.
    pub elo0: f64,
    /// The Elo difference under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 (Elo = elo0) accepted.
    H0,
    /// H1 (Elo = elo1) accepted.
    H1,
}

impl SprtDecision {
    /// `"H0"` or `"H1"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        }
    }
}

impl Sprt {
    /// The test with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio after `tally`; `None` while the variance is 0.
    pub fn llr(&self, tally: &Tally) -> Option<f64> {
        let s = tally.score()?;
        let v = tally.variance()?;
        if v <= 0.0 {
            return None;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        Some(tally.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v))
    }

    /// The decision after `tally`, if the ratio crossed a bound.
    pub fn decision(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(tally)?;
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

/// Bradley–Terry ratings (Elo scale, average 0) of `players` players from pairwise results
/// `(i, j, tally of i against j)`, with `prior` virtual draws added to every pair that met so
/// that a player with no win (or no loss) still gets a finite rating.
pub fn bradley_terry(players: usize, results: &[(usize, usize, Tally)], prior: f64) -> Vec<f64> {
    // wins[i]: points of i; games[i][j]: games between i and j.
    let mut points = vec![0.0; players];
    let mut games = vec![vec![0.0; players]; players];
    for &(i, j, t) in results {
        if i >= players || j >= players || i == j {
            continue;
        }
        let n = t.games() as f64 + prior;
        points[i] += t.wins as f64 + t.draws as f64 / 2.0 + prior / 2.0;
        points[j] += t.losses as f64 + t.draws as f64 / 2.0 + prior / 2.0;
        games[i][j] += n;
        games[j][i] += n;
    }
    let mut gamma = vec![1.0f64; players];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        for i in 0..players {
            let denom: f64 = (0..players)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denom > 0.0 && points[i] > 0.0 {
                next[i] = points[i] / denom;
            }
        }
        // Normalise to a geometric mean of 1.
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / players.max(1) as f64;
        for g in &mut next {
            *g /= mean_log.exp();
        }
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn score_interval_and_elo_match_hand_computed_values() {
        // W 60, D 20, L 20: s = 0.7, v = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16; Wilson:
        // centre (0.7 + 0.019207)/1.038415 = 0.692603, half-width
        // 1.959964·√(0.0021 + 0.000096)/1.038415 = 0.088448.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(t.score().unwrap(), 0.7, 1e-12));
        assert!(close(t.variance().unwrap(), 0.16, 1e-12));
        let (lo, hi) = t.score_interval().unwrap();
        assert!(
            close(lo, 0.604_151, 1e-5) && close(hi, 0.781_051, 1e-5),
            "{lo} {hi}"
        );
        // E(0.7) = -400 log10(3/7) = 147.19.
        assert!(close(t.elo().unwrap(), 147.1907, 1e-3));
        let (elo_lo, elo_hi) = t.elo_interval().unwrap();
        assert!(close(elo_lo.unwrap(), 73.4467, 1e-2), "{elo_lo:?}");
        assert!(close(elo_hi.unwrap(), 220.9347, 1e-2), "{elo_hi:?}");
        assert!(t.elo_bounded());
    }

    #[test]
    fn extreme_scores_have_no_elo() {
        let all_wins = Tally {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all_wins.elo(), None);
        assert!(!all_wins.elo_bounded());
        // Four wins: Wilson's interval is 0.510 to 1, not the single point 1 to 1.
        let four = Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        let (lo, hi) = four.score_interval().unwrap();
        assert!(close(lo, 0.510_109, 1e-5) && hi == 1.0, "{lo} {hi}");
        assert_eq!(Tally::default().score(), None);
        assert!(close(elo_of_score(0.5).unwrap(), 0.0, 1e-12));
        assert!(close(score_of_elo(147.1907), 0.7, 1e-6));
    }

    #[test]
    fn sprt_matches_hand_computed_ratio() {
        // s0 = 0.5, s1 = 1/(1+10^(-50/400)) = 0.571463; LLR = 100·0.071463·(1.4-1.071463)/0.32.
        let sprt = Sprt::new(0.0, 50.0);
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(sprt.llr(&t).unwrap(), 7.33696, 1e-4));
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944439, 1e-5) && close(hi, 2.944439, 1e-5));
        assert_eq!(sprt.decision(&t), Some(SprtDecision::H1));
        let mirrored = Tally {
            wins: 20,
            draws: 20,
            losses: 60,
        };
        assert_eq!(sprt.decision(&mirrored), Some(SprtDecision::H0));
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(sprt.decision(&even), None);
        let no_variance = Tally {
            wins: 0,
            draws: 8,
            losses: 0,
        };
        assert_eq!(sprt.llr(&no_variance), None);
    }

    #[test]
    fn bradley_terry_matches_hand_computed_ratings() {
        // Two players, 3 wins to 1: γ0/γ1 = 3, a gap of 400 log10 3 = 190.85, average 0.
        let t = Tally {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        let r = bradley_terry(2, &[(0, 1, t)], 0.0);
        assert!(close(r[0] - r[1], 190.8485, 1e-3), "{r:?}");
        assert!(close(r[0] + r[1], 0.0, 1e-9));
        // A chain with ratio 3 at each step: 0 beats 1 3:1, 1 beats 2 3:1, 0 beats 2 9:1.
        let r = bradley_terry(
            3,
            &[
                (0, 1, t),
                (1, 2, t),
                (
                    0,
                    2,
                    Tally {
                        wins: 9,
                        draws: 0,
                        losses: 1,
                    },
                ),
            ],
            0.0,
        );
        assert!(close(r[0] - r[1], 190.8485, 1e-3), "{r:?}");
        assert!(close(r[1] - r[2], 190.8485, 1e-3), "{r:?}");
        // A shutout stays finite with a prior.
        let shutout = Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        let r = bradley_terry(2, &[(0, 1, shutout)], 1.0);
        // 4.5 points to 0.5: ratio 9.
        assert!(close(r[0] - r[1], 400.0 * 9f64.log10(), 1e-3), "{r:?}");
    }
}
