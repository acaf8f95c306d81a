//! [`Rating`]: a player's Glicko-2 rating in one rule set and time class, the update after
//! one rated game (computed by the `skillratings` crate; each game is its own rating period),
//! and the growth of the deviation over idle rating periods ([`RATING_PERIOD_MS`]).

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// A deviation above this marks a provisional rating: left off the leaderboard unless asked
/// for, and marked wherever shown.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The rating period for inactivity: one day. For every whole day since a player's last rated
/// game (in that rule set and time class) the deviation grows as Glicko-2 prescribes for a
/// period without games, φ' = √(φ² + σ²), up to [`MAX_DEVIATION`]. It is applied when a rating
/// is read for display and before a game updates it, computed from the time of the last game:
/// nothing is written while a player is away.
pub const RATING_PERIOD_MS: i64 = 86_400_000;

/// The deviation never grows past a new player's.
pub const MAX_DEVIATION: f64 = 350.0;

/// The whole rating periods from `last_ms` (the last rated game) to `now_ms`; none if the clock
/// went backwards.
pub fn idle_periods(last_ms: i64, now_ms: i64) -> u64 {
    u64::try_from(now_ms.saturating_sub(last_ms) / RATING_PERIOD_MS).unwrap_or(0)
}

/// A Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (a new player starts at 1500).
    pub rating: f64,
    /// The rating deviation, RD (a new player starts at 350).
    pub deviation: f64,
    /// The volatility σ (a new player starts at 0.06).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// Whether the rating is still provisional (RD above [`PROVISIONAL_DEVIATION`]).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `periods` rating periods without games: rating and volatility stay,
    /// the deviation grows to √(φ² + n·σ²) on the Glicko-2 scale, capped at [`MAX_DEVIATION`].
    /// One period is `skillratings`' `decay_deviation`; n periods are one call with σ√n in
    /// place of σ (n steps of φ² + σ² add up to φ² + nσ², and the cap, applied last, is the
    /// same as applied at every step since the deviation only grows).
    pub fn after_idle(self, periods: u64) -> Rating {
        if periods == 0 {
            return self;
        }
        let grown = decay_deviation(&Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility * (periods as f64).sqrt(),
        });
        Rating {
            deviation: grown.deviation.min(MAX_DEVIATION).max(self.deviation),
            ..self
        }
    }

    /// The rating at `now_ms` of a player whose last rated game ended at `last_ms`.
    pub fn at(self, last_ms: i64, now_ms: i64) -> Rating {
        self.after_idle(idle_periods(last_ms, now_ms))
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// The result of a game from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

impl Score {
    /// Reads a stored result (`1-0`, `0-1`, `1/2-1/2`); `None` for anything else (an aborted
    /// game's `*` changes no rating).
    pub fn from_result(result: &str) -> Option<Score> {
        match result {
            "1-0" => Some(Score::WhiteWins),
            "0-1" => Some(Score::BlackWins),
            "1/2-1/2" => Some(Score::Draw),
            _ => None,
        }
    }

    /// The points of White (`white` true) or of Black: 1, ½ or 0.
    pub fn points(self, white: bool) -> f64 {
        match (self, white) {
            (Score::Draw, _) => 0.5,
            (Score::WhiteWins, true) | (Score::BlackWins, false) => 1.0,
            _ => 0.0,
        }
    }
}

fn to_crate(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn from_crate(r: Glicko2Rating) -> Rating {
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one game between them (τ = 0.5, the crate's default).
pub fn update(white: Rating, black: Rating, score: Score) -> (Rating, Rating) {
    let outcome = match score {
        Score::WhiteWins => Outcomes::WIN,
        Score::BlackWins => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let (w, b) = glicko2(
        &to_crate(white),
        &to_crate(black),
        &outcome,
        &Glicko2Config::new(),
    );
    (from_crate(w), from_crate(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glicko-2 by hand, following the steps of Glickman's "Example of the Glicko-2 system"
    /// (glicko.net/glicko/glicko2.pdf), for one player and one game, τ = 0.5.
    fn by_hand(me: Rating, them: Rating, s: f64) -> Rating {
        let scale = 173.7178;
        let tau = 0.5;
        let (mu, phi, sigma) = (
            (me.rating - 1500.0) / scale,
            me.deviation / scale,
            me.volatility,
        );
        let (mu_j, phi_j) = ((them.rating - 1500.0) / scale, them.deviation / scale);
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        let v = 1.0 / (g * g * e * (1.0 - e));
        let delta = v * g * (s - e);
        // Step 5: the new volatility by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 1e-9 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma2 = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * g * (s - e);
        Rating {
            rating: mu2 * scale + 1500.0,
            deviation: phi2 * scale,
            volatility: sigma2,
        }
    }

    fn close(a: Rating, b: Rating) {
        assert!((a.rating - b.rating).abs() < 1e-3, "{a:?} vs {b:?}");
        assert!((a.deviation - b.deviation).abs() < 1e-3, "{a:?} vs {b:?}");
        assert!((a.volatility - b.volatility).abs() < 1e-6, "{a:?} vs {b:?}");
    }

    #[test]
    fn one_game_matches_the_hand_computation() {
        // The paper's player (1500, 200) against its three opponents, one game at a time.
        let me = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        for (them, score) in [
            ((1400.0, 30.0), Score::WhiteWins),
            ((1550.0, 100.0), Score::BlackWins),
            ((1700.0, 300.0), Score::BlackWins),
            ((1700.0, 300.0), Score::Draw),
        ] {
            let them = Rating {
                rating: them.0,
                deviation: them.1,
                volatility: 0.06,
            };
            let (w, b) = update(me, them, score);
            close(w, by_hand(me, them, score.points(true)));
            close(b, by_hand(them, me, score.points(false)));
        }
    }

    #[test]
    fn new_players_move_symmetrically() {
        let (w, b) = update(Rating::NEW, Rating::NEW, Score::WhiteWins);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.deviation < 350.0 && (w.deviation - b.deviation).abs() < 1e-9);
        let (w, b) = update(Rating::NEW, Rating::NEW, Score::Draw);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(w.deviation < 350.0);
    }

    #[test]
    fn the_deviation_grows_by_the_papers_formula_per_idle_day() {
        // Glickman, "Example of the Glicko-2 system", step 6 for a player who does not
        // compete: φ' = √(φ² + σ²). The paper's player: RD 200 (φ = 200/173.7178 = 1.151292),
        // σ = 0.06: φ' = √(1.325474 + 0.0036) = 1.152855, RD' = 200.2714 after one period.
        let me = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let one = me.after_idle(1);
        assert!((one.deviation - 200.2714).abs() < 1e-3, "{one:?}");
        assert_eq!((one.rating, one.volatility), (1500.0, 0.06));
        // Ten periods: φ' = √(1.325474 + 10 × 0.0036) = 1.166822, RD' = 202.6978.
        let ten = me.after_idle(10);
        assert!((ten.deviation - 202.6978).abs() < 1e-3, "{ten:?}");
        // An established player, RD 50 (φ = 0.287823), a year away: √(0.082842 + 365 ×
        // 0.0036) = 1.181881, RD' = 205.3137.
        let settled = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let year = settled.after_idle(365);
        assert!((year.deviation - 205.3137).abs() < 1e-3, "{year:?}");
        // n periods at once equal n single periods.
        let mut step = settled;
        for _ in 0..365 {
            step = step.after_idle(1);
        }
        assert!((step.deviation - year.deviation).abs() < 1e-9);
        // Capped at 350: ten years away.
        assert_eq!(settled.after_idle(3650).deviation, MAX_DEVIATION);
        assert_eq!(Rating::NEW.after_idle(5), Rating::NEW);
        assert_eq!(settled.after_idle(0), settled);
    }

    #[test]
    fn idle_periods_are_whole_days_since_the_last_game() {
        let day = RATING_PERIOD_MS;
        assert_eq!(idle_periods(1_000, 1_000), 0);
        assert_eq!(idle_periods(1_000, 1_000 + day - 1), 0);
        assert_eq!(idle_periods(1_000, 1_000 + day), 1);
        assert_eq!(idle_periods(0, 3 * day + 5), 3);
        assert_eq!(idle_periods(5 * day, day), 0);
        let me = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        assert_eq!(me.at(0, day - 1), me);
        assert_eq!(me.at(0, 10 * day), me.after_idle(10));
    }

    #[test]
    fn results_read() {
        assert_eq!(Score::from_result("1-0"), Some(Score::WhiteWins));
        assert_eq!(Score::from_result("0-1"), Some(Score::BlackWins));
        assert_eq!(Score::from_result("1/2-1/2"), Some(Score::Draw));
        assert_eq!(Score::from_result("*"), None);
        assert_eq!(Score::BlackWins.points(false), 1.0);
        assert_eq!(Score::Draw.points(true), 0.5);
    }
}
