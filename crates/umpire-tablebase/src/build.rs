//! Retrograde construction of a table, depth by depth.
//!
//! # The method
//!
//! `W_n(L)` is the family of sets `S` of black-king squares such that White, with its men on
//! layout `L` and to move, mates in at most `n` of its own (accepted) moves whatever the black
//! king does, knowing only that it stands somewhere in `S`. It is closed under subsets, so it is
//! stored as its maximal members `M_n(L)` (an [`Antichain`]). `W_0(L) = {∅}`.
//!
//! `S ∈ W_n(L)` iff White has an attempt `a` (with [`Split`] `σ`) such that
//! 1. `S` has no square where `a` stalemates or lets Black take an undefended man;
//! 2. for each legal, non-final answer class `C = S ∩ class` (silent and each check answer of
//!    [`Split::classes`]: rank, file, long or short diagonal, knight, or a double check),
//!    the black king's spread `σ.spread(C)` is in `W_{n-1}(L')`, `L'` the layout after `a`;
//!    mated squares need nothing;
//! 3. the illegal part `S ∩ σ.illegal` is in `W_n(L)` (same depth: an illegal attempt costs no
//!    move), and it is a proper subset of `S` (an attempt illegal everywhere teaches nothing).
//!
//! Because the spread of a set is the union of the spreads of its squares, condition 2 for a
//! class holds iff `C ⊆ σ.allowed(T)` for some `T ∈ M_{n-1}(L')` — `allowed(T)` is computed for
//! all squares at once with shifts. Hence every member of `W_n(L)` is a subset of a candidate
//!
//! `⋃_k (σ.allowed(T_k) ∩ class_k)  ∪  H ∩ σ.illegal`
//!
//! for some attempt, some `T_k ∈ M_{n-1}(L') ∪ {∅}` (one per class `k`) and
//! `H ∈ M_n(L) ∪ {∅}`; and every
//! candidate is in `W_n(L)` (take `a`; each part satisfies its condition; the illegal part is a
//! subset of `H`). Only the maximal projections of `{allowed(T)}` onto each class, and of
//! `M_n(L)` onto `σ.illegal`, can give maximal candidates, so only those are combined. The
//! dependence of `M_n(L)` on itself (through illegal answers) is solved by iterating: start from
//! `M_{n-1}(L)` and the candidates with `H = ∅`, then combine the sets added in each round with
//! every attempt, until a round adds nothing. Since both directions hold, the result is exactly
//! the maximal members of `W_n(L)` — not an approximation. Successor layouts are looked up
//! through their symmetry representative, the set masks being mapped into its frame and the
//! projections mapped back.
//!
//! The construction stops at the first depth at which no layout gains a set. A set stored with
//! depth `d` is a member of `M_d(L)` that is not covered by `M_{d-1}(L)`.
//!
//! Not modelled: the fifty-move rule and threefold repetition (the wild16 umpire applies both
//! automatically). The longest mate found is far below fifty moves; repetition of the true
//! position is possible in principle along a forced line and is ignored, as in the paper.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use crate::split::Split;
use crate::{Antichain, Layout, LayoutIndex};

/// Progress of a build, reported after each depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth just finished (mate in at most this many White moves).
    pub depth: u8,
    /// Sets first won at this depth (maximal, not covered at the previous depth).
    pub new_sets: usize,
    /// Total size of the antichains `M_depth` over all canonical layouts.
    pub maximal_sets: usize,
}

/// How to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Stop after this depth even if sets are still being won (a partial table: sets absent from
    /// it may still be won in more moves).
    pub max_depth: u8,
    /// Worker threads (at least 1). The result does not depend on it.
    pub threads: usize,
}

impl Default for BuildOptions {
    /// No depth limit (up to 255), two threads.
    fn default() -> BuildOptions {
        BuildOptions {
            max_depth: u8::MAX,
            threads: 2,
        }
    }
}

/// The outcome of a build: per canonical layout, the stored `(set, depth)` entries.
#[derive(Clone, Debug)]
pub(crate) struct Built {
    pub entries: Vec<Vec<(u64, u8)>>,
    /// Whether the construction reached a depth that added nothing (the table is complete).
    pub complete: bool,
}

/// The legal part of one attempt: its illegal squares and the maximal sets of good squares
/// (the candidates with `H = ∅`).
struct Option_ {
    illegal: u64,
    good_sets: Vec<u64>,
}

/// Runs the construction for every canonical layout of `index`.
pub(crate) fn build(
    index: &LayoutIndex,
    options: BuildOptions,
    progress: &mut dyn FnMut(Progress),
) -> Built {
    build_with(index, options, Variant::TABLES, progress)
}

/// A way of counting and hearing, for experiments (see [`depth_profile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// How illegal attempts count.
    pub illegal: IllegalRule,
    /// Whether White hears the kind of a check (rank, file, …) or only that there is one.
    pub check_kinds: bool,
    /// Whether White may leave a protected man next to a possible black-king square (the
    /// rules); if not, such a square counts as a failure unless the move mates there.
    pub protected_next_to_king: bool,
}

impl Variant {
    /// The rules of the tables: `wild16`.
    pub const TABLES: Variant = Variant {
        illegal: IllegalRule::Free,
        check_kinds: true,
        protected_next_to_king: true,
    };
}

/// How an illegal attempt is counted. The tables use [`IllegalRule::Free`] (the `wild16` rules:
/// an illegal attempt costs no move and White hears "illegal"); the others are experiments for
/// comparing with other ways of counting (see [`depth_profile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalRule {
    /// Costs no move; White learns from it (the tables).
    Free,
    /// Costs one move, like a played move (distance in attempts rather than moves).
    CostsAMove,
    /// Never tried: White only makes attempts that are legal wherever the black king may be.
    NeverTried,
    /// Costs no move, but the illegal part is looked up among the sets known after only this
    /// many rounds of the same-depth fixpoint (1 round is [`IllegalRule::CostsAMove`]): what an
    /// algorithm that does not iterate to the fixpoint would find.
    Rounds(u8),
}

/// The number of sets first won at each depth (element `d` for depth `d`) under `rule`; for
/// [`Variant::TABLES`] it is the table's
/// [`crate::Tablebase::sets_per_depth`]. The longest mate is the last depth.
pub fn depth_profile(
    ending: crate::Ending,
    options: BuildOptions,
    rule: Variant,
    progress: &mut dyn FnMut(Progress),
) -> Vec<usize> {
    let index = LayoutIndex::new(ending);
    let built = build_with(&index, options, rule, progress);
    let mut counts = vec![0usize];
    for list in &built.entries {
        for &(_, d) in list {
            let d = usize::from(d);
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        }
    }
    counts
}

fn build_with(
    index: &LayoutIndex,
    options: BuildOptions,
    rule: Variant,
    progress: &mut dyn FnMut(Progress),
) -> Built {
    let n = index.len();
    let mut current: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut entries: Vec<Vec<(u64, u8)>> = vec![Vec::new(); n];
    let threads = options.threads.max(1);
    let mut complete = false;
    for depth in 1..=options.max_depth {
        let next = step_all(index, &current, threads, rule);
        let mut new_sets = 0;
        let mut maximal_sets = 0;
        for (i, sets) in next.iter().enumerate() {
            maximal_sets += sets.len();
            let previous = Antichain::of(current[i].iter().copied());
            for &s in sets {
                if !previous.covers(s) {
                    entries[i].push((s, depth));
                    new_sets += 1;
                }
            }
        }
        current = next;
        progress(Progress {
            depth,
            new_sets,
            maximal_sets,
        });
        if new_sets == 0 {
            complete = true;
            break;
        }
    }
    Built { entries, complete }
}

/// One depth for all layouts, the layouts dealt out to `threads` workers in fixed chunks.
fn step_all(
    index: &LayoutIndex,
    current: &[Vec<u64>],
    threads: usize,
    rule: Variant,
) -> Vec<Vec<u64>> {
    let n = index.len();
    if threads == 1 {
        return (0..n).map(|i| step(index, i, current, rule)).collect();
    }
    // Workers take the next chunk of layouts from a shared counter (the deep KBNK depths have a
    // few very expensive layouts); results are put back in layout order, and each layout's
    // result depends only on the previous depth, so the table does not depend on the threads.
    const CHUNK: usize = 8;
    let next = AtomicUsize::new(0);
    let mut out: Vec<Vec<u64>> = vec![Vec::new(); n];
    let results: Vec<Vec<(usize, Vec<u64>)>> = thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= n {
                            break;
                        }
                        for i in start..(start + CHUNK).min(n) {
                            done.push((i, step(index, i, current, rule)));
                        }
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for part in results {
        for (i, sets) in part {
            out[i] = sets;
        }
    }
    out
}

/// `M_n` of layout number `li`, given `M_{n-1}` of every layout.
fn step(index: &LayoutIndex, li: usize, previous: &[Vec<u64>], rule: Variant) -> Vec<u64> {
    let layout = index.layouts()[li];
    let options: Vec<Option_> = layout
        .attempts()
        .into_iter()
        .map(|a| legal_part(index, &layout, a, previous, rule))
        .filter(|o| !o.good_sets.is_empty())
        .collect();
    let mut chain = Antichain::of(previous[li].iter().copied());
    // Round 0 combines with H = ∅ and with every member of M_{n-1}(L); later rounds with the
    // members added by the round before.
    let mut frontier: Vec<u64> = match rule.illegal {
        IllegalRule::NeverTried => Vec::new(),
        _ => chain.sets().to_vec(),
    };
    frontier.push(0);
    let mut rounds = 0u8;
    loop {
        let mut candidates = Vec::new();
        for o in &options {
            let projections = Antichain::of(frontier.iter().map(|h| h & o.illegal));
            for &p in projections.sets() {
                for &g in &o.good_sets {
                    candidates.push(g | p);
                }
            }
        }
        let fresh = Antichain::of(candidates);
        let mut added = Vec::new();
        for &c in fresh.sets() {
            if chain.insert(c) {
                added.push(c);
            }
        }
        // Some just-added sets may have been displaced by later ones; only members matter.
        added.retain(|s| chain.sets().contains(s));
        rounds += 1;
        // Only a free illegal attempt makes the depth depend on itself.
        let more = match rule.illegal {
            IllegalRule::Free => true,
            IllegalRule::Rounds(k) => rounds < k,
            _ => false,
        };
        if added.is_empty() || !more {
            break;
        }
        frontier = added;
    }
    chain.into_sorted()
}

/// The maximal good-square sets of one attempt: the products of the maximal projections of
/// `allowed(T)`, `T ∈ M_{n-1}(L') ∪ {∅}`, onto each good answer class.
fn legal_part(
    index: &LayoutIndex,
    layout: &Layout,
    attempt: umpire_rules::Attempt,
    previous: &[Vec<u64>],
    rule: Variant,
) -> Option_ {
    let split = Split::new(layout, attempt);
    let mut merged = [0u64; 2];
    // Experiment: a protected man next to the king counts as lost.
    let forbidden = if rule.protected_next_to_king {
        0
    } else {
        let men = split.after.occupied() & !shakmaty::Bitboard::from_square(split.after.king).0;
        crate::bits::king_spread(men) & !split.mate
    };
    let classes: Vec<u64> = if rule.check_kinds {
        split.classes().iter().map(|c| c.1 & !forbidden).collect()
    } else {
        // Experiment: every check heard alike.
        for &(answer, squares) in split.classes() {
            merged[usize::from(answer != crate::Answer::Silent)] |= squares & !forbidden;
        }
        merged.into_iter().filter(|&m| m != 0).collect()
    };
    let (ci, sym) = index.locate(&split.after);
    let back = sym.inverse();
    let good = sym.set(split.good() & !forbidden);
    let open = sym.set(split.after_domain);
    let mut good_sets: Vec<u64> = vec![0];
    for class in classes {
        let class = sym.set(class);
        let sets = previous[ci]
            .iter()
            .copied()
            .chain(std::iter::once(0))
            .map(|t| good & !crate::bits::king_spread(open & !t) & class);
        let projections = Antichain::of(sets).into_sorted();
        // The classes are disjoint, so the unions of maximal parts are maximal.
        let mut product = Vec::with_capacity(good_sets.len() * projections.len());
        for &g in &good_sets {
            for &p in &projections {
                product.push(g | back.set(p));
            }
        }
        good_sets = product;
    }
    good_sets.retain(|&s| s != 0);
    Option_ {
        illegal: split.illegal,
        good_sets,
    }
}
