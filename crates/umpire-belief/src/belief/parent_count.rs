//! The union bias of a sampled opponent turn, undone (issue 30, goal 4).
//!
//! A sampled turn expands the first `e` of its `n` held parents (in random order) and keeps a
//! child if any of its parents among them was expanded: a child with `k` held parents is
//! offered with probability `1 − C(n − k, e) / C(n, e)`, about `k` times that of a child of one
//! parent while `e` is a small share of `n`. Here each kept child's parents among the held
//! ones are counted, and the child stays with probability `(e / n)` over that: every child of
//! the held parents is then kept with the same chance `e / n` (where the parents are the exact
//! set, the first sampled turn: uniform over the consistent positions, the exact set's target).
//!
//! The parents of a child are found without generating backward moves: a parent and its child
//! hold the same enemy men but one (the man that moved; a promoted man was a pawn), so the hash
//! of "every enemy man but one" of a parent equals that of the child for the mover. Candidates
//! so matched are checked by playing the move and, where a repetition count matters, counting
//! it through the candidate as its expansion would (or, where the turn heard more than the
//! move, by expanding the candidate's turn; before issue 30's seventh round a repetition count
//! also cost an expansion, a tenth of ply 150's time). A castling parent is not
//! matched (two men move) unless it is the child's own: such children are slightly
//! over-counted and under-kept, which is rare.

use std::ops::Range;
use std::sync::OnceLock;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{Chess, Color, Move, Position, Rank, Role, Square, attacks};

use super::every_parent::none_offered;
use super::{Hypothesis, Spread, same};
use crate::parallel::map_ranges;
use crate::simulate::OpponentScratch;
use crate::witness::Node;
use crate::zobrist_key::{scramble, zobrist};

/// The children's signatures are bucketed by this many top bits (a directory of 2¹⁶ offsets,
/// 256 KiB): a parent's signature is looked up in one short bucket.
const BUCKET_BITS: u32 = 16;

/// The hash of one man (`color`, `role`) on `sq`; a set of men hashes to the XOR of its men's.
fn man_word(color: Color, role: Role, sq: Square) -> u64 {
    static WORDS: OnceLock<Vec<u64>> = OnceLock::new();
    let words = WORDS.get_or_init(|| (0..1024u64).map(scramble).collect());
    let i = (usize::from(color.is_white()) << 9) | ((role as usize) << 6) | usize::from(sq);
    words.get(i).copied().unwrap_or(0)
}

/// Starts loading `keys[at]` into the cache (a hint; it changes nothing).
fn prefetch(keys: &[u64], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = keys.get(at) {
        // SAFETY: a prefetch never faults and reads nothing the program can observe; the
        // address is that of an element. SSE is part of every x86-64 target.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                std::ptr::from_ref(k).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (keys, at);
}

/// Every enemy man of `pos` with the hash of the other enemy men: `(signature, square, role)`,
/// role by role (the order the callers' results do not depend on).
fn signatures(pos: &Chess, enemy: Color, out: &mut Vec<(u64, Square, Role)>) {
    out.clear();
    let board = pos.board();
    let mut all = 0u64;
    for role in Role::ALL {
        for sq in board.by_piece(role.of(enemy)) {
            let w = man_word(enemy, role, sq);
            all ^= w;
            out.push((w, sq, role));
        }
    }
    for entry in out.iter_mut() {
        entry.0 ^= all;
    }
}

/// Whether the enemy man `role` on `from` could have become `to_role` on `to` by one move
/// (a man keeps its kind unless a pawn promotes on the last rank).
fn could_move(role: Role, from: Square, to_role: Role, to: Square) -> bool {
    from != to
        && (role == to_role
            || (role == Role::Pawn
                && to_role != Role::King
                && matches!(to.rank(), Rank::First | Rank::Eighth)))
}

/// The move of the man `role` from `from` to `to` in `q`, the man on `to` after it `to_role`.
fn move_in(q: &Chess, role: Role, from: Square, to: Square, to_role: Role) -> Move {
    let capture = q.board().role_at(to);
    if role == Role::Pawn && from.file() != to.file() && capture.is_none() {
        return Move::EnPassant { from, to };
    }
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: (role != to_role).then_some(to_role),
    }
}

/// Whether the man `role` of `color` on `from` in `q` could reach `to` by a move of its kind,
/// castling aside (a king's step, a knight's jump, a slider's clear line, a pawn's push or
/// diagonal step): a cheap test that every legal move passes, spared the full one (which
/// generates the moves of that kind to `to`) where it fails.
fn in_reach(q: &Chess, color: Color, role: Role, from: Square, to: Square) -> bool {
    if role == Role::Pawn {
        let push = i32::from(color.fold_wb(8i8, -8i8));
        let step = i32::from(to) - i32::from(from);
        return attacks::pawn_attacks(color, from).contains(to)
            || (from.file() == to.file() && (step == push || step == 2 * push));
    }
    attacks::attacks(from, role.of(color), q.board().occupied()).contains(to)
}

/// The kept children's signatures bucketed by their top bits ([`BUCKET_BITS`]): bucket `b`
/// holds `keys[starts[b]..starts[b + 1]]`, each with its child's index, square and role.
struct Signatures<'a> {
    starts: &'a [u32],
    keys: &'a [u64],
    payload: &'a [(u32, Square, Role)],
}

/// What one range of parents found: per kept child, its parents among the range that lead to
/// it, and whether its own parent (its witness's) was one of them.
struct Led {
    parents_of: Vec<u32>,
    own_found: Vec<bool>,
}

impl Led {
    /// Nothing found yet, for `children` kept children.
    fn new(children: usize) -> Led {
        Led {
            parents_of: vec![0; children],
            own_found: vec![false; children],
        }
    }

    /// Adds what another range found.
    fn add(&mut self, other: &Led) {
        for (a, b) in self.parents_of.iter_mut().zip(&other.parents_of) {
            *a += b;
        }
        for (a, b) in self.own_found.iter_mut().zip(&other.own_found) {
            *a |= b;
        }
    }

    /// Counts, for the held parents `parents[range]`, every kept child (`items`, witness
    /// `nodes`) each leads to. A candidate (a parent whose enemy men but one are a child's, the
    /// one able to move there) is checked by playing its move, or where the turn heard more
    /// than the move by expanding its turn (once per parent).
    #[allow(clippy::too_many_arguments)]
    fn count(
        &mut self,
        spread: &Spread<'_>,
        enemy: Color,
        parents: &[Hypothesis],
        range: Range<usize>,
        items: &[Hypothesis],
        nodes: &[Node],
        table: &Signatures<'_>,
    ) {
        let bucket = |s: u64| (s >> (64 - BUCKET_BITS)) as usize;
        let fifty = spread.fifty;
        let heard_more = spread.events.len() > 1;
        let (mut sigs, mut next_sigs) = (Vec::new(), Vec::new());
        // The children of the parent being checked, where its turn is expanded whole.
        let mut expansion: Vec<Chess> = Vec::new();
        let mut opponent = OpponentScratch::default();
        let end = range.end.min(parents.len());
        if let Some(first) = parents.get(range.start).filter(|_| range.start < end) {
            signatures(&first.pos, enemy, &mut next_sigs);
        }
        // The next parent's buckets are prefetched while this one's are scanned.
        for i in range.start..end {
            std::mem::swap(&mut sigs, &mut next_sigs);
            if i + 1 < end
                && let Some(next) = parents.get(i + 1)
            {
                signatures(&next.pos, enemy, &mut next_sigs);
                for &(s, _, _) in &next_sigs {
                    prefetch(table.keys, table.starts[bucket(s)] as usize);
                }
            }
            let q = &parents[i];
            let mut expanded = false;
            for &(s, from, role) in &sigs {
                let b = bucket(s);
                let (lo, hi) = (table.starts[b] as usize, table.starts[b + 1] as usize);
                for at in lo..hi {
                    if table.keys[at] != s {
                        continue;
                    }
                    let (j, to, to_role) = table.payload[at];
                    if !could_move(role, from, to_role, to) {
                        continue;
                    }
                    let child = &items[j as usize];
                    let leads = if heard_more {
                        if !expanded {
                            expanded = true;
                            expansion.clear();
                            spread.children(
                                q,
                                &mut opponent,
                                &mut |_| true,
                                &mut |_| true,
                                &mut |ch| expansion.push(ch.pos),
                            );
                        }
                        expansion.iter().any(|f| same(f, &child.pos, fifty))
                    } else {
                        let m = move_in(&q.pos, role, from, to, to_role);
                        in_reach(&q.pos, enemy, role, from, to) && q.pos.is_legal(m) && {
                            let mut after = q.pos.clone();
                            after.play_unchecked(m);
                            same(&after, &child.pos, fifty)
                                && (!spread.threefold || child.pos.halfmoves() < 8 || {
                                    // The repetition count through this parent, as its
                                    // expansion checks it.
                                    let before = zobrist(&q.pos);
                                    let zeroing = q.pos.halfmoves() == 0;
                                    spread.repetition_agrees(
                                        q,
                                        before,
                                        zeroing,
                                        &child.pos,
                                        zobrist(&child.pos),
                                    )
                                })
                        }
                    };
                    if leads {
                        self.parents_of[j as usize] += 1;
                        if nodes[j as usize].parent == q.node {
                            self.own_found[j as usize] = true;
                        }
                    }
                }
            }
        }
    }
}

/// The kept children's signatures (see [`signatures`]) bucketed by their top bits, each bucket
/// in the children's order: the bucket directory (`starts`, `2^BUCKET_BITS + 1` offsets), the
/// signatures and, beside each, its child's index, square and role.
///
/// A counting sort: one pass counts, one places. On one thread the signatures are computed in
/// each pass (a third array cost what it saved); on several, each thread computes those of a
/// consecutive range of children once, and the calling thread counts and places them in
/// order: the same table.
#[allow(clippy::type_complexity)]
fn bucket_children(
    items: &[Hypothesis],
    enemy: Color,
    threads: usize,
) -> (Vec<u32>, Vec<u64>, Vec<(u32, Square, Role)>) {
    let bucket = |s: u64| (s >> (64 - BUCKET_BITS)) as usize;
    let mut starts = vec![0u32; (1 << BUCKET_BITS) + 1];
    let mut sigs = Vec::new();
    let parts = (threads > 1).then(|| {
        map_ranges(items.len(), threads, |range| {
            let mut out = Vec::with_capacity(range.len() * 16);
            let mut sigs = Vec::new();
            for j in range {
                signatures(&items[j].pos, enemy, &mut sigs);
                out.extend(sigs.iter().map(|&(s, sq, role)| (s, j as u32, sq, role)));
            }
            out
        })
    });
    if let Some(parts) = &parts {
        for &(s, _, _, _) in parts.iter().flatten() {
            starts[bucket(s) + 1] += 1;
        }
    } else {
        for h in items {
            signatures(&h.pos, enemy, &mut sigs);
            for &(s, _, _) in &sigs {
                starts[bucket(s) + 1] += 1;
            }
        }
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let total = starts[1 << BUCKET_BITS] as usize;
    let mut fill = starts.clone();
    let mut keys = vec![0u64; total];
    let mut payload = vec![(0u32, Square::A1, Role::Pawn); total];
    let mut place = |s: u64, j: u32, sq: Square, role: Role| {
        let b = bucket(s);
        let at = fill[b] as usize;
        fill[b] += 1;
        if let (Some(k), Some(p)) = (keys.get_mut(at), payload.get_mut(at)) {
            *k = s;
            *p = (j, sq, role);
        }
    };
    if let Some(parts) = &parts {
        for &(s, j, sq, role) in parts.iter().flatten() {
            place(s, j, sq, role);
        }
    } else {
        for (j, h) in items.iter().enumerate() {
            signatures(&h.pos, enemy, &mut sigs);
            for &(s, sq, role) in &sigs {
                place(s, j as u32, sq, role);
            }
        }
    }
    (starts, keys, payload)
}

/// Keeps each of the turn's kept children (`items`, with their witness `nodes`) with probability
/// `(expanded / n) · edge` over the chance that any of its parents among the held `parents`
/// (`n` of them, the first `expanded` expanded, each of an expanded parent's moves drawn with
/// chance `edge`: 1 for whole parents, `belief/every_parent.rs`) offered it. `enemy` is the
/// side that moved. The parents are checked over `threads` threads; what is kept does not
/// depend on it.
#[allow(clippy::too_many_arguments)]
pub(super) fn thin_by_parents(
    spread: &Spread<'_>,
    enemy: Color,
    parents: &[Hypothesis],
    expanded: usize,
    edge: f64,
    items: &mut Vec<Hypothesis>,
    nodes: &mut Vec<Node>,
    rng: &mut Xoshiro256PlusPlus,
    threads: usize,
) {
    thin_inner(
        spread, enemy, parents, expanded, edge, items, nodes, rng, true, threads,
    );
}

/// EXPERIMENT: keeps each kept child with `s / (1 − none_offered)`, `s` the share `held / n`
/// of `pstar` (the consistent parents descending from the held grandparents) held.
#[allow(clippy::too_many_arguments)]
pub(super) fn thin_by_pstar(
    spread: &Spread<'_>,
    enemy: Color,
    pstar: &[Hypothesis],
    held: usize,
    items: &mut Vec<Hypothesis>,
    nodes: &mut Vec<Node>,
    rng: &mut Xoshiro256PlusPlus,
    threads: usize,
) {
    let held = held.min(pstar.len());
    thin_inner(
        spread, enemy, pstar, held, 1.0, items, nodes, rng, false, threads,
    );
}

#[allow(clippy::too_many_arguments)]
fn thin_inner(
    spread: &Spread<'_>,
    enemy: Color,
    parents: &[Hypothesis],
    expanded: usize,
    edge: f64,
    items: &mut Vec<Hypothesis>,
    nodes: &mut Vec<Node>,
    rng: &mut Xoshiro256PlusPlus,
    own: bool,
    threads: usize,
) {
    let n = parents.len();
    if expanded == 0 || (expanded >= n && edge >= 1.0) || items.is_empty() {
        return;
    }
    let (starts, keys, payload) = bucket_children(items, enemy, threads);
    // Every held parent whose enemy men, but the mover, are those of a kept child, checked as
    // it is found (a full expansion at most once per parent). The parents are split into
    // consecutive ranges over the threads; each range counts its parents of every child apart,
    // and the counts are summed: the same whatever the split.
    let table = Signatures {
        starts: &starts,
        keys: &keys,
        payload: &payload,
    };
    let mut parts = map_ranges(n, threads, |range| {
        let mut led = Led::new(items.len());
        led.count(spread, enemy, parents, range, items, nodes, &table);
        led
    })
    .into_iter();
    let mut led = parts.next().unwrap_or_else(|| Led::new(items.len()));
    for part in parts {
        led.add(&part);
    }
    let Led {
        parents_of,
        own_found,
    } = led;
    // The chance that none of `k` parents offered the child.
    let share = expanded as f64 / n as f64 * edge;
    let mut keep = Vec::with_capacity(items.len());
    for j in 0..items.len() {
        let k = if own {
            parents_of[j] + u32::from(!own_found[j])
        } else {
            parents_of[j]
        };
        let stays = k <= 1 || {
            let w = share / (1.0 - none_offered(n, expanded, edge, k)).max(share);
            rng.random_range(0.0..1.0) < w
        };
        keep.push(stays);
    }
    let mut flags = keep.iter();
    items.retain(|_| flags.next().copied().unwrap_or(true));
    let mut flags = keep.iter();
    nodes.retain(|_| flags.next().copied().unwrap_or(true));
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use shakmaty::{Chess, Move, Position, Square};

    use super::in_reach;

    /// Over random games: every legal move but castling is in reach of its man, and most
    /// squares are not (the test spares the full one there).
    #[test]
    fn every_legal_move_is_in_reach_and_most_squares_are_not() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(30);
        let (mut legal, mut out_of_reach) = (0u32, 0u32);
        for _ in 0..60 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let color = pos.turn();
                for m in &moves {
                    let Some(from) = m.from() else { continue };
                    if !matches!(m, Move::Castle { .. }) {
                        assert!(in_reach(&pos, color, m.role(), from, m.to()), "{m:?}");
                        legal += 1;
                    }
                }
                for from in pos.us() {
                    let Some(role) = pos.board().role_at(from) else {
                        continue;
                    };
                    out_of_reach += Square::ALL
                        .into_iter()
                        .filter(|&to| !in_reach(&pos, color, role, from, to))
                        .count() as u32;
                }
                let m = moves[rng.random_range(0..moves.len())];
                pos.play_unchecked(m);
            }
        }
        assert!(
            legal > 50_000 && out_of_reach > 100_000,
            "{legal} legal, {out_of_reach} out of reach"
        );
    }
}
