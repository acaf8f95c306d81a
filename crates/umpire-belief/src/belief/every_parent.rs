//! Every held parent a share of its moves: a sampled opponent turn spread over the whole
//! sample where the observations that follow are known (issue 30, goal 4).
//!
//! A sampled turn used to expand its parents whole, in random order, until it had offered
//! enough children: with the lookahead, the first 20–30 % of the 10,000 parents. The children
//! kept then descend from that share only, turn after turn, and the sample's ancestry narrows
//! like a population of a fifth of its size: the positions held at ply 40 of the benchmarks'
//! game 3 descend from a few hundred of the histories of ply 12, and the marginals' distance
//! there follows that ancestry, not the positions held (`docs/BENCHMARKS.md`, "Seventh
//! round"). Here every parent offers each of its moves with the same chance `q` (decided before
//! the move is judged, so judging costs what it did), so the children kept come from nearly
//! every parent: each child of the held parents is still offered with one chance `q`, as each
//! was with the share `e / n` of whole parents, but the children per parent are spread.
//!
//! `q` is set from a **pilot**: the first parents (in the shuffled order) are expanded whole
//! with the lookahead, and `q` is the share that makes all the parents offer about five
//! quarters of the particles ([`OFFERED_QUARTERS`]); the pilot's children are then kept with
//! the same chance `q`, edge by edge, as the others are drawn. The choice of an edge (a parent
//! and a move) is a hash of the turn's salt, the parent's witness node and the move: the same
//! on one thread or several, the same for a pilot child as for one judged later.
//!
//! A child reached from `k` held parents is offered when any of its edges is drawn: the
//! correction of `belief/parent_count.rs` keeps it with `q` (times the share of parents
//! expanded, if the turn stopped early) over that chance, see [`none_offered`].
//!
//! Only where the observations that follow are known (`Belief::observe_known`: `umpire belief
//! --ply`, `PlyStream::read_at_ply`), with the lookahead: agents and the review of every ply
//! keep whole parents, their samples and costs unchanged.

use umpire_rules::Attempt;

use crate::zobrist_key::scramble;

/// The pilot is this share of the parents (one in `PILOT_SHARE`) …
pub(super) const PILOT_SHARE: usize = 32;

/// … and at least this many; a turn from fewer than twice this many parents expands them whole.
pub(super) const PILOT_MIN: usize = 64;

/// An edge-drawn turn aims at this many children offered per particle, in quarters: five
/// quarters of the particles. Every child it offers has one chance, so it needs no more than
/// what the parents' correction thins back to about the particles (it keeps 80–100 % of them
/// in the benchmarks' game 3); the four times the particles a whole-parent turn offers (so that
/// its reservoir is a uniform choice) cost a fifth more CPU to ply 40 there for the same
/// marginals (`docs/BENCHMARKS.md`, "Session 16").
pub(super) const OFFERED_QUARTERS: u64 = 5;

/// The children an edge-drawn turn aims to offer for `particles` particles.
pub(super) fn offer_target(particles: usize) -> u64 {
    particles as u64 * OFFERED_QUARTERS / 4
}

/// The chance `q` (at most 1) that gives about `target` children offered from `parents`
/// parents, where the pilot's `pilot` parents offered `passed` (with the lookahead).
pub(super) fn edge_share(passed: usize, pilot: usize, parents: usize, target: u64) -> f64 {
    if passed == 0 || pilot == 0 {
        return 1.0;
    }
    let expected = passed as f64 * parents as f64 / pilot as f64;
    (target as f64 / expected).clamp(f64::MIN_POSITIVE, 1.0)
}

/// The threshold an edge's hash is compared with for the chance `q`.
pub(super) fn threshold(q: f64) -> u64 {
    if q >= 1.0 {
        u64::MAX
    } else {
        (q * u64::MAX as f64) as u64
    }
}

/// Whether the edge from the parent whose witness node is `node` by the opponent's move `mv`
/// is drawn, for a turn's `salt` and the [`threshold`] of its chance.
pub(super) fn picked(salt: u64, node: u32, mv: Attempt, threshold: u64) -> bool {
    if threshold == u64::MAX {
        return true;
    }
    let promotion = mv.promotion.map_or(0u64, |r| r as u64 + 1);
    let word = u64::from(node) << 16
        | (usize::from(mv.from) as u64) << 8
        | usize::from(mv.to) as u64
        | promotion << 48;
    scramble(salt ^ scramble(word)) <= threshold
}

/// The chance that a child of `k` held parents is not offered: none of its parents among the
/// `expanded` of the `n` (a uniform choice: the first in the shuffled order) offered it, each
/// expanded one offering it with chance `q`. Summed over how many of the `k` were expanded
/// (hypergeometric), each term `(1 − q)^j`.
pub(super) fn none_offered(n: usize, expanded: usize, q: f64, k: u32) -> f64 {
    let k = k as usize;
    if k > n {
        return 0.0;
    }
    // dist[j]: the chance that j of the first m of the k parents were expanded.
    let mut dist = vec![0.0f64; k + 1];
    dist[0] = 1.0;
    for m in 0..k {
        let left = (n - m) as f64;
        for j in (0..=m).rev() {
            let p = dist[j];
            if p == 0.0 {
                continue;
            }
            let chosen = (expanded.saturating_sub(j)) as f64 / left;
            dist[j + 1] += p * chosen;
            dist[j] = p * (1.0 - chosen);
        }
    }
    let miss = 1.0 - q;
    let mut none = 0.0;
    let mut power = 1.0;
    for p in dist {
        none += p * power;
        power *= miss;
    }
    none
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// With whole parents (`q` = 1) the chance is the hypergeometric one of the earlier
    /// correction; with every parent expanded it is `(1 − q)^k`.
    #[test]
    fn none_offered_reduces_to_the_known_cases() {
        let (n, e) = (100usize, 30usize);
        for k in 1..6u32 {
            let mut whole = 1.0;
            for m in 0..k as usize {
                whole *= (n - e - m) as f64 / (n - m) as f64;
            }
            assert!((none_offered(n, e, 1.0, k) - whole).abs() < 1e-12, "k {k}");
            let all = 0.7f64.powi(k as i32);
            assert!((none_offered(n, n, 0.3, k) - all).abs() < 1e-12, "k {k}");
        }
        assert!((1.0 - none_offered(n, e, 0.5, 1) - 0.15).abs() < 1e-12);
    }

    /// The draws are about the chance asked and depend on the salt.
    #[test]
    fn edges_are_drawn_with_the_chance_asked() {
        let t = threshold(0.25);
        let mv = Attempt::new(Square::E7, Square::E5);
        let drawn = (0..40_000u32).filter(|&n| picked(7, n, mv, t)).count();
        assert!((9_400..10_600).contains(&drawn), "{drawn}");
        let other = (0..40_000u32)
            .filter(|&n| picked(7, n, mv, t) != picked(8, n, mv, t))
            .count();
        assert!(other > 10_000, "{other}");
        assert!((0..100u32).all(|n| picked(1, n, mv, threshold(1.0))));
    }
}
