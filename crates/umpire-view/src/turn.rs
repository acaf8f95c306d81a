//! What a player has learnt since the current turn began.

use arrayvec::ArrayVec;
use umpire_rules::shakmaty::{Bitboard, Square};
use umpire_rules::{Attempt, CheckKind, MAX_ATTEMPTS};

/// What the player to move has heard this turn, and what it has tried (for the player not
/// to move: what it heard since its own move).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnKnowledge {
    /// Own attempts rejected as illegal this turn.
    pub rejected: ArrayVec<Attempt, MAX_ATTEMPTS>,
    /// Checks announced against the player's king at the start of the turn.
    pub checks: ArrayVec<CheckKind, 2>,
    /// Square where the opponent's last move captured one of the player's men.
    pub capture_at: Option<Square>,
    /// Announced number of legal pawn captures (`Some(0)` where silence means none).
    pub pawn_tries: Option<u8>,
    /// Announced squares of the player's pawns that have a legal capture.
    pub try_squares: Option<Bitboard>,
    /// Announced yes/no: whether the player has a legal pawn capture.
    pub has_pawn_capture: Option<bool>,
    /// The answer to "Any?" this turn, if asked.
    pub any_answer: Option<bool>,
    /// Whether the player must attempt pawn captures now (after "yes" to "Any?").
    pub must_try_pawn_capture: bool,
    /// Commands of the opponent that the player heard rejected since its own last move.
    pub opponent_rejections: u16,
}
