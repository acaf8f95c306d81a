//! Stratified (systematic) choice of a sampled turn's particles (issue 30, goal 4).
//!
//! A sampled opponent turn ends with more distinct children than particles and keeps a choice
//! of them. A uniform choice (a simple random sample) keeps each child with the same chance
//! `m / n`, but the children of one parent, or of one early history, are kept in numbers that
//! vary binomially: turn after turn the sample's ancestry narrows by that noise alone (the
//! lines whose expected children are about one lose all of them half of the time), and the
//! positions held past a bottleneck descend from few early histories.
//!
//! Here the children are laid out in the order of their parents' witness nodes and a
//! systematic sample is taken: one uniform start `u` in `[0, n / m)` and the children at `u`,
//! `u + n / m`, `u + 2 n / m`, … Every child is still kept with the same chance `m / n` (each
//! covers a unit of the line and the step is at least one unit, so exactly one point falls in
//! it with chance `m / n`), so the sample's distribution over positions is the uniform choice's
//! in every marginal; what changes is that the children of each contiguous run of the line are
//! kept in their expected number, give or take one. The held set is kept in that order, and
//! witness nodes are numbered in the order held, so at the next turn the parents' order is
//! their own parents' order: the line is the genealogy's depth-first order, and every early
//! history (a contiguous run at every later turn) keeps its expected share of the particles,
//! give or take one a turn, instead of a binomial draw.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::witness::Node;

use super::Hypothesis;

/// Keeps `m` of the `items` (and their witness `nodes`, index for index) by a systematic sample
/// along the order of their parents' witness nodes, and leaves them in that order. Nothing
/// changes where `m` is at least the items. Allocates the order and the kept items (at most
/// the items held, once a sampled turn).
pub(super) fn keep_systematic(
    items: &mut Vec<Hypothesis>,
    nodes: &mut Vec<Node>,
    m: usize,
    rng: &mut Xoshiro256PlusPlus,
) {
    let n = items.len().min(nodes.len());
    if m >= n {
        return;
    }
    let mut order: Vec<u32> = (0..n as u32).collect();
    // Stable: children of one parent stay in the order they were found.
    order.sort_by_key(|&i| nodes[i as usize].parent);
    let step = n as f64 / m as f64;
    let start = rng.random_range(0.0..1.0) * step;
    let mut picked = Vec::with_capacity(m);
    for k in 0..m {
        let at = ((start + k as f64 * step) as usize).min(n - 1);
        picked.push(order[at] as usize);
    }
    // `at` grows strictly (the step is over one), so `picked` holds distinct items.
    let kept_items = picked.iter().map(|&i| items[i].clone()).collect();
    let kept_nodes = picked.iter().map(|&i| nodes[i]).collect();
    *items = kept_items;
    *nodes = kept_nodes;
}

/// The indices of a uniform choice of `m` of `n` items, in increasing order (all of them when
/// `m >= n`): the other way to keep a sampled turn's particles, and the way to cut a held set
/// back without favouring its first items.
pub(super) fn uniform_choice<R: rand::Rng>(rng: &mut R, n: usize, m: usize) -> Vec<usize> {
    let mut keep = rand::seq::index::sample(rng, n, m.min(n)).into_vec();
    keep.sort_unstable();
    keep
}

/// Moves the items at `keep` (increasing indices) to the front of `items`, in order, and drops
/// the rest; applied to parallel vectors with the same `keep`, it keeps them index for index.
pub(super) fn keep_in_order<T>(items: &mut Vec<T>, keep: &[usize]) {
    for (w, &r) in keep.iter().enumerate() {
        if w != r {
            items.swap(w, r);
        }
    }
    items.truncate(keep.len());
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use shakmaty::{Chess, Square};
    use umpire_rules::Attempt;

    use super::*;

    /// Items of parents `0..sizes.len()`, parent `p` with `sizes[p]` children, interleaved
    /// (child `j` of every parent before child `j + 1` of any): the order the function must
    /// not rely on. Each item's `rep` is its index, to follow it.
    fn interleaved(sizes: &[usize]) -> (Vec<Hypothesis>, Vec<Node>) {
        let (mut items, mut nodes) = (Vec::new(), Vec::new());
        let most = sizes.iter().copied().max().unwrap_or(0);
        for j in 0..most {
            for (p, &size) in sizes.iter().enumerate() {
                if j < size {
                    items.push(Hypothesis {
                        pos: Chess::default(),
                        node: 0,
                        rep: items.len() as u64,
                        primary: true,
                    });
                    nodes.push(Node {
                        parent: p as u32,
                        mv: Attempt::new(Square::E7, Square::E5),
                        before: items.len() as u64,
                        after: 0,
                        zeroing: 0,
                    });
                }
            }
        }
        (items, nodes)
    }

    const SIZES: [usize; 12] = [1, 2, 3, 5, 8, 13, 1, 1, 7, 20, 4, 35];

    /// Every parent's children are kept in their expected number rounded down or up (a
    /// uniform choice keeps them in binomial numbers: it fails), the kept items stay paired
    /// with their nodes, distinct, in the order of their parents.
    #[test]
    fn each_parent_keeps_its_expected_share_give_or_take_one() {
        let n: usize = SIZES.iter().sum();
        let m = 30;
        for seed in 0..300u64 {
            let (mut items, mut nodes) = interleaved(&SIZES);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            keep_systematic(&mut items, &mut nodes, m, &mut rng);
            assert_eq!((items.len(), nodes.len()), (m, m));
            let mut seen = std::collections::HashSet::new();
            for (h, node) in items.iter().zip(&nodes) {
                assert_eq!(node.before, h.rep + 1, "paired");
                assert!(seen.insert(h.rep), "distinct");
            }
            assert!(nodes.windows(2).all(|w| w[0].parent <= w[1].parent));
            for (p, &size) in SIZES.iter().enumerate() {
                let kept = nodes.iter().filter(|x| x.parent == p as u32).count();
                let expected = (size * m) as f64 / n as f64;
                assert!(
                    kept == expected.floor() as usize || kept == expected.ceil() as usize,
                    "seed {seed}, parent {p}: {kept} kept, {expected} expected"
                );
            }
        }
    }

    /// Every item is kept with the same chance `m / n`, whatever its parent's size.
    #[test]
    fn every_item_is_kept_with_the_same_chance() {
        let n: usize = SIZES.iter().sum();
        let m = 30;
        let rounds = 6_000u64;
        let mut hits = vec![0u32; n];
        for seed in 0..rounds {
            let (mut items, mut nodes) = interleaved(&SIZES);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            keep_systematic(&mut items, &mut nodes, m, &mut rng);
            for h in &items {
                hits[h.rep as usize] += 1;
            }
        }
        let want = m as f64 / n as f64;
        for (i, &h) in hits.iter().enumerate() {
            let share = f64::from(h) / rounds as f64;
            // The binomial spread is 0.0059 at 6,000 rounds: five of it.
            assert!(
                (share - want).abs() < 0.03,
                "item {i}: {share} against {want}"
            );
        }
    }

    /// Nothing changes where there are no more items than asked.
    #[test]
    fn few_items_are_all_kept() {
        let (mut items, mut nodes) = interleaved(&[2, 3]);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        keep_systematic(&mut items, &mut nodes, 5, &mut rng);
        assert_eq!(
            items.iter().map(|h| h.rep).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
    }
}
