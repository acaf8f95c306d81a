//! The root's last look before it plays: a most-visited edge that loses material in the
//! positions the belief holds ([`crate::safety::exchange_delta`]) gives way to a searched
//! alternative that does not. A short search against a bandit opponent may miss the refutation
//! of a check into a defended square (`21...Qxf2+ 22.Rxf2`); the exchange is plain in the
//! worlds.
//!
//! The same look answers a raid (issue 28): when the enemy has just taken one of the agent's men,
//! the taker stands on the announced square in every world, and the men it attacks next (left
//! at home, undefended) are lost by every move that neither takes it nor moves them, which
//! [`crate::safety::exchange_delta`] counts against the move. After such a capture an alternative
//! needs far fewer visits ([`RAID_SHARE`]) to replace a most-visited edge that leaves the raider
//! its next man: a recapture or the threatened man's escape is often a quiet, little-searched
//! edge.

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

/// The share of `best`'s visits an alternative needs to replace it right after the enemy took
/// one of the agent's men (a raid: the taker's next victims are the risk).
pub(super) const RAID_SHARE: u32 = 64;

/// The edge to play given the most visited one, `best`: `best` unless it loses at least
/// [`BLUNDER_PAWNS`] on average while another edge visited at least `1 / share` as often
/// ([`ALTERNATIVE_SHARE`], or [`RAID_SHARE`] after an enemy capture) loses at least
/// [`BLUNDER_PAWNS`] less; then, among those, the one with the best mean plus material change
/// (on the evaluation's scale).
pub(super) fn unblundered(best: usize, edges: &[Risk], share: u32) -> usize {
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
    let floor = (visits / share.max(1)).max(1);
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
        assert_eq!(unblundered(0, &edges, ALTERNATIVE_SHARE), 1);
    }

    #[test]
    fn a_safe_best_edge_and_a_lone_one_are_kept() {
        let edges = [risk(400, 0.1, Some(-0.5)), risk(300, 0.0, Some(0.0))];
        assert_eq!(unblundered(0, &edges, ALTERNATIVE_SHARE), 0);
        // Every alternative loses as much: nothing to gain.
        let edges = [risk(400, 0.1, Some(-8.0)), risk(300, 0.0, Some(-7.0))];
        assert_eq!(unblundered(0, &edges, ALTERNATIVE_SHARE), 0);
        // Unknown risk (no world where it is legal): kept.
        let edges = [risk(400, 0.1, None), risk(300, 0.0, Some(0.0))];
        assert_eq!(unblundered(0, &edges, ALTERNATIVE_SHARE), 0);
        assert_eq!(unblundered(3, &edges, ALTERNATIVE_SHARE), 3);
    }

    #[test]
    fn after_a_capture_a_little_searched_escape_replaces_a_move_that_leaves_the_next_man() {
        // The raider took a man and attacks a rook left at home: the most visited edge leaves
        // it (-5), the rook's escape was visited 10 times in 400.
        let edges = [
            risk(400, 0.05, Some(-5.0)),
            risk(10, 0.0, Some(0.0)),
            risk(2, 0.2, Some(0.0)), // below even a raid's share
        ];
        assert_eq!(unblundered(0, &edges, ALTERNATIVE_SHARE), 0);
        assert_eq!(unblundered(0, &edges, RAID_SHARE), 1);
    }
}
