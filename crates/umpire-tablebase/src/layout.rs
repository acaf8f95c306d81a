//! [`Layout`]: where White's men stand in KRK, and the black-king squares consistent with it.

use std::fmt;

use shakmaty::{Bitboard, Square, attacks};
use umpire_rules::Attempt;

use crate::Symmetry;

/// The White men of a KRK position: king and rook. Positions in the table are always White to
/// move; Black's turn is the step between two White positions (see [`crate::Split::spread`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Layout {
    /// The white king's square.
    pub king: Square,
    /// The white rook's square.
    pub rook: Square,
}

/// A layout that cannot exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the white king and the white rook cannot both stand on {0}")]
pub struct LayoutError(pub Square);

impl Layout {
    /// A layout; fails if both men are on one square.
    pub fn new(king: Square, rook: Square) -> Result<Layout, LayoutError> {
        if king == rook {
            return Err(LayoutError(king));
        }
        Ok(Layout { king, rook })
    }

    /// The squares the rook attacks, the white king blocking and the black king (wherever it
    /// is) not: a black king on the line is attacked, and so is the square behind it.
    #[inline]
    pub fn rook_reach(self) -> u64 {
        attacks::rook_attacks(self.rook, Bitboard::from_square(self.king)).0
    }

    /// The squares the black king may stand on with White to move: not on a white man, not
    /// next to the white king, not attacked by the rook (Black cannot be in check with White to
    /// move). Also the squares the black king may move to, with this layout, on its turn.
    #[inline]
    pub fn domain(self) -> u64 {
        !(Bitboard::from_square(self.king).0
            | attacks::king_attacks(self.king).0
            | Bitboard::from_square(self.rook).0
            | self.rook_reach())
    }

    /// Every attempt White can make on its own board: king steps not onto the rook, and rook
    /// moves along its lines up to (not onto) the white king. Whether one is legal depends on
    /// where the black king is.
    pub fn attempts(self) -> Vec<Attempt> {
        let king = attacks::king_attacks(self.king).without(self.rook);
        let rook = Bitboard(self.rook_reach()).without(self.king);
        king.into_iter()
            .map(|to| Attempt::new(self.king, to))
            .chain(rook.into_iter().map(|to| Attempt::new(self.rook, to)))
            .collect()
    }

    /// The layout after a legal attempt (a move of the king or the rook).
    pub fn after(self, attempt: Attempt) -> Layout {
        if attempt.from == self.king {
            Layout {
                king: attempt.to,
                rook: self.rook,
            }
        } else {
            Layout {
                king: self.king,
                rook: attempt.to,
            }
        }
    }

    /// The image of this layout under a symmetry.
    pub const fn transformed(self, s: Symmetry) -> Layout {
        Layout {
            king: s.square(self.king),
            rook: s.square(self.rook),
        }
    }

    /// The representative of this layout's symmetry class (the image with the smallest
    /// (king, rook) square indices) and the symmetry that maps this layout onto it.
    pub fn canonical(self) -> (Layout, Symmetry) {
        let mut best = (self, Symmetry::Identity);
        for s in Symmetry::ALL {
            let image = self.transformed(s);
            if (image.king, image.rook) < (best.0.king, best.0.rook) {
                best = (image, s);
            }
        }
        best
    }

    /// A FEN of this layout with the black king on `black_king`, White to move.
    pub fn fen(self, black_king: Square) -> String {
        let mut fen = String::with_capacity(40);
        for rank in (0..8u32).rev() {
            let mut empty = 0;
            for file in 0..8u32 {
                let sq = Square::new(rank * 8 + file);
                let piece = if sq == self.king {
                    Some('K')
                } else if sq == self.rook {
                    Some('R')
                } else if sq == black_king {
                    Some('k')
                } else {
                    None
                };
                match piece {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        fen
    }
}

impl fmt::Display for Layout {
    /// `Ka1 Rb2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "K{} R{}", self.king, self.rook)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_excludes_king_zone_rook_and_its_lines() {
        let l = Layout::new(Square::G6, Square::A1).unwrap();
        let d = Bitboard(l.domain());
        assert!(d.contains(Square::H8));
        assert!(!d.contains(Square::H7)); // next to the king
        assert!(!d.contains(Square::A8)); // on the rook's file
        assert!(!d.contains(Square::H1)); // on the rook's rank
        assert!(!d.contains(Square::A1));
        // Behind the king on the rook's line: the king blocks the rook.
        let l = Layout::new(Square::C1, Square::A1).unwrap();
        assert!(Bitboard(l.domain()).contains(Square::H1));
    }

    #[test]
    fn canonical_is_a_class_invariant() {
        let l = Layout::new(Square::G6, Square::B2).unwrap();
        let (c, s) = l.canonical();
        assert_eq!(l.transformed(s), c);
        for t in Symmetry::ALL {
            assert_eq!(l.transformed(t).canonical().0, c);
        }
        assert!(Layout::new(Square::E4, Square::E4).is_err());
        assert_eq!(l.fen(Square::H8), "7k/8/6K1/8/8/8/1R6/8 w - - 0 1");
    }
}
