//! How a game ends: [`GameResult`] and [`EndReason`].

use std::fmt;

use shakmaty::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The same position occurred for the third time (automatic, no claim needed).
    ThreefoldRepetition,
    /// Fifty moves by each side without a pawn move or a capture (rejected attempts never count).
    FiftyMoves,
    /// Neither side can ever checkmate (bare kings, K+B v K, K+N v K, bishops all on one colour).
    InsufficientMaterial,
    /// One player offered a draw and the other accepted it.
    DrawAgreed,
    /// A player resigned.
    Resignation,
    /// A player's flag fell (time ran out): a loss, or a draw when the opponent could not
    /// checkmate by any legal sequence (FIDE Laws 6.9).
    TimeForfeit,
    /// A player stayed away from a running game past the host's timeout: a loss.
    Abandonment,
    /// The game was called off before both sides had moved: no result (score `*`).
    Aborted,
}

impl EndReason {
    /// All reasons, in a fixed order.
    pub const ALL: [EndReason; 10] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::ThreefoldRepetition,
        EndReason::FiftyMoves,
        EndReason::InsufficientMaterial,
        EndReason::DrawAgreed,
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::Abandonment,
        EndReason::Aborted,
    ];

    /// The stable snake-case name used in JSON and records (`"checkmate"`, `"fifty_moves"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::ThreefoldRepetition => "threefold_repetition",
            EndReason::FiftyMoves => "fifty_moves",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::DrawAgreed => "draw_agreed",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::Abandonment => "abandonment",
            EndReason::Aborted => "aborted",
        }
    }

    /// Parses the name returned by [`EndReason::as_str`]. Also reads `time`, the name a
    /// flag fall had in results the server stored before the rules core knew it.
    pub fn from_name(name: &str) -> Option<EndReason> {
        if name == "time" {
            return Some(EndReason::TimeForfeit);
        }
        EndReason::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::DrawAgreed => "draw agreed",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::Abandonment => "abandonment",
            EndReason::Aborted => "aborted",
        })
    }
}

/// The result of a finished game: the winner (none for a draw, or for an aborted game) and
/// the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl GameResult {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: EndReason) -> GameResult {
        GameResult {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: EndReason) -> GameResult {
        GameResult {
            winner: None,
            reason,
        }
    }

    /// An aborted game: no winner and no draw either (score `*`).
    pub const fn aborted() -> GameResult {
        GameResult {
            winner: None,
            reason: EndReason::Aborted,
        }
    }

    /// Whether the game counts as a draw (no winner, and not aborted).
    pub const fn is_draw(self) -> bool {
        self.winner.is_none() && !matches!(self.reason, EndReason::Aborted)
    }

    /// The score in PGN notation: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` for an aborted game.
    pub const fn score(self) -> &'static str {
        match (self.winner, self.reason) {
            (Some(Color::White), _) => "1-0",
            (Some(Color::Black), _) => "0-1",
            (None, EndReason::Aborted) => "*",
            (None, _) => "1/2-1/2",
        }
    }

    /// Builds a result from a PGN score and a reason name; `None` if either is unknown
    /// or they contradict each other (a draw by checkmate, a win by repetition).
    pub fn from_parts(score: &str, reason: &str) -> Option<GameResult> {
        let reason = EndReason::from_name(reason)?;
        let winner = match score {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            "*" if reason == EndReason::Aborted => return Some(GameResult::aborted()),
            _ => return None,
        };
        let decisive_reason = matches!(
            reason,
            EndReason::Checkmate
                | EndReason::Resignation
                | EndReason::Stalemate
                | EndReason::TimeForfeit
                | EndReason::Abandonment
        );
        let drawn_reason = !matches!(
            reason,
            EndReason::Checkmate
                | EndReason::Resignation
                | EndReason::Abandonment
                | EndReason::Aborted
        );
        match winner {
            Some(_) if decisive_reason => Some(GameResult { winner, reason }),
            None if drawn_reason => Some(GameResult { winner, reason }),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.score(), self.reason)
    }
}
