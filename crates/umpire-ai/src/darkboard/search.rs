//! Weighted maximax over metapositions (seed 001): for each attempt, the umpire's possible
//! answers (illegal, accepted silently, a capture of a pawn or of a piece) weighted by how
//! likely the metaposition makes them; each answer's pseudo step; then the opponent's meta step
//! and, while the budget allows, our next attempt, with deeper levels discounted.

use std::time::Instant;

use umpire_belief::{EMPTY, Metaposition};
use umpire_rules::shakmaty::{Role, attacks};
use umpire_rules::{Announcement, Attempt, AttemptList, Man, Verdict};

use super::eval::evaluate;

/// Weight of the deeper level against the static value of a node.
const DISCOUNT: f32 = 0.5;
/// What an illegal attempt costs (the same player tries again, with more knowledge).
const ILLEGAL_COST: f32 = 0.05;

/// Search limits and counters.
pub(crate) struct Limits {
    pub nodes: u64,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Limits {
    pub(crate) fn out(&self) -> bool {
        self.nodes >= self.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Probability that an enemy man stands on a square with pseudopieces `bits`.
fn occupied(bits: u8) -> f32 {
    let n = bits.count_ones().max(1) as f32;
    (bits & !EMPTY).count_ones() as f32 / n
}

/// The answers to `a` with their weights, as (weight, verdict, captured man or not).
fn answers(
    meta: &Metaposition,
    a: Attempt,
    out: &mut [(f32, Verdict, Option<Option<Man>>); 4],
) -> usize {
    let board = meta.own().board();
    let Some(role) = board.role_at(a.from) else {
        return 0;
    };
    let to_bits = meta.bits(a.to) & !(1 << 5);
    let to_bits = if to_bits == 0 { EMPTY } else { to_bits };
    let p_occ = occupied(to_bits);
    let mut p_clear = 1.0f32;
    if matches!(role, Role::Bishop | Role::Rook | Role::Queen)
        || (role == Role::Pawn && a.from.file() == a.to.file())
    {
        for sq in attacks::between(a.from, a.to) {
            p_clear *= 1.0 - occupied(meta.bits(sq));
        }
    }
    let (p_illegal, p_capture) = match role {
        Role::Pawn if a.from.file() != a.to.file() => (1.0 - p_occ, p_occ),
        Role::Pawn => (1.0 - p_clear * (1.0 - p_occ), 0.0),
        Role::King if a.from.distance(a.to) == 2 => (0.5, 0.0),
        Role::King => {
            let danger = super::eval::threats(meta)[usize::from(a.to)];
            let legal = p_clear * (1.0 - danger);
            (1.0 - legal, legal * p_occ)
        }
        _ => (1.0 - p_clear, p_clear * p_occ),
    };
    let pawn_share = if to_bits & !EMPTY == 0 {
        0.0
    } else {
        (to_bits & 1).count_ones() as f32 / (to_bits & !EMPTY).count_ones() as f32
    };
    let mut n = 0;
    if p_illegal > 0.001 {
        out[n] = (p_illegal, Verdict::Illegal, None);
        n += 1;
    }
    let silent = (1.0 - p_illegal - p_capture).max(0.0);
    if silent > 0.001 {
        out[n] = (silent, Verdict::Accepted, None);
        n += 1;
    }
    if p_capture > 0.001 {
        if pawn_share > 0.0 {
            out[n] = (
                p_capture * pawn_share,
                Verdict::Accepted,
                Some(Some(Man::Pawn)),
            );
            n += 1;
        }
        if pawn_share < 1.0 {
            out[n] = (
                p_capture * (1.0 - pawn_share),
                Verdict::Accepted,
                Some(Some(Man::Piece)),
            );
            n += 1;
        }
    }
    n
}

/// The metaposition after our attempt `a` draws this answer.
fn pseudo(
    meta: &Metaposition,
    a: Attempt,
    verdict: Verdict,
    capture: Option<Option<Man>>,
) -> Metaposition {
    match capture {
        Some(man) => {
            let heard = [Announcement::Capture {
                square: a.to,
                man,
                en_passant: false,
            }];
            meta.after_attempt(a, verdict, &heard)
        }
        None => meta.after_attempt(a, verdict, &[]),
    }
}

/// The weighted value of attempt `a` from `meta`, searching `depth` more of our turns.
pub(crate) fn value_of(meta: &Metaposition, a: Attempt, depth: u32, limits: &mut Limits) -> f32 {
    let mut table = [(0.0, Verdict::Illegal, None); 4];
    let n = answers(meta, a, &mut table);
    let mut total = 0.0;
    let mut weight = 0.0;
    for &(w, verdict, capture) in &table[..n] {
        let after = pseudo(meta, a, verdict, capture);
        let v = if verdict == Verdict::Illegal {
            limits.nodes += 1;
            evaluate(&after) - ILLEGAL_COST
        } else {
            node_value(&after, depth, limits)
        };
        total += w * v;
        weight += w;
    }
    if weight == 0.0 {
        limits.nodes += 1;
        return evaluate(meta);
    }
    total / weight
}

/// The value of the metaposition after our accepted move: its static value, blended with the
/// best of our next attempts after the opponent's meta step while depth remains.
fn node_value(after: &Metaposition, depth: u32, limits: &mut Limits) -> f32 {
    limits.nodes += 1;
    let stat = evaluate(after);
    if depth == 0 || limits.out() {
        return stat;
    }
    let next = after.after_opponent_move();
    let mut options = AttemptList::new();
    next.own().attempts(false, &mut options);
    let mut best = f32::NEG_INFINITY;
    for &a in &options {
        if limits.out() {
            break;
        }
        best = best.max(value_of(&next, a, depth - 1, limits));
    }
    if best == f32::NEG_INFINITY {
        return stat;
    }
    (1.0 - DISCOUNT) * stat + DISCOUNT * best
}
