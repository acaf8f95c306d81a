//! A move: a man goes from one square to another. Natures are never named in a move.

use std::fmt;
use std::str::FromStr;

use shakmaty::Square;

/// A move in Schrödinger chess: from-square and to-square. A pawn reaching the last rank
/// promotes to a man of unknown nature, so a move never names a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the man stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

/// Text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not four characters of the form `e2e4`.
    #[error("{0:?} is not a move: write it as from-square and to-square, like e2e4")]
    Syntax(String),
    /// A promotion piece was named.
    #[error(
        "{0:?} names a promotion piece: in Schrödinger chess a promoted man's nature is unknown, write the move without it (like e7e8)"
    )]
    PromotionPiece(String),
    /// From and to are the same square.
    #[error("{0:?} is not a move: from and to are the same square")]
    Null(String),
}

impl FromStr for Move {
    type Err = MoveError;

    /// Parses UCI without a promotion letter (`e2e4`).
    fn from_str(text: &str) -> Result<Move, MoveError> {
        let owned = || text.chars().take(16).collect::<String>();
        let bytes = text.as_bytes();
        if bytes.len() == 5 && bytes.is_ascii() && b"qrbnQRBN".contains(&bytes[4]) {
            let squares = (
                Square::from_ascii(&bytes[0..2]),
                Square::from_ascii(&bytes[2..4]),
            );
            if let (Ok(_), Ok(_)) = squares {
                return Err(MoveError::PromotionPiece(owned()));
            }
        }
        if bytes.len() != 4 || !bytes.is_ascii() {
            return Err(MoveError::Syntax(owned()));
        }
        let from = Square::from_ascii(&bytes[0..2]).map_err(|_| MoveError::Syntax(owned()))?;
        let to = Square::from_ascii(&bytes[2..4]).map_err(|_| MoveError::Syntax(owned()))?;
        if from == to {
            return Err(MoveError::Null(owned()));
        }
        Ok(Move { from, to })
    }
}

impl fmt::Display for Move {
    /// UCI, like `e2e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}
