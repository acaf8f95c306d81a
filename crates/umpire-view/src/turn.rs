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

impl TurnKnowledge {
    /// Forgets everything, as at the start of a turn: the same as `TurnKnowledge::default()`
    /// but in place (assigning a fresh value copies the whole fixed-capacity list of rejected
    /// attempts; this touches only what is held).
    pub fn reset(&mut self) {
        // Every field is named: a new field fails to compile here until it is reset.
        let TurnKnowledge {
            rejected,
            checks,
            capture_at,
            pawn_tries,
            try_squares,
            has_pawn_capture,
            any_answer,
            must_try_pawn_capture,
            opponent_rejections,
        } = self;
        rejected.clear();
        checks.clear();
        *capture_at = None;
        *pawn_tries = None;
        *try_squares = None;
        *has_pawn_capture = None;
        *any_answer = None;
        *must_try_pawn_capture = false;
        *opponent_rejections = 0;
    }

    /// Copies `source` into `self` in place (only the rejected attempts held are copied).
    pub fn copy_from(&mut self, source: &TurnKnowledge) {
        self.reset();
        self.rejected.extend(source.rejected.iter().copied());
        self.checks.extend(source.checks.iter().copied());
        self.capture_at = source.capture_at;
        self.pawn_tries = source.pawn_tries;
        self.try_squares = source.try_squares;
        self.has_pawn_capture = source.has_pawn_capture;
        self.any_answer = source.any_answer;
        self.must_try_pawn_capture = source.must_try_pawn_capture;
        self.opponent_rejections = source.opponent_rejections;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Square;

    fn busy() -> TurnKnowledge {
        let mut t = TurnKnowledge::default();
        t.rejected.push(Attempt::new(Square::E2, Square::E4));
        t.rejected.push(Attempt::new(Square::G1, Square::F3));
        t.checks.push(CheckKind::Knight);
        t.capture_at = Some(Square::D5);
        t.pawn_tries = Some(2);
        t.try_squares = Some(Bitboard::from_square(Square::C4));
        t.has_pawn_capture = Some(true);
        t.any_answer = Some(true);
        t.must_try_pawn_capture = true;
        t.opponent_rejections = 3;
        t
    }

    #[test]
    fn reset_is_default_and_copy_from_is_clone() {
        let mut t = busy();
        assert_ne!(t, TurnKnowledge::default());
        t.reset();
        assert_eq!(t, TurnKnowledge::default());
        t.copy_from(&busy());
        assert_eq!(t, busy());
    }
}
