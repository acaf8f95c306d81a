//! Legality of one attempt and existence of a legal move, answered from shakmaty's attack
//! tables for the common cases and by shakmaty's own generator for the rest.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square, attacks};

/// Whether `m`, a move the mover's own board allows (own man on `from`, movement pattern,
/// no own man in the way or on `to`), is legal.
///
/// Answered from shakmaty's attack tables exactly as shakmaty's own generator filters its
/// moves: a king step is legal if no enemy man attacks the destination once the king has left
/// its square; another man's move is legal if it is pseudo-legal (a slider's path is clear of
/// enemy men, a pawn pushes onto empty squares and captures onto an enemy man), the man is not
/// pinned or stays on the line of its pin, and, in check, it captures the single checker or
/// blocks its line. Castling and en passant go to shakmaty's `is_legal`. Property tests compare
/// the two on random games.
pub(crate) fn is_legal(pos: &Chess, checkers: Bitboard, m: Move) -> bool {
    let (role, from, to) = match m {
        Move::Normal { role, from, to, .. } => (role, from, to),
        Move::EnPassant { to, .. } if pos.maybe_ep_square() != Some(to) => return false,
        _ => return pos.is_legal(m),
    };
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    if role == Role::King {
        return board
            .attacks_to(to, !turn, occupied.without(from))
            .is_empty();
    }
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    if let Some(checker) = checkers.single_square() {
        if !(attacks::between(king, checker).with(checker)).contains(to) {
            return false;
        }
    } else if checkers.any() {
        return false;
    }
    let them = pos.them();
    let pseudo_legal = match role {
        Role::Pawn => {
            if from.file() == to.file() {
                (attacks::between(from, to) | Bitboard::from_square(to)).is_disjoint(occupied)
            } else {
                them.contains(to)
            }
        }
        Role::Knight => true,
        _ => attacks::attacks(from, role.of(turn), occupied).contains(to),
    };
    pseudo_legal && (attacks::aligned(from, to, king) || !is_pinned(board, turn, king, from))
}

/// Whether the man on `from` is the only man between its king and an enemy slider that
/// moves along that line.
fn is_pinned(board: &shakmaty::Board, turn: Color, king: Square, from: Square) -> bool {
    let line = attacks::ray(king, from);
    if line.is_empty() {
        return false;
    }
    let sliders = if king.rank() == from.rank() || king.file() == from.file() {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let occupied = board.occupied();
    (sliders & board.by_color(!turn) & line)
        .into_iter()
        .any(|sniper| {
            let between = attacks::between(king, sniper);
            between.contains(from) && (between & occupied) == Bitboard::from_square(from)
        })
}

/// Whether the side to move, checked by `checkers`, has a legal move.
///
/// A quick answer first, for the common case, then shakmaty's full generation: when the king
/// is not in check, a pseudo-legal move of a man that is not pinned is legal (en passant
/// aside, which the quick answer never uses); a king step to a square no enemy man attacks,
/// the king being removed from the board, is always legal.
pub(crate) fn has_legal_move(pos: &Chess, checkers: Bitboard) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    if checkers.is_empty() {
        let them = pos.them();
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if between.count() == 1 {
                pinned |= between & us;
            }
        }
        let free = us & !pinned & !board.kings();
        for from in free {
            let Some(piece) = board.piece_at(from) else {
                continue;
            };
            let reach = if piece.role == Role::Pawn {
                let push = from
                    .offset(turn.fold_wb(8, -8))
                    .map_or(Bitboard::EMPTY, Bitboard::from_square)
                    & !occupied;
                push | (attacks::pawn_attacks(turn, from) & them)
            } else {
                attacks::attacks(from, piece, occupied) & !us
            };
            if reach.any() {
                return true;
            }
        }
    }
    for to in attacks::king_attacks(king) & !us {
        if board
            .attacks_to(to, !turn, occupied.without(king))
            .is_empty()
        {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}
