//! [`Answer`]: what White learns from the umpire after one attempt, under `wild16`.

use std::fmt;

use umpire_rules::CheckKind;

/// The umpire's answer to a White attempt in a KRK position, as White hears it under `wild16`:
/// "Illegal move" (heard by White only, no move is made), nothing at all, a check of some kind
/// (classified from the black king's square), or the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Answer {
    /// The attempt is illegal where the black king stands; White tries again.
    Illegal,
    /// The move was played; no check, the game goes on.
    Silent,
    /// The move was played and gives check of this kind; the game goes on.
    Check(CheckKind),
    /// The move was played and mates: White has won.
    Checkmate,
    /// The move was played and stalemates: a draw, a failure for White.
    Stalemate,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Illegal => f.write_str("illegal"),
            Answer::Silent => f.write_str("silent"),
            Answer::Check(kind) => write!(f, "check ({})", kind.as_str()),
            Answer::Checkmate => f.write_str("checkmate"),
            Answer::Stalemate => f.write_str("stalemate"),
        }
    }
}
