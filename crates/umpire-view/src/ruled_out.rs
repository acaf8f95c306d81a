//! What the rule set forbids a player to try, judged only from what the player heard this
//! turn: the umpire answers such an attempt "impossible" (`Verdict::Impossible`) without
//! looking at the board, so it is never among a player's options.
//!
//! This mirrors the umpire's own judgement (`Umpire::attempt` in umpire-rules): a pawn capture
//! after "no" to "Any?"; under `pawn_info_binds`, a pawn capture when no capture was announced
//! (`Count`, `YesNo`) or from a pawn not announced (`TrySquares`); under `check_binds`, in
//! check, anything that could not answer the announced check (a king move of one square
//! could; in a double check nothing else; in a single check a man landing on the announced
//! line, or a pawn capture that could take en passant a pawn standing on it).

use umpire_rules::shakmaty::Square;
use umpire_rules::{Attempt, CheckKind, OwnBoard, PawnCaptureInfo, RuleSet};

use crate::TurnKnowledge;

/// Whether `attempt` (a move of the player's own board) is ruled out by what the player heard
/// this turn (`turn`) under `rules`.
pub fn ruled_out(rules: &RuleSet, own: &OwnBoard, turn: &TurnKnowledge, attempt: Attempt) -> bool {
    let pawn_capture = own.is_pawn_capture(attempt);
    if pawn_capture {
        if turn.any_answer == Some(false) {
            return true;
        }
        if rules.pawn_info_binds {
            let none = match rules.pawn_captures {
                PawnCaptureInfo::Count => turn.pawn_tries == Some(0),
                PawnCaptureInfo::YesNo => turn.has_pawn_capture == Some(false),
                PawnCaptureInfo::TrySquares => turn
                    .try_squares
                    .is_some_and(|squares| !squares.contains(attempt.from)),
                PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => false,
            };
            if none {
                return true;
            }
        }
    }
    rules.check_binds && !could_answer_check(own, turn, attempt)
}

/// Whether `attempt` could answer the checks announced this turn (true when none was).
fn could_answer_check(own: &OwnBoard, turn: &TurnKnowledge, attempt: Attempt) -> bool {
    let Some(&kind) = turn.checks.first() else {
        return true;
    };
    let Some(king) = own.board().kings().first() else {
        return true;
    };
    if attempt.from == king {
        return attempt.from.distance(attempt.to) == 1;
    }
    if turn.checks.len() > 1 {
        return false;
    }
    let line = CheckKind::line(kind, king);
    if line.contains(attempt.to) {
        return true;
    }
    let pawn = own.board().pawns().contains(attempt.from);
    let passed = Square::from_coords(attempt.to.file(), attempt.from.rank());
    pawn && own.is_pawn_capture(attempt) && line.contains(passed)
}
