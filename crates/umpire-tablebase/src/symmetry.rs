//! The eight symmetries of the board (the dihedral group of the square). Without pawns and
//! castling, a Kriegspiel ending looks the same after any of them.

use shakmaty::{Bitboard, Square};

/// One of the eight board symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// Mirrors files (a ↔ h).
    FlipHorizontal,
    /// Mirrors ranks (1 ↔ 8).
    FlipVertical,
    /// Mirrors in the a1–h8 diagonal.
    FlipDiagonal,
    /// Mirrors in the a8–h1 diagonal.
    FlipAntiDiagonal,
    /// Rotates by 90 degrees clockwise.
    Rotate90,
    /// Rotates by 180 degrees.
    Rotate180,
    /// Rotates by 270 degrees clockwise.
    Rotate270,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a square.
    pub const fn square(self, sq: Square) -> Square {
        match self {
            Symmetry::Identity => sq,
            Symmetry::FlipHorizontal => sq.flip_horizontal(),
            Symmetry::FlipVertical => sq.flip_vertical(),
            Symmetry::FlipDiagonal => sq.flip_diagonal(),
            Symmetry::FlipAntiDiagonal => sq.flip_anti_diagonal(),
            Symmetry::Rotate90 => sq.rotate_90(),
            Symmetry::Rotate180 => sq.rotate_180(),
            Symmetry::Rotate270 => sq.rotate_270(),
        }
    }

    /// The image of a set of squares.
    #[inline]
    pub const fn set(self, set: u64) -> u64 {
        let b = Bitboard(set);
        match self {
            Symmetry::Identity => set,
            Symmetry::FlipHorizontal => b.flip_horizontal().0,
            Symmetry::FlipVertical => b.flip_vertical().0,
            Symmetry::FlipDiagonal => b.flip_diagonal().0,
            Symmetry::FlipAntiDiagonal => b.flip_anti_diagonal().0,
            Symmetry::Rotate90 => b.rotate_90().0,
            Symmetry::Rotate180 => b.rotate_180().0,
            Symmetry::Rotate270 => b.rotate_270().0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_sets_agree_and_invert() {
        for s in Symmetry::ALL {
            for sq in Square::ALL {
                let image = s.square(sq);
                assert_eq!(
                    s.set(Bitboard::from_square(sq).0),
                    Bitboard::from_square(image).0,
                    "{s:?} {sq}"
                );
                assert_eq!(s.inverse().square(image), sq);
            }
        }
    }
}
