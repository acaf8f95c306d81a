//! Mate and stalemate detection over the worlds the player cannot rule out: where every enemy
//! man but the king is known, one position per possible king square (all of them when only the
//! king is left); otherwise a sample of the positions held by the player's [`Belief`]. For
//! each attempt, the share of those worlds in which it is legal and mates, and in which it
//! leaves the enemy stalemated (a won game thrown away).

use rand::Rng;
use umpire_belief::{Belief, Metaposition};
use umpire_rules::Attempt;
use umpire_rules::shakmaty::{
    Board, CastlingMode, Chess, FromSetup, Move, Position, Role, Setup, Square,
};

/// The most possible king squares tried while the enemy has other men (all of them when the
/// king is alone: then every other square is known to be empty).
const MAX_KING_SQUARES: usize = 16;

/// The most belief positions sampled as worlds.
pub(crate) const BELIEF_WORLDS: usize = 48;

/// The positions the metaposition allows when only the enemy king's square is uncertain (at
/// most [`MAX_KING_SQUARES`] of them unless the king is alone), with the player to move.
/// Empty otherwise.
pub(crate) fn king_worlds(meta: &Metaposition, out: &mut Vec<Chess>) {
    out.clear();
    let kings = meta.possible(5);
    if meta.men().1 > 1 && kings.count() > MAX_KING_SQUARES {
        return;
    }
    let mut board = meta.own().board().clone();
    let enemy = meta.enemy();
    for sq in Square::ALL {
        if kings.contains(sq) {
            continue;
        }
        let bits = meta.bits(sq);
        if bits.count_ones() != 1 {
            return;
        }
        if bits & umpire_belief::EMPTY == 0 {
            let role = Role::ALL[bits.trailing_zeros() as usize];
            board.set_piece_at(sq, role.of(enemy));
        }
    }
    for k in kings {
        if meta.bits(k) & !(1 << 5 | umpire_belief::EMPTY) != 0 {
            out.clear();
            return;
        }
        let mut b: Board = board.clone();
        b.set_piece_at(k, Role::King.of(enemy));
        let setup = Setup {
            board: b,
            turn: !enemy,
            ..Setup::empty()
        };
        if let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) {
            out.push(pos);
        }
    }
}

/// Up to [`BELIEF_WORLDS`] positions held by `belief` with the player to move, drawn with
/// `rng` (appended to `out`).
pub(crate) fn belief_worlds<R: Rng>(belief: &Belief, rng: &mut R, out: &mut Vec<Chess>) {
    let side = belief.side();
    for i in belief.sample_indices(BELIEF_WORLDS, rng) {
        if let Some(pos) = belief.position(i)
            && pos.turn() == side
        {
            out.push(pos.clone());
        }
    }
}

/// Whether the legal move `m` is what `attempt` asks for (an attempt without a promotion piece
/// promotes to a queen).
pub(crate) fn answers_to(m: &Move, attempt: Attempt) -> bool {
    Attempt::from_move(m).is_some_and(|a| {
        a.from == attempt.from
            && a.to == attempt.to
            && (a.promotion == attempt.promotion
                || (attempt.promotion.is_none() && a.promotion == Some(Role::Queen)))
    })
}

/// For each of `attempts`, the shares of `worlds` in which it is legal and mates, and in which
/// it stalemates, written to `out` (cleared first). Each world's legal moves are generated once.
pub(crate) fn mate_shares(worlds: &[Chess], attempts: &[Attempt], out: &mut Vec<(f32, f32)>) {
    out.clear();
    out.resize(attempts.len(), (0.0, 0.0));
    if worlds.is_empty() {
        return;
    }
    let unit = 1.0 / worlds.len() as f32;
    for pos in worlds {
        for m in pos.legal_moves() {
            let Some(i) = attempts.iter().position(|&a| answers_to(&m, a)) else {
                continue;
            };
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_checkmate() {
                out[i].0 += unit;
            } else if after.is_stalemate() {
                out[i].1 += unit;
            }
        }
    }
}
