//! The root's final choice while the agent stands to win: the most visited edge, unless it
//! may stalemate or repeat an own board while a well-visited alternative is safer.

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

/// The edge to play, given the most visited one, `best`: among the edges visited at least a
/// tenth as often as `best` and valued above 0, the one that stalemates in the smallest share
/// of worlds, then repeats the fewest times, then has the most visits. `best` itself when it
/// neither stalemates nor repeats.
pub(super) fn safest(best: usize, candidates: &[Candidate]) -> usize {
    let Some(b) = candidates.get(best) else {
        return best;
    };
    if b.stalemates == 0.0 && b.repeats == 0 {
        return best;
    }
    let key = |c: &Candidate| (c.stalemates, c.repeats, u32::MAX - c.visits);
    let floor = (b.visits / 10).max(1);
    let mut pick = (best, key(b));
    for (i, c) in candidates.iter().enumerate() {
        if c.visits >= floor && c.mean > 0.0 {
            let k = key(c);
            if k.partial_cmp(&pick.1) == Some(Ordering::Less) {
                pick = (i, k);
            }
        }
    }
    pick.0
}

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

    #[test]
    fn a_safe_best_edge_is_kept() {
        let edges = [c(1000, 0.9, 0.0, 0), c(900, 0.95, 0.0, 0)];
        assert_eq!(safest(0, &edges), 0);
    }

    #[test]
    fn a_stalemating_best_edge_gives_way_to_a_well_visited_safe_one() {
        let edges = [
            c(1000, 0.9, 0.1, 0),
            c(50, 0.9, 0.0, 0),   // too few visits
            c(200, 0.8, 0.0, 2),  // safe but repeats
            c(150, 0.7, 0.0, 0),  // safe, fresh
            c(300, -0.1, 0.0, 0), // valued below 0
        ];
        assert_eq!(safest(0, &edges), 3);
        // Without a fresh one, the repeating safe edge still beats the stalemate.
        assert_eq!(safest(0, &edges[..3]), 2);
        // Among equally safe edges, the most visited.
        let edges = [
            c(1000, 0.9, 0.5, 0),
            c(200, 0.8, 0.0, 0),
            c(400, 0.8, 0.0, 0),
        ];
        assert_eq!(safest(0, &edges), 2);
    }

    #[test]
    fn a_smaller_stalemate_share_wins_when_none_is_safe() {
        let edges = [c(1000, 0.9, 0.5, 0), c(500, 0.9, 0.25, 3)];
        assert_eq!(safest(0, &edges), 1);
    }

    #[test]
    fn a_repeating_best_edge_gives_way_to_a_fresh_one() {
        let edges = [
            c(1000, 0.9, 0.0, 2),
            c(120, 0.6, 0.0, 1),
            c(110, 0.5, 0.0, 0),
        ];
        assert_eq!(safest(0, &edges), 2);
        assert_eq!(safest(0, &edges[..1]), 0);
    }
}
