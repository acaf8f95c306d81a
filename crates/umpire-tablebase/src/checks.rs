//! Check kinds as whole-square sets: for a checker on square `c`, the black-king squares that a
//! check from `c` would be announced as each [`CheckKind`], so that a set of checked squares is
//! split by kind with one AND per kind instead of a per-square classification.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Square, attacks};
use umpire_rules::CheckKind;

/// `TABLE[k][c]`: the squares a king may stand on to be checked from `c` with kind number `k`
/// (the index of the kind in [`CheckKind::ALL`]), as [`CheckKind::classify`] says.
fn table() -> &'static [[u64; 64]; 5] {
    static TABLE: OnceLock<[[u64; 64]; 5]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0u64; 64]; 5];
        for c in Square::ALL {
            let lines = attacks::queen_attacks(c, Bitboard::EMPTY) | attacks::knight_attacks(c);
            for king in lines {
                let kind = CheckKind::classify(c, king);
                t[kind_index(kind)][usize::from(c)] |= Bitboard::from_square(king).0;
            }
        }
        t
    })
}

/// The position of `kind` in [`CheckKind::ALL`].
pub(crate) const fn kind_index(kind: CheckKind) -> usize {
    match kind {
        CheckKind::Rank => 0,
        CheckKind::File => 1,
        CheckKind::LongDiagonal => 2,
        CheckKind::ShortDiagonal => 3,
        CheckKind::Knight => 4,
    }
}

/// The king squares that a check from `checker` would be announced as `kind` for (only the
/// squares on the corresponding line or knight jump; whether the checker really attacks them
/// is for the caller to intersect).
#[inline]
pub(crate) fn kind_squares(kind: CheckKind, checker: Square) -> u64 {
    table()[kind_index(kind)][usize::from(checker)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_agree_with_classify() {
        for c in Square::ALL {
            for king in Square::ALL {
                let hits: Vec<CheckKind> = CheckKind::ALL
                    .into_iter()
                    .filter(|&k| Bitboard(kind_squares(k, c)).contains(king))
                    .collect();
                let aligned = (attacks::queen_attacks(c, Bitboard::EMPTY)
                    | attacks::knight_attacks(c))
                .contains(king);
                if aligned {
                    assert_eq!(hits, vec![CheckKind::classify(c, king)], "{c} {king}");
                } else {
                    assert!(hits.is_empty(), "{c} {king}");
                }
            }
        }
    }
}
