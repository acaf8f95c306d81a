//! The root's final choice while the agent stands to win: the most visited edge, unless it
//! may stalemate or repeat an own board while a sufficiently visited alternative is safer.

use std::cmp::Ordering;

/// What the final choice knows of one root edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Candidate {
    /// Visits of the edge in the search.
    pub visits: u32,
    /// Its mean value.
    pub mean: f64,
    /// The share of the sampled belief positions in which it stalemates.
    pub stalemates: f32,
    /// How often the own board after it stood before, after the agent's own moves.
    pub repeats: u32,
}

/// The edge to play, given the most visited one, `best`, when the agent stands to win:
/// - if `best` may stalemate, the edge that stalemates in the smallest share of worlds among
///   those that still stand to win (mean above `winning`) and were visited at least
///   [`STALEMATE_FLOOR`] times and a fiftieth as often as `best` (then the fewest repeats,
///   then the most visits): a stalemate throws the won game away, which the evaluation's
///   scale underrates against a little material;
/// - else, if `best` would stand an own board a third time (it stood [`THIRD_STANDING`]
///   times), the edge that stands none a third time among those valued above 0 and visited
///   at least `1 /` [`REPEAT_FLOOR_SHARE`] as often (fewest stalemates, repeats, then most
///   visits);
/// - else, if `best` repeats an own board, the edge that repeats least among those visited
///   at least a tenth as often as `best` and valued above 0 (then the most visits);
/// - else `best`.
pub(super) fn safest(best: usize, candidates: &[Candidate], winning: f64) -> usize {
    let Some(b) = candidates.get(best) else {
        return best;
    };
    let key = |c: &Candidate| (c.stalemates, c.repeats, u32::MAX - c.visits);
    let pick_among = |eligible: &dyn Fn(&Candidate) -> bool| {
        let mut pick = (best, key(b));
        for (i, c) in candidates.iter().enumerate() {
            if eligible(c) {
                let k = key(c);
                if k.partial_cmp(&pick.1) == Some(Ordering::Less) {
                    pick = (i, k);
                }
            }
        }
        pick.0
    };
    if b.stalemates > 0.0 {
        let floor = (b.visits / 50).max(STALEMATE_FLOOR);
        return pick_among(&|c| c.visits >= floor && c.mean > winning);
    }
    if b.repeats >= THIRD_STANDING {
        // A third standing may complete a threefold repetition: a certain draw against a
        // game still won. Any searched edge that stays ahead and stands no board a third time
        // is better, however few its visits (the search piles its visits on one edge).
        let floor = (b.visits / REPEAT_FLOOR_SHARE).max(1);
        return pick_among(&|c| {
            c.visits >= floor
                && c.mean > 0.0
                && c.repeats < THIRD_STANDING
                && c.stalemates <= b.stalemates
        });
    }
    if b.repeats > 0 {
        let floor = (b.visits / 10).max(1);
        return pick_among(&|c| c.visits >= floor && c.mean > 0.0);
    }
    best
}

/// How the value band and the lead in material decide the repetition rule below the winning
/// band: `Some(least)` when a most visited edge that would stand an own board a third time
/// gives way to one valued above `least` (the agent ahead on material by `ahead_material` or
/// more: `mean - material_margin`, whatever `mean`; else, while `mean` is above `behind` and
/// at most `winning`: `mean - margin`, but not below `behind`), `None` when the rule does not
/// apply (clearly behind, or winning: the winning band has its own rule, [`safest`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RepeatBands {
    /// Below or at this value the agent is clearly behind (a draw is welcome).
    pub behind: f64,
    /// Above this value the agent stands to win.
    pub winning: f64,
    /// How much lower an alternative may be valued in the band between.
    pub margin: f64,
    /// The lead in material, in pawns, from which the agent counts as ahead.
    pub ahead_material: f64,
    /// How much lower an alternative may be valued while ahead on material.
    pub material_margin: f64,
}

impl RepeatBands {
    /// The least value of an alternative to a third standing, given the most visited edge's
    /// `mean` and the agent's `lead` in material (see [`RepeatBands`]).
    pub(super) fn least(&self, mean: f64, lead: f64) -> Option<f64> {
        if lead >= self.ahead_material {
            Some(mean - self.material_margin)
        } else if mean > self.behind && mean <= self.winning {
            Some((mean - self.margin).max(self.behind))
        } else {
            None
        }
    }
}

/// How often an own board may have stood before a further standing may complete a threefold
/// repetition (the enemy's men unchanged).
pub(super) const THIRD_STANDING: u32 = 2;

/// An edge visited at least `1 / REPEAT_FLOOR_SHARE` as often as the most visited one may
/// replace it when that one would stand an own board a third time.
pub(super) const REPEAT_FLOOR_SHARE: u32 = 100;

/// The fewest visits of an edge chosen instead of a stalemating one.
pub(super) const STALEMATE_FLOOR: u32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    fn c(visits: u32, mean: f64, stalemates: f32, repeats: u32) -> Candidate {
        Candidate {
            visits,
            mean,
            stalemates,
            repeats,
        }
    }

    const BANDS: RepeatBands = RepeatBands {
        behind: -0.3,
        winning: 0.3,
        margin: 0.15,
        ahead_material: 2.0,
        material_margin: 0.3,
    };

    #[test]
    fn a_lead_in_material_applies_the_rule_whatever_the_value() {
        // A rook up with a belief that values the position badly (restarted from a guess):
        // the rule still applies, with the wider margin.
        let near = |got: Option<f64>, want: f64| {
            assert!(
                got.is_some_and(|g| (g - want).abs() < 1e-9),
                "{got:?}, want {want}"
            );
        };
        near(BANDS.least(-0.5, 5.0), -0.8);
        near(BANDS.least(0.1, 2.0), -0.2);
        // Without the lead, clearly behind: no rule (a draw is welcome).
        assert_eq!(BANDS.least(-0.5, 1.0), None);
        // Between the bands: the narrow margin, never below "behind".
        near(BANDS.least(0.1, 0.0), -0.05);
        near(BANDS.least(-0.2, 0.0), -0.3);
        // Winning without the lead: the winning band's own rule.
        assert_eq!(BANDS.least(0.5, 0.0), None);
    }

    #[test]
    fn a_safe_best_edge_is_kept() {
        let edges = [c(1000, 0.9, 0.0, 0), c(900, 0.95, 0.0, 0)];
        assert_eq!(safest(0, &edges, 0.3), 0);
    }

    #[test]
    fn a_stalemating_best_edge_gives_way_to_a_safe_one_that_still_wins() {
        let edges = [
            c(1000, 0.9, 0.1, 0),
            c(10, 0.9, 0.0, 0),  // too few visits
            c(200, 0.8, 0.0, 2), // safe but repeats
            c(30, 0.7, 0.0, 0),  // safe, fresh, visited enough
            c(300, 0.2, 0.0, 0), // safe but no longer winning
        ];
        assert_eq!(safest(0, &edges, 0.3), 3);
        // Without a fresh one, the repeating safe edge still beats the stalemate.
        assert_eq!(safest(0, &edges[..3], 0.3), 2);
        // Among equally safe edges, the most visited.
        let edges = [
            c(1000, 0.9, 0.5, 0),
            c(200, 0.8, 0.0, 0),
            c(400, 0.8, 0.0, 0),
        ];
        assert_eq!(safest(0, &edges, 0.3), 2);
        // No safe edge that still wins: the stalemating one stays.
        let edges = [c(1000, 0.9, 0.5, 0), c(400, 0.1, 0.0, 0)];
        assert_eq!(safest(0, &edges, 0.3), 0);
    }

    #[test]
    fn a_smaller_stalemate_share_wins_when_none_is_safe() {
        let edges = [c(1000, 0.9, 0.5, 0), c(500, 0.9, 0.25, 3)];
        assert_eq!(safest(0, &edges, 0.3), 1);
    }

    #[test]
    fn a_repeating_best_edge_gives_way_to_a_fresh_one() {
        let edges = [
            c(1000, 0.9, 0.0, 2),
            c(120, 0.6, 0.0, 1),
            c(110, 0.5, 0.0, 0),
        ];
        assert_eq!(safest(0, &edges, 0.3), 2);
        assert_eq!(safest(0, &edges[..1], 0.3), 0);
    }

    #[test]
    fn a_third_standing_gives_way_to_a_thinly_searched_edge_still_ahead() {
        // Issue 28: the queen shuffled d2-b2 while 20 points ahead, the search's visits piled
        // on the shuffle.
        let edges = [
            c(2900, 0.7, 0.0, 2),
            c(40, 0.6, 0.0, 0),
            c(20, -0.1, 0.0, 0), // behind: a draw is better
            c(5, 0.9, 0.0, 0),   // too few visits to be trusted
            c(60, 0.8, 0.0, 2),  // a third standing as well
        ];
        assert_eq!(safest(0, &edges, 0.3), 1);
        // Nothing else ahead: the repetition stands.
        assert_eq!(safest(0, &[edges[0], edges[2], edges[4]], 0.3), 0);
    }
}
