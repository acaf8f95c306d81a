//! What a player can say to the umpire: an [`Attempt`] (a move to try) or a [`Command`].

use std::fmt;
use std::str::FromStr;

use shakmaty::{Role, Square, uci::UciMove};

/// A move a player tries, in the shape of UCI: from, to, and the promotion piece.
///
/// Castling is the king's two-square move (`e1g1`). An attempt says nothing about the
/// opponent's men: whether it is legal is for the umpire to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attempt {
    /// The square of the man to move.
    pub from: Square,
    /// The destination square.
    pub to: Square,
    /// The piece a pawn promotes to, if any.
    pub promotion: Option<Role>,
}

impl Attempt {
    /// An attempt without promotion.
    pub const fn new(from: Square, to: Square) -> Attempt {
        Attempt {
            from,
            to,
            promotion: None,
        }
    }

    /// An attempt with a promotion piece.
    pub const fn promoting(from: Square, to: Square, role: Role) -> Attempt {
        Attempt {
            from,
            to,
            promotion: Some(role),
        }
    }

    /// The attempt that plays a chess move: castling is the king's two-square move, as
    /// players type it. `None` for a drop, which chess has not.
    pub fn from_move(m: &shakmaty::Move) -> Option<Attempt> {
        match *m {
            shakmaty::Move::Normal {
                from,
                to,
                promotion,
                ..
            } => Some(Attempt {
                from,
                to,
                promotion,
            }),
            shakmaty::Move::EnPassant { from, to } => Some(Attempt::new(from, to)),
            shakmaty::Move::Castle { king, rook } => {
                let file = if rook.file() > king.file() {
                    shakmaty::File::G
                } else {
                    shakmaty::File::C
                };
                Some(Attempt::new(king, Square::from_coords(file, king.rank())))
            }
            shakmaty::Move::Put { .. } => None,
        }
    }

    /// Parses UCI (`e2e4`, `e7e8q`, `e1g1`).
    pub fn from_uci(text: &str) -> Result<Attempt, AttemptParseError> {
        match UciMove::from_ascii(text.trim().as_bytes()) {
            Ok(UciMove::Normal {
                from,
                to,
                promotion,
            }) if from != to => Ok(Attempt {
                from,
                to,
                promotion,
            }),
            _ => Err(AttemptParseError(text.to_owned())),
        }
    }

    /// Parses an attempt as records store it: UCI, where a move from a square to itself is
    /// kept too. Players' input refuses such a move ([`Attempt::from_uci`]), but an attempt
    /// built in code can name one, the umpire judges it impossible, and its record must read
    /// back as it was written.
    pub fn from_record_uci(text: &str) -> Result<Attempt, AttemptParseError> {
        match UciMove::from_ascii(text.trim().as_bytes()) {
            Ok(UciMove::Normal {
                from,
                to,
                promotion,
            }) => Ok(Attempt {
                from,
                to,
                promotion,
            }),
            _ => Err(AttemptParseError(text.to_owned())),
        }
    }
}

impl fmt::Display for Attempt {
    /// Writes UCI.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl FromStr for Attempt {
    type Err = AttemptParseError;

    fn from_str(s: &str) -> Result<Attempt, AttemptParseError> {
        Attempt::from_uci(s)
    }
}

/// Text that is not an attempt in UCI.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a move in UCI notation (examples: e2e4, e7e8q, e1g1)")]
pub struct AttemptParseError(pub String);

/// Everything a player can say to the umpire, and the ends that whoever keeps the clocks
/// declares for a player ([`Command::FlagFall`], [`Command::Abandon`], [`Command::Abort`]:
/// never typed by a player, so [`Command::parse_keyword_or_uci`] does not read them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Try a move.
    Attempt(Attempt),
    /// Ask "Any?" (are there pawn captures?), where the rule set allows it.
    AskAny,
    /// Offer a draw (the side to move, before any attempt this turn).
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Resign.
    Resign,
    /// The player's flag fell: its time ran out (declared by the clock keeper).
    FlagFall,
    /// The player stayed away past the host's timeout (declared by the host).
    Abandon,
    /// The host calls the game off before both sides have moved.
    Abort,
}

impl Command {
    /// The words used in the line protocol and records: the UCI of an attempt, or
    /// `any`, `draw offer`, `draw accept`, `draw decline`, `resign`, `flag`, `abandon`, `abort`.
    pub fn to_text(&self) -> String {
        match self {
            Command::Attempt(a) => a.to_string(),
            other => other.keyword().unwrap_or_default().to_owned(),
        }
    }

    /// The keyword of a command that is not an attempt.
    pub const fn keyword(&self) -> Option<&'static str> {
        match self {
            Command::Attempt(_) => None,
            Command::AskAny => Some("any"),
            Command::OfferDraw => Some("draw offer"),
            Command::AcceptDraw => Some("draw accept"),
            Command::DeclineDraw => Some("draw decline"),
            Command::Resign => Some("resign"),
            Command::FlagFall => Some("flag"),
            Command::Abandon => Some("abandon"),
            Command::Abort => Some("abort"),
        }
    }

    /// Whether this is an end declared off the board ([`Command::FlagFall`],
    /// [`Command::Abandon`], [`Command::Abort`]), which a player never says.
    pub const fn is_declared_end(&self) -> bool {
        matches!(self, Command::FlagFall | Command::Abandon | Command::Abort)
    }

    /// Parses a command as written in records and stored games: anything
    /// [`Command::parse_keyword_or_uci`] reads, plus the declared ends `flag`, `abandon` and
    /// `abort` (the exact words, lower case).
    pub fn parse_record_word(text: &str) -> Option<Command> {
        match text.trim() {
            "flag" => Some(Command::FlagFall),
            "abandon" => Some(Command::Abandon),
            "abort" => Some(Command::Abort),
            other => Command::parse_keyword_or_uci(other)
                .or_else(|| Attempt::from_record_uci(other).ok().map(Command::Attempt)),
        }
    }

    /// Parses a keyword command (`any`, `draw offer`, …) or an attempt in UCI; case and
    /// repeated spaces do not matter. SAN needs the mover's own board: see
    /// [`crate::OwnBoard::parse_command`].
    pub fn parse_keyword_or_uci(text: &str) -> Option<Command> {
        let words: Vec<String> = text
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["any"] | ["any?"] => Some(Command::AskAny),
            ["draw", "offer"] | ["draw"] | ["offer", "draw"] => Some(Command::OfferDraw),
            ["draw", "accept"] | ["accept", "draw"] | ["accept"] => Some(Command::AcceptDraw),
            ["draw", "decline"] | ["decline", "draw"] | ["decline"] => Some(Command::DeclineDraw),
            ["resign"] => Some(Command::Resign),
            [one] => Attempt::from_uci(one).ok().map(Command::Attempt),
            _ => None,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_moves_become_the_attempts_players_type() {
        use shakmaty::{Move, Square::*};
        let castle = Move::Castle { king: E8, rook: A8 };
        assert_eq!(Attempt::from_move(&castle), Some(Attempt::new(E8, C8)));
        let castle = Move::Castle { king: E1, rook: H1 };
        assert_eq!(Attempt::from_move(&castle), Some(Attempt::new(E1, G1)));
        let ep = Move::EnPassant { from: E5, to: D6 };
        assert_eq!(Attempt::from_move(&ep), Some(Attempt::new(E5, D6)));
        let promotion = Move::Normal {
            role: Role::Pawn,
            from: B7,
            capture: Some(Role::Rook),
            to: A8,
            promotion: Some(Role::Knight),
        };
        assert_eq!(
            Attempt::from_move(&promotion),
            Some(Attempt::promoting(B7, A8, Role::Knight))
        );
        let drop = Move::Put {
            role: Role::Pawn,
            to: E4,
        };
        assert_eq!(Attempt::from_move(&drop), None);
    }

    #[test]
    fn uci_round_trip() {
        for text in ["e2e4", "e7e8q", "e1g1", "a7b8n"] {
            assert_eq!(Attempt::from_uci(text).unwrap().to_string(), text);
        }
        assert!(Attempt::from_uci("e2e2").is_err());
        assert!(Attempt::from_uci("0000").is_err());
        assert!(Attempt::from_uci("N@f3").is_err());
        assert!(Attempt::from_uci("e9e4").is_err());
    }

    #[test]
    fn keywords() {
        assert_eq!(
            Command::parse_keyword_or_uci("  Draw   OFFER "),
            Some(Command::OfferDraw)
        );
        assert_eq!(Command::parse_keyword_or_uci("any"), Some(Command::AskAny));
        assert_eq!(
            Command::parse_keyword_or_uci("resign"),
            Some(Command::Resign)
        );
        assert_eq!(Command::parse_keyword_or_uci("hello world"), None);
        for c in [
            Command::AskAny,
            Command::OfferDraw,
            Command::AcceptDraw,
            Command::DeclineDraw,
            Command::Resign,
        ] {
            assert_eq!(Command::parse_keyword_or_uci(&c.to_text()), Some(c));
            assert_eq!(Command::parse_record_word(&c.to_text()), Some(c));
        }
    }

    #[test]
    fn declared_ends_are_record_words_a_player_cannot_type() {
        for c in [Command::FlagFall, Command::Abandon, Command::Abort] {
            assert!(c.is_declared_end());
            assert_eq!(Command::parse_keyword_or_uci(&c.to_text()), None);
            assert_eq!(Command::parse_record_word(&c.to_text()), Some(c));
        }
        assert!(!Command::Resign.is_declared_end());
        assert_eq!(Command::parse_record_word("flags"), None);
    }
}
