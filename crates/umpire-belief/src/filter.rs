//! The exact guided filter: an attempt is hidden if and only if it is illegal in every position
//! the player cannot rule out.

use shakmaty::{Position, Role};
use umpire_rules::Attempt;

use crate::Belief;

/// Whether the filter built on a belief is exact or a heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FilterKind {
    /// Built on the exact set: hides an attempt iff it is illegal in every consistent position.
    /// Sound: never hides a move legal in the true position.
    Exact,
    /// Built on a sample of the consistent positions: it may hide a move that is legal in the
    /// true position (heuristic; `docs/BENCHMARKS.md` gives the measured false-hide rate).
    Sampled,
}

/// The attempts legal in at least one held position.
#[derive(Clone, Debug)]
pub struct LegalUnion {
    bits: Vec<u64>,
    kind: FilterKind,
    positions: usize,
}

/// Slot of an attempt: from, to, and the promotion piece (none, knight, bishop, rook, queen).
fn slot(a: Attempt) -> usize {
    let promo = match a.promotion {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    (usize::from(a.from) * 64 + usize::from(a.to)) * 5 + promo
}

const SLOTS: usize = 64 * 64 * 5;

impl LegalUnion {
    /// The union over every held position (over the whole exact set while the belief is exact).
    pub fn of(belief: &Belief) -> LegalUnion {
        LegalUnion::covering(belief, &[])
    }

    /// The union over the held positions, stopping early once every attempt of `wanted` is
    /// known to be legal somewhere (an empty `wanted` means: go through every position).
    /// [`LegalUnion::may_be_legal`] is exact for the attempts of `wanted`.
    pub fn covering(belief: &Belief, wanted: &[Attempt]) -> LegalUnion {
        let mut union = LegalUnion {
            bits: vec![0; SLOTS.div_ceil(64)],
            kind: if belief.is_exact() {
                FilterKind::Exact
            } else {
                FilterKind::Sampled
            },
            positions: 0,
        };
        let mut missing: Vec<Attempt> = wanted.to_vec();
        for pos in belief.positions() {
            union.positions += 1;
            for m in pos.legal_moves() {
                if let Some(a) = Attempt::from_move(&m) {
                    let s = slot(a);
                    union.bits[s / 64] |= 1 << (s % 64);
                }
            }
            if !wanted.is_empty() {
                missing.retain(|&a| !union.may_be_legal(a));
                if missing.is_empty() {
                    break;
                }
            }
        }
        union
    }

    /// Whether `attempt` is legal in some held position. When the belief is exact: false
    /// exactly when the attempt is illegal in every position consistent with what the player
    /// heard, so hiding it never hides a legal move.
    pub fn may_be_legal(&self, attempt: Attempt) -> bool {
        let s = slot(attempt);
        self.bits[s / 64] & (1 << (s % 64)) != 0
    }

    /// Whether the filter is exact or sampled.
    pub fn kind(&self) -> FilterKind {
        self.kind
    }

    /// Positions looked at.
    pub fn positions(&self) -> usize {
        self.positions
    }
}
