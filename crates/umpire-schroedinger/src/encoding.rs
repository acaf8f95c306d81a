//! The variables of the model and the clauses that hold from the start.
//!
//! Variable `x(c, i, n)` says "man `i` of side `c` has nature `n`". Back-rank men have one
//! variable per nature (5 × 8 per side); every pawn has one variable per promoted nature
//! (queen, rook, bishop, knight: 4 × 8 per side), used once it promotes. That is 144
//! variables in all, fixed for the whole game: moves add clauses over them and queries assume
//! literals over them, so the solver never grows.

use shakmaty::Color;

use crate::backend::{Backend, Lit};
use crate::man::ManId;
use crate::nature::Nature;

/// Number of variables.
pub const VARS: u32 = 144;

/// The variable `x(man, nature)`, or `None` when the man can never have that nature (a pawn
/// cannot be a king).
pub fn var(man: ManId, nature: Nature) -> Option<u32> {
    let c = man.color() as u32;
    let i = man.index() as u32;
    if man.is_back_rank() {
        Some(c * 40 + i * 5 + nature as u32)
    } else if nature == Nature::King {
        None
    } else {
        Some(80 + c * 32 + (i - 8) * 4 + (nature as u32 - 1))
    }
}

/// The literal "`man` has `nature`" (`None` as for [`var`]).
pub fn is(man: ManId, nature: Nature) -> Option<Lit> {
    var(man, nature).map(Lit::pos)
}

/// Adds the clauses that hold from the start: each back-rank man has exactly one nature, each
/// side has exactly 1 king, 1 queen, 2 rooks, 2 bishops and 2 knights among its back-rank men,
/// and each promoted man has exactly one of queen, rook, bishop, knight.
pub fn add_rules<B: Backend>(sat: &mut B) {
    let mut clause = Vec::with_capacity(8);
    for color in Color::ALL {
        let back: Vec<ManId> = (0..8u8).filter_map(|i| ManId::new(color, i)).collect();
        let pawns: Vec<ManId> = (8..16u8).filter_map(|i| ManId::new(color, i)).collect();
        for &man in &back {
            exactly_one(
                sat,
                &mut clause,
                Nature::ALL.iter().filter_map(|&n| is(man, n)),
            );
        }
        for &man in &pawns {
            exactly_one(
                sat,
                &mut clause,
                Nature::PROMOTED.iter().filter_map(|&n| is(man, n)),
            );
        }
        for nature in Nature::ALL {
            let lits: Vec<Lit> = back.iter().filter_map(|&m| is(m, nature)).collect();
            match nature.count() {
                1 => {
                    sat.add_clause(&lits);
                    for (a, &x) in lits.iter().enumerate() {
                        for &y in &lits[a + 1..] {
                            sat.add_clause(&[!x, !y]);
                        }
                    }
                }
                _ => {
                    // At most two: no three at once.
                    for (a, &x) in lits.iter().enumerate() {
                        for (b, &y) in lits.iter().enumerate().skip(a + 1) {
                            for &z in &lits[b + 1..] {
                                sat.add_clause(&[!x, !y, !z]);
                            }
                        }
                    }
                    // At least two: any seven of the eight hold one.
                    for skip in 0..lits.len() {
                        clause.clear();
                        clause.extend(
                            lits.iter()
                                .enumerate()
                                .filter(|&(j, _)| j != skip)
                                .map(|(_, &l)| l),
                        );
                        sat.add_clause(&clause);
                    }
                }
            }
        }
    }
}

fn exactly_one<B: Backend>(sat: &mut B, clause: &mut Vec<Lit>, lits: impl Iterator<Item = Lit>) {
    clause.clear();
    clause.extend(lits);
    sat.add_clause(clause);
    for a in 0..clause.len() {
        for b in a + 1..clause.len() {
            sat.add_clause(&[!clause[a], !clause[b]]);
        }
    }
}
