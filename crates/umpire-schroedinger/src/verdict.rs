//! What the umpire says of a move, and how a game ends.

use shakmaty::Color;

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// No man of the side to move stands on the from-square.
    NotYourMan,
    /// The to-square holds a man of the side to move.
    OwnMan,
    /// No nature the man may still have moves so (for a pawn: pawns do not move so).
    NoNature,
    /// Natures exist that move the man so, but in every world consistent with the game the
    /// move captures the king or leaves the mover's king in check.
    NoWorld,
}

impl Refusal {
    /// A stable identifier for JSON (`not_your_man`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Refusal::GameOver => "game_over",
            Refusal::NotYourMan => "not_your_man",
            Refusal::OwnMan => "own_man",
            Refusal::NoNature => "no_nature",
            Refusal::NoWorld => "no_world",
        }
    }

    /// A sentence for people.
    pub const fn message(self) -> &'static str {
        match self {
            Refusal::GameOver => "the game is over",
            Refusal::NotYourMan => "no man of the side to move stands there",
            Refusal::OwnMan => "the target square holds one of your own men",
            Refusal::NoNature => "no nature this man may still have moves like that",
            Refusal::NoWorld => {
                "in every assignment of natures consistent with the game, this move leaves your king in check or captures the king"
            }
        }
    }
}

/// Whether a move is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Legal: some assignment of natures makes every move so far and this one legal.
    Legal,
    /// Illegal, and why.
    Illegal(Refusal),
}

impl Judgement {
    /// Whether the move is legal.
    pub const fn is_legal(self) -> bool {
        matches!(self, Judgement::Legal)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no legal move in any consistent world, and is in check in every one.
    Checkmate,
    /// The side to move has no legal move in any consistent world, and is in check in none.
    Stalemate,
    /// The side to move has no legal move in any consistent world, and is in check in some of
    /// them only: mate is not proven, so the game is drawn.
    UnprovenMate,
    /// A hundred plies without a capture or a pawn move.
    FiftyMoves,
    /// A player resigned.
    Resignation,
}

impl EndReason {
    /// A stable identifier for JSON and records.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::UnprovenMate => "unproven_mate",
            EndReason::FiftyMoves => "fifty_moves",
            EndReason::Resignation => "resignation",
        }
    }

    /// The reason named by [`EndReason::as_str`].
    pub fn parse(text: &str) -> Option<EndReason> {
        [
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::UnprovenMate,
            EndReason::FiftyMoves,
            EndReason::Resignation,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Ending {
    /// The score: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn score(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Whether the side to move is in check, over the consistent worlds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckStatus {
    /// In no consistent world.
    Never,
    /// In some consistent worlds and not in others.
    Sometimes,
    /// In every consistent world.
    Always,
}
