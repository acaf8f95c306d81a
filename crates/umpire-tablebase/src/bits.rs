//! Whole-set bit operations on 64-square sets: the black king's spread, computed for every
//! square of a set at once with shifts.

use shakmaty::Bitboard;

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// The union of the king moves from every square of `set`: every square a king standing on
/// some square of `set` attacks. A square of `set` itself is included only when it is next to
/// another square of `set`.
///
/// Equal to the union of [`shakmaty::attacks::king_attacks`] over `set`, computed with eight
/// shifts instead of a loop.
#[inline]
pub fn king_spread(set: u64) -> u64 {
    let east = (set << 1) & NOT_FILE_A;
    let west = (set >> 1) & NOT_FILE_H;
    let row = set | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// The squares of `set`, in increasing order, written as a list like `g8 h8`.
pub fn squares_text(set: u64) -> String {
    Bitboard(set)
        .into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Square, attacks};

    #[test]
    fn spread_matches_king_attacks() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            // xorshift: a deterministic spread of test sets, sparse and dense.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = x & (x >> 3) & (x >> 11);
            let expected = Bitboard(set)
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq));
            assert_eq!(king_spread(set), expected.0, "set {set:#x}");
        }
        for sq in Square::ALL {
            assert_eq!(
                king_spread(Bitboard::from_square(sq).0),
                attacks::king_attacks(sq).0
            );
        }
    }
}
