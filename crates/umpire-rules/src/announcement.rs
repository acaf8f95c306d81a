//! What the umpire says: [`Announcement`], [`CheckKind`], [`Man`], and who hears it ([`Audience`]).

use shakmaty::{Bitboard, Color, Square, attacks};

use crate::GameResult;

/// The kind of a check, as announced: from the point of view of the checked king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckKind {
    /// The checking man is on the king's rank.
    Rank,
    /// The checking man is on the king's file.
    File,
    /// The checking man is on the longer of the two diagonals through the king's square.
    LongDiagonal,
    /// The checking man is on the shorter of the two diagonals through the king's square.
    ShortDiagonal,
    /// A knight gives check.
    Knight,
}

impl CheckKind {
    /// All kinds, in a fixed order.
    pub const ALL: [CheckKind; 5] = [
        CheckKind::Rank,
        CheckKind::File,
        CheckKind::LongDiagonal,
        CheckKind::ShortDiagonal,
        CheckKind::Knight,
    ];

    /// Classifies a check given by a man on `checker` against the king on `king`.
    ///
    /// Squares that share a rank, file or diagonal give that line; any other pair is a
    /// knight check. A pawn check is therefore a diagonal check, as every rule set says.
    /// The two diagonals through a square never have the same length, so "long" and
    /// "short" are always well defined.
    pub fn classify(checker: Square, king: Square) -> CheckKind {
        if checker.rank() == king.rank() {
            CheckKind::Rank
        } else if checker.file() == king.file() {
            CheckKind::File
        } else {
            let line = attacks::ray(checker, king);
            if line.is_empty() {
                return CheckKind::Knight;
            }
            // The other diagonal through the king: the bishop's empty-board reach minus this line.
            let both = attacks::bishop_attacks(king, Bitboard::EMPTY);
            let other = both & !line;
            // `line` includes the king's square; `other` does not.
            if line.count() > other.count() + 1 {
                CheckKind::LongDiagonal
            } else {
                CheckKind::ShortDiagonal
            }
        }
    }

    /// The squares from which a man gives a check of this kind to a king on `king`: the king's
    /// rank, its file, its longer or shorter diagonal, or its knight squares.
    pub fn line(kind: CheckKind, king: Square) -> Bitboard {
        let reach = match kind {
            CheckKind::Rank | CheckKind::File => attacks::rook_attacks(king, Bitboard::EMPTY),
            CheckKind::LongDiagonal | CheckKind::ShortDiagonal => {
                attacks::bishop_attacks(king, Bitboard::EMPTY)
            }
            CheckKind::Knight => attacks::knight_attacks(king),
        };
        reach
            .into_iter()
            .filter(|&sq| CheckKind::classify(sq, king) == kind)
            .collect()
    }

    /// The stable snake-case name used in JSON (`"rank"`, `"long_diagonal"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            CheckKind::Rank => "rank",
            CheckKind::File => "file",
            CheckKind::LongDiagonal => "long_diagonal",
            CheckKind::ShortDiagonal => "short_diagonal",
            CheckKind::Knight => "knight",
        }
    }

    /// Parses the name returned by [`CheckKind::as_str`].
    pub fn from_name(name: &str) -> Option<CheckKind> {
        CheckKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// The category of a captured man, where the rule set announces it: the RAND dichotomy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Man {
    /// A pawn was captured (a promoted man counts as the piece it became).
    Pawn,
    /// A piece (knight, bishop, rook or queen) was captured.
    Piece,
}

impl Man {
    /// `"pawn"` or `"piece"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Man::Pawn => "pawn",
            Man::Piece => "piece",
        }
    }
}

/// Who hears an announcement, relative to the player whose command produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Only the player who gave the command.
    Mover,
    /// Only the other player.
    Opponent,
    /// Both players.
    Both,
}

impl Audience {
    /// Whether `player` hears an announcement with this audience, given that `actor` gave the command.
    pub fn includes(self, actor: Color, player: Color) -> bool {
        match self {
            Audience::Both => true,
            Audience::Mover => actor == player,
            Audience::Opponent => actor != player,
        }
    }

    /// `"mover"`, `"opponent"` or `"both"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Audience::Mover => "mover",
            Audience::Opponent => "opponent",
            Audience::Both => "both",
        }
    }
}

/// One thing the umpire says.
///
/// Announcements are small `Copy` values; the words a rule set uses for them ("No",
/// "Illegal move", "HELL NO") are a matter of presentation, see [`crate::RuleSet::phrase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Announcement {
    /// The attempt is not legal in the true position ("No", "Illegal move").
    Illegal,
    /// The attempt is impossible on the mover's own board ("Hell no", "Nonsense").
    Impossible,
    /// The attempt was already rejected this turn ("REPEAT NO").
    Repeat,
    /// A man was captured on `square`; under e.p. the square of the captured pawn.
    Capture {
        /// Where the captured man stood.
        square: Square,
        /// Pawn or piece, where the rule set says so.
        man: Option<Man>,
        /// Whether the capture was en passant, where the rule set says so.
        en_passant: bool,
    },
    /// The side now to move is in check (twice on a double check).
    Check(CheckKind),
    /// The side now to move has this many distinct legal pawn captures (announced when > 0).
    PawnTries(u8),
    /// The side now to move has legal pawn captures with the pawns on these squares.
    PawnTrySquares(Bitboard),
    /// The side now to move has at least one legal pawn capture (Cincinnati's yes).
    PawnCaptures,
    /// The answer to "Any?": whether the mover has a legal pawn capture.
    AnyAnswer(bool),
    /// A pawn of this colour was promoted (where the rule set announces it).
    Promotion(Color),
    /// This side offers a draw.
    DrawOffered(Color),
    /// This side declines the draw offer.
    DrawDeclined(Color),
    /// This side accepts the draw offer.
    DrawAccepted(Color),
    /// This side resigns.
    Resigned(Color),
    /// The game is over.
    GameOver(GameResult),
}

impl Announcement {
    /// The stable snake-case kind used in JSON (`"capture"`, `"check"`, `"pawn_tries"`, …).
    pub const fn kind(&self) -> &'static str {
        match self {
            Announcement::Illegal => "illegal",
            Announcement::Impossible => "impossible",
            Announcement::Repeat => "repeat",
            Announcement::Capture { .. } => "capture",
            Announcement::Check(_) => "check",
            Announcement::PawnTries(_) => "pawn_tries",
            Announcement::PawnTrySquares(_) => "pawn_try_squares",
            Announcement::PawnCaptures => "pawn_captures",
            Announcement::AnyAnswer(_) => "any_answer",
            Announcement::Promotion(_) => "promotion",
            Announcement::DrawOffered(_) => "draw_offered",
            Announcement::DrawDeclined(_) => "draw_declined",
            Announcement::DrawAccepted(_) => "draw_accepted",
            Announcement::Resigned(_) => "resigned",
            Announcement::GameOver(_) => "game_over",
        }
    }
}

/// An announcement together with who hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Heard {
    /// Who hears it, relative to the player whose command produced it.
    pub audience: Audience,
    /// What is said.
    pub announcement: Announcement,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_diagonal_example_from_seed() {
        // Seed 000: for a king on e1 the short diagonal is e1-h4.
        assert_eq!(
            CheckKind::classify(Square::H4, Square::E1),
            CheckKind::ShortDiagonal
        );
        assert_eq!(
            CheckKind::classify(Square::A5, Square::E1),
            CheckKind::LongDiagonal
        );
        assert_eq!(CheckKind::classify(Square::E8, Square::E1), CheckKind::File);
        assert_eq!(CheckKind::classify(Square::A1, Square::E1), CheckKind::Rank);
        assert_eq!(
            CheckKind::classify(Square::F3, Square::E1),
            CheckKind::Knight
        );
    }
}
