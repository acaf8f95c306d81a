//! The root's last look before it plays: a most-visited edge that loses material in the
//! positions the belief holds ([`crate::safety::exchange_delta`]) gives way to a searched
//! alternative that does not. A short search against a bandit opponent may miss the refutation
//! of a check into a defended square (`21...Qxf2+ 22.Rxf2`); the exchange is plain in the
//! worlds.

use crate::eval::SCALE;
use crate::safety::BLUNDER_PAWNS;

/// What the last look knows of one root edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Risk {
    /// Visits of the edge in the search.
    pub visits: u32,
    /// Its mean value.
    pub mean: f64,
    /// Its material change after the captures that may follow, in pawns, averaged over the
    /// worlds in which it is legal (`None`: not an attempt, or legal in none of them).
    pub delta: Option<f64>,
}

/// The share of `best`'s visits an alternative needs to replace it.
pub(super) const ALTERNATIVE_SHARE: u32 = 8;

/// The edge to play given the most visited one, `best`: `best` unless it loses at least
/// [`BLUNDER_PAWNS`] on average while another edge visited at least `1 /`
/// [`ALTERNATIVE_SHARE`] as often loses at least [`BLUNDER_PAWNS`] less; then, among those,
/// the one with the best mean plus material change (on the evaluation's scale).
pub(super) fn unblundered(best: usize, edges: &[Risk]) -> usize {
    let Some(Risk {
        visits,
        delta: Some(worst),
        ..
    }) = edges.get(best).copied()
    else {
        return best;
    };
    if worst > -BLUNDER_PAWNS {
        return best;
    }
    let floor = (visits / ALTERNATIVE_SHARE).max(1);
    let value = |r: &Risk, d: f64| r.mean + d.min(0.0) / SCALE;
    edges
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let d = r.delta?;
            (i != best && r.visits >= floor && d >= worst + BLUNDER_PAWNS).then(|| (i, value(r, d)))
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(best, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn risk(visits: u32, mean: f64, delta: Option<f64>) -> Risk {
        Risk {
            visits,
            mean,
            delta,
        }
    }

    #[test]
    fn a_queen_lost_for_a_pawn_gives_way_to_a_searched_safe_move() {
        let edges = [
            risk(400, 0.10, Some(-8.0)), // Qxf2+ Rxf2
            risk(60, 0.05, Some(0.0)),
            risk(90, 0.02, Some(0.0)),
            risk(20, 0.30, Some(0.0)), // too few visits to be trusted
        ];
        assert_eq!(unblundered(0, &edges), 1);
    }

    #[test]
    fn a_safe_best_edge_and_a_lone_one_are_kept() {
        let edges = [risk(400, 0.1, Some(-0.5)), risk(300, 0.0, Some(0.0))];
        assert_eq!(unblundered(0, &edges), 0);
        // Every alternative loses as much: nothing to gain.
        let edges = [risk(400, 0.1, Some(-8.0)), risk(300, 0.0, Some(-7.0))];
        assert_eq!(unblundered(0, &edges), 0);
        // Unknown risk (no world where it is legal): kept.
        let edges = [risk(400, 0.1, None), risk(300, 0.0, Some(0.0))];
        assert_eq!(unblundered(0, &edges), 0);
        assert_eq!(unblundered(3, &edges), 3);
    }
}
