//! [`Answer`]: what White learns from the umpire after one attempt, under `wild16`.

use std::fmt;

use umpire_rules::CheckKind;

/// The umpire's answer to a White attempt against a lone king, as White hears it under
/// `wild16`: "Illegal move" (heard by White only, no move is made), nothing at all, a check
/// (one announcement per checking man, each classified from the black king's square), or the
/// end of the game.
///
/// A double check needs a discovered check from a second man, which needs a White man standing
/// on a line of a White slider towards the black king and moving off it while checking itself.
/// With one man (KRK, KQK) that cannot happen: only the white king can discover a check, and
/// it gives none. With two bishops it cannot either, on opposite colours neither can block the
/// other. In KBNK the knight can leave the bishop's diagonal with check: bishop and knight check
/// together, heard as two announcements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Answer {
    /// The attempt is illegal where the black king stands; White tries again.
    Illegal,
    /// The move was played; no check, the game goes on.
    Silent,
    /// The move was played and one man gives check of this kind; the game goes on.
    Check(CheckKind),
    /// The move was played and two men give check, of these kinds (in the order of
    /// [`CheckKind`]); the game goes on.
    DoubleCheck(CheckKind, CheckKind),
    /// The move was played and mates: White has won.
    Checkmate,
    /// The move was played and stalemates: a draw, a failure for White.
    Stalemate,
}

impl Answer {
    /// The answer after a legal move that does not end the game, from the kinds of the checks
    /// (none, one or two).
    pub fn of_checks(checks: &[CheckKind]) -> Answer {
        match *checks {
            [] => Answer::Silent,
            [k] => Answer::Check(k),
            [a, b, ..] => Answer::DoubleCheck(a.min(b), a.max(b)),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Illegal => f.write_str("illegal"),
            Answer::Silent => f.write_str("silent"),
            Answer::Check(kind) => write!(f, "check ({})", kind.as_str()),
            Answer::DoubleCheck(a, b) => {
                write!(f, "double check ({}, {})", a.as_str(), b.as_str())
            }
            Answer::Checkmate => f.write_str("checkmate"),
            Answer::Stalemate => f.write_str("stalemate"),
        }
    }
}
