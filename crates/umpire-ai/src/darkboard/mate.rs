//! Mate detection over a metaposition: where every enemy man but the king is known and the
//! king has few possible squares, the share of those squares on which an attempt mates.

use umpire_belief::Metaposition;
use umpire_rules::Attempt;
use umpire_rules::shakmaty::{
    Board, CastlingMode, Chess, FromSetup, Move, Position, Role, Setup, Square,
};

/// The most possible king squares tried.
const MAX_KING_SQUARES: usize = 16;

/// The positions the metaposition allows when only the enemy king's square is uncertain (at
/// most [`MAX_KING_SQUARES`] of them), with the player to move. Empty otherwise.
pub(crate) fn king_worlds(meta: &Metaposition, out: &mut Vec<Chess>) {
    out.clear();
    let kings = meta.possible(5);
    if kings.count() > MAX_KING_SQUARES {
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

/// The shares of `worlds` in which `attempt` is legal and mates, and in which it stalemates.
pub(crate) fn mate_share(worlds: &[Chess], attempt: Attempt) -> (f32, f32) {
    if worlds.is_empty() {
        return (0.0, 0.0);
    }
    let mut mates = 0;
    let mut stalemates = 0;
    for pos in worlds {
        let m = pos.legal_moves().into_iter().find(|m: &Move| {
            Attempt::from_move(m).is_some_and(|a| {
                a.from == attempt.from
                    && a.to == attempt.to
                    && (a.promotion == attempt.promotion
                        || (attempt.promotion.is_none() && a.promotion == Some(Role::Queen)))
            })
        });
        if let Some(m) = m {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_checkmate() {
                mates += 1;
            } else if after.is_stalemate() {
                stalemates += 1;
            }
        }
    }
    let n = worlds.len() as f32;
    (mates as f32 / n, stalemates as f32 / n)
}
