//! B1–B3: which own-board rule rules an attempt out.

use umpire_rules::shakmaty::{Bitboard, Rank, Role, attacks};
use umpire_rules::{Attempt, OwnBoard};

use super::FilterId;

/// The own-board rule an attempt breaks, or `None` if the attempt is possible on the own
/// board: B3 for a king's two-square move along its home rank (castling) that the own board
/// rules out, B1 when no own man stands on `from`, the man cannot move that way on an empty
/// board or the promotion piece is wrong, B2 when it could but an own man is in the way or
/// on the destination.
pub(crate) fn own_board_rule(own: &OwnBoard, a: Attempt, queen_only: bool) -> Option<FilterId> {
    if own.is_possible(a, queen_only) {
        return None;
    }
    let side = own.side();
    let Some(role) = own.board().role_at(a.from) else {
        return Some(FilterId::B1);
    };
    let home = side.fold_wb(Rank::First, Rank::Eighth);
    if role == Role::King
        && a.from.rank() == home
        && a.to.rank() == home
        && a.from.distance(a.to) == 2
        && a.promotion.is_none()
    {
        return Some(FilterId::B3);
    }
    let pattern = match role {
        Role::Pawn => {
            let mut bb = attacks::pawn_attacks(side, a.from);
            let step = side.fold_wb(8, -8);
            if let Some(one) = a.from.offset(step) {
                bb.add(one);
                if a.from.rank() == side.fold_wb(Rank::Second, Rank::Seventh)
                    && let Some(two) = one.offset(step)
                {
                    bb.add(two);
                }
            }
            bb
        }
        role => attacks::attacks(a.from, role.of(side), Bitboard::EMPTY),
    };
    let promotes = role == Role::Pawn && a.to.rank() == side.fold_wb(Rank::Eighth, Rank::First);
    let right_piece = match a.promotion {
        None => !promotes,
        Some(Role::Queen) => promotes,
        Some(Role::Rook | Role::Bishop | Role::Knight) => promotes && !queen_only,
        Some(Role::Pawn | Role::King) => false,
    };
    if !pattern.contains(a.to) || !right_piece {
        Some(FilterId::B1)
    } else {
        Some(FilterId::B2)
    }
}
