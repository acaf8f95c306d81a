//! Which of the player's men could be pinned, judged from the own board alone.

use umpire_rules::shakmaty::{Bitboard, Square, attacks};

/// The square next to `from` on the line from `king` through `from`, on the far side from
/// the king; `None` if `from` is not aligned with the king or stands on the edge.
fn next_beyond(king: Square, from: Square) -> Option<Square> {
    if attacks::ray(king, from).is_empty() {
        return None;
    }
    let df = (from.file().to_u32() as i32 - king.file().to_u32() as i32).signum();
    let dr = (from.rank().to_u32() as i32 - king.rank().to_u32() as i32).signum();
    let file = from.file().offset(df)?;
    let rank = from.rank().offset(dr)?;
    Some(Square::from_coords(file, rank))
}

/// Whether the own man on `from` could be pinned to its king on `king` by an enemy slider the
/// player cannot see: it stands on a line from the king with no own man between them, and at
/// least one square lies beyond it on that line before an own man or the edge (room for the
/// pinner). `own` is the player's men.
pub(crate) fn pinnable(own: Bitboard, king: Square, from: Square) -> bool {
    if from == king || (attacks::between(king, from) & own).any() {
        return false;
    }
    next_beyond(king, from).is_some_and(|beyond| !own.contains(beyond))
}

/// The squares beyond `from` on the line from `king` through it, up to (not including) the
/// first own man or the edge: where a pinner of the man on `from` can stand. Empty if `from`
/// is not aligned with the king.
pub(crate) fn beyond_visible(own: Bitboard, king: Square, from: Square) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let mut at = from;
    while let Some(next) = next_beyond(king, at) {
        if own.contains(next) {
            break;
        }
        out.add(next);
        at = next;
    }
    out
}

/// Whether the move `from`-`to` of an own man other than the king cannot be illegal because
/// of a pin: the man cannot be pinned, or the move stays on the line through its king.
pub(crate) fn pin_free(own: Bitboard, king: Square, from: Square, to: Square) -> bool {
    !pinnable(own, king, from) || attacks::aligned(king, from, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinnable_needs_alignment_no_own_man_between_and_room_beyond() {
        let own = Bitboard::from_square(Square::E1)
            | Bitboard::from_square(Square::E2)
            | Bitboard::from_square(Square::D2)
            | Bitboard::from_square(Square::F2)
            | Bitboard::from_square(Square::E3);
        // e2 is covered by e3 behind it: nothing can pin it along the file.
        assert!(!pinnable(own, Square::E1, Square::E2));
        // e3 stands behind e2: shielded.
        assert!(!pinnable(own, Square::E1, Square::E3));
        // d2 on the diagonal e1-a5, with c3 empty beyond: pinnable.
        assert!(pinnable(own, Square::E1, Square::D2));
        // Not aligned.
        assert!(!pinnable(own, Square::E1, Square::D3));
        // A man on the edge has no room beyond.
        assert!(!pinnable(own, Square::E1, Square::A5));
        assert!(pin_free(own, Square::E1, Square::D2, Square::C3));
        assert!(!pin_free(own, Square::E1, Square::D2, Square::D3));
        // Beyond d2 from e1: c3, b4, a5; beyond e2 nothing (e3 is own).
        assert_eq!(
            beyond_visible(own, Square::E1, Square::D2),
            Bitboard::from_iter([Square::C3, Square::B4, Square::A5])
        );
        assert!(beyond_visible(own, Square::E1, Square::E2).is_empty());
        assert!(beyond_visible(own, Square::E1, Square::D3).is_empty());
    }
}
