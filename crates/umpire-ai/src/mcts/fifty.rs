//! The root's choice while ahead as the fifty-move clock runs: a won game drawn by the
//! fifty-move rule is thrown away as surely as one drawn by repetition.
//!
//! The clock is the player's count ([`crate::endgame::ProgressClock`]: its own pawn moves and
//! every announced capture reset it; the enemy's pawn moves are unheard, so the count is never
//! lower than the umpire's). From [`FIFTY_FROM`] plies on, while the agent is ahead in
//! material, the most visited root edge gives way to one that resets the clock or may:
//! first a capture try (an attempt that takes an enemy man in some of the belief's positions,
//! the larger that share the better, from [`TRY_SHARE`] of them), then a pawn move; among the
//! edges the search values within [`margin`] of the most visited one, which grows from 0 at
//! [`FIFTY_FROM`] plies to [`FIFTY_MARGIN`] at 100 (the nearer the draw, the more of the
//! search's value a reset is worth), visited at least `1 /` [`FIFTY_FLOOR_SHARE`] as often,
//! and losing no material in the belief's positions (the caller judges that). Otherwise the
//! search's own choice stands: its value already counts the walks that reach the hundredth
//! ply as draws (`mod.rs`).
//!
//! Issue 28: in session 9's quiet `mcts` against `raider` row at 100 ms, five games were drawn
//! by the fifty-move rule with `mcts` 3 to 10 points ahead (rook endings against pawns).

/// The clock (plies) from which the rule applies: as the mating net's progress bonus
/// (`darkboard/root_terms.rs`), well before the limit so that several tries still fit.
pub const FIFTY_FROM: u32 = 40;

/// The plies at which the fifty-move rule draws.
pub const FIFTY_LIMIT: u32 = 100;

/// How much lower than the most visited edge (values in [-1, 1]) a resetting edge may be
/// valued when the clock stands at [`FIFTY_LIMIT`] − 1.
pub const FIFTY_MARGIN: f64 = 0.5;

/// The least share of the belief's positions in which an attempt captures for it to count as
/// a capture try.
pub const TRY_SHARE: f32 = 0.1;

/// An edge visited at least `1 / FIFTY_FLOOR_SHARE` as often as the most visited one may
/// replace it.
pub const FIFTY_FLOOR_SHARE: u32 = 100;

/// The lead in material (pawns) from which the rule applies: a draw thrown away while this far
/// ahead costs more than the value a reset gives up.
pub const FIFTY_AHEAD: f64 = 2.0;

/// What the rule knows of one root edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Reset {
    /// Visits of the edge in the search.
    pub visits: u32,
    /// Its mean value.
    pub mean: f64,
    /// The share of the belief's positions in which it captures (0 for "Any?").
    pub captures: f32,
    /// Whether it moves one of the agent's pawns.
    pub pawn: bool,
}

impl Reset {
    /// The edge's rank (lower: preferred): a capture try, then a pawn move, then the rest.
    fn class(&self) -> u8 {
        if self.captures >= TRY_SHARE {
            0
        } else if self.pawn {
            1
        } else {
            2
        }
    }
}

/// How much lower than the most visited edge a resetting edge may be valued with the clock at
/// `plies`: 0 below [`FIFTY_FROM`], growing linearly to [`FIFTY_MARGIN`] at the limit.
pub(super) fn margin(plies: u32) -> f64 {
    if plies < FIFTY_FROM {
        return 0.0;
    }
    let run = plies.min(FIFTY_LIMIT) - FIFTY_FROM;
    FIFTY_MARGIN * f64::from(run) / f64::from(FIFTY_LIMIT - FIFTY_FROM)
}

/// The edge to play with the clock at `plies`, given the most visited one, `best`, and whether
/// each edge loses no material (`safe`, one per candidate; see the [module documentation](self)).
/// Eligible are the edges of a better class than `best`'s (capture try, pawn move, the rest),
/// and other capture tries when `best` is one; among them the best class, then the largest
/// capture share, then the highest value; `best` unless an eligible edge ranks above it.
pub(super) fn resetting(best: usize, candidates: &[Reset], safe: &[bool], plies: u32) -> usize {
    let Some(b) = candidates.get(best) else {
        return best;
    };
    if plies < FIFTY_FROM {
        return best;
    }
    let least = b.mean - margin(plies);
    let floor = (b.visits / FIFTY_FLOOR_SHARE).max(1);
    let rank = |c: &Reset| (c.class(), -c.captures, -c.mean);
    let mut pick = (best, rank(b));
    for (i, c) in candidates.iter().enumerate() {
        if i == best
            || c.visits < floor
            || c.mean < least
            || !safe.get(i).copied().unwrap_or(false)
            || !(c.class() < b.class() || (c.class() == 0 && b.class() == 0))
        {
            continue;
        }
        let r = rank(c);
        if r.partial_cmp(&pick.1) == Some(std::cmp::Ordering::Less) {
            pick = (i, r);
        }
    }
    pick.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(visits: u32, mean: f64, captures: f32, pawn: bool) -> Reset {
        Reset {
            visits,
            mean,
            captures,
            pawn,
        }
    }

    #[test]
    fn the_margin_grows_from_nothing_to_the_most_at_the_limit() {
        assert_eq!(margin(0), 0.0);
        assert_eq!(margin(FIFTY_FROM), 0.0);
        assert!(margin(70) > 0.0 && margin(70) < margin(90));
        assert!((margin(FIFTY_LIMIT) - FIFTY_MARGIN).abs() < 1e-12);
        assert!((margin(500) - FIFTY_MARGIN).abs() < 1e-12);
    }

    #[test]
    fn with_the_clock_high_a_capture_try_comes_first_then_a_pawn_move() {
        let edges = [
            r(2000, 0.8, 0.0, false), // the search's rook move
            r(300, 0.7, 0.0, true),   // a pawn push
            r(200, 0.65, 0.4, false), // a try onto a pawn's possible square
            r(100, 0.7, 0.05, false), // a try that seldom captures: not a try
        ];
        let safe = [true; 4];
        // Below the clock's threshold: the search's choice.
        assert_eq!(resetting(0, &edges, &safe, 10), 0);
        // Late: the try, valued 0.15 lower, is within the margin.
        assert_eq!(resetting(0, &edges, &safe, 90), 2);
        // Early in the rule's range the margin is too small for the try, not for the push.
        assert_eq!(resetting(0, &edges, &safe, 55), 1);
        // A try that loses material is left out.
        assert_eq!(resetting(0, &edges, &[true, true, false, true], 90), 1);
        // Nothing resets within the margin: the search's choice.
        assert_eq!(resetting(0, &edges[..1], &safe[..1], 99), 0);
    }

    #[test]
    fn a_best_edge_that_resets_already_stays_unless_a_better_class_is_near() {
        let edges = [r(2000, 0.8, 0.0, true), r(300, 0.5, 0.0, true)];
        assert_eq!(resetting(0, &edges, &[true; 2], 95), 0);
        let edges = [
            r(2000, 0.8, 0.3, false),
            r(300, 0.79, 0.9, false),
            r(2, 0.9, 1.0, false), // too few visits to be trusted
        ];
        // Both tries: the one that captures in more positions.
        assert_eq!(resetting(0, &edges, &[true; 3], 95), 1);
        assert_eq!(resetting(1, &edges, &[true; 3], 95), 1);
    }
}

#[cfg(test)]
mod walk_tests {
    use crate::Agent;
    use crate::mcts::{MctsAgent, MctsConfig};
    use crate::{Budget, setup_view};
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    /// `mcts` on White's side of `fen` (a set-up start), its clock at `plies`, the fifty-move
    /// count in the search on or off, after one decision of `nodes` nodes: the walks scored as
    /// fifty-move draws and the value of the move chosen.
    fn decide(fen: &str, plies: u32, nodes: u64, fifty: bool) -> (u64, f64) {
        let rules = RuleSet::WILD16;
        let start = umpire_testkit::pos(fen);
        let mut config = MctsConfig {
            budget: Budget::Nodes(nodes),
            ..MctsConfig::default()
        };
        config.safeguards.fifty = fifty;
        let view = setup_view(rules, &start, Color::White);
        let mut agent = MctsAgent::new(view, 3, Some(start), config);
        agent.clock = crate::endgame::ProgressClock::starting_at(plies);
        agent.choose();
        let value = agent.analysis().map_or(0.0, |a| a.value);
        (agent.stats().fifty_draws, value)
    }

    #[test]
    fn a_walk_that_takes_the_clock_to_its_limit_is_a_draw() {
        // A queen and a rook against a king and a knight, far from a mate in one: with the
        // clock one ply short of the limit, every walk is drawn (no capture in one).
        let fen = "8/7k/8/6n1/8/8/8/QR2K3 w - - 0 1";
        let (none, fresh) = decide(fen, 0, 400, true);
        let (drawn, late) = decide(fen, 99, 400, true);
        assert_eq!(none, 0);
        assert!(drawn > 0);
        assert!(late < fresh - 0.1, "{late} against {fresh}");
        // Without the count the search values both alike.
        let (_, blind) = decide(fen, 99, 400, false);
        let (_, blind_fresh) = decide(fen, 0, 400, false);
        assert_eq!(blind, blind_fresh);
    }
}
