//! Whether a hypothetical game would have told the player exactly what it heard.
//!
//! Announcements that do not depend on where the enemy men stand (draw offers and their
//! answers, resignations, a draw by agreement) are left out on both sides: they follow from the
//! commands alone. A draw by threefold repetition is the one position-dependent announcement the
//! simulation does not reproduce (it replays each turn from a fresh umpire, which keeps no
//! earlier positions); where the real game announced it, the simulation's pawn-capture
//! information for the next turn, which the real umpire no longer gives, is left out too.

use umpire_rules::{Announcement, EndReason, Observation, Outcome};

/// Whether an announcement tells anything about the hidden position.
pub(crate) fn informative(a: &Announcement) -> bool {
    match a {
        Announcement::DrawOffered(_)
        | Announcement::DrawDeclined(_)
        | Announcement::DrawAccepted(_)
        | Announcement::Resigned(_) => false,
        Announcement::GameOver(result) => !matches!(
            result.reason,
            EndReason::DrawAgreed
                | EndReason::Resignation
                | EndReason::ThreefoldRepetition
                | EndReason::Abandonment
                | EndReason::Aborted
        ),
        _ => true,
    }
}

/// Whether an announcement is the pawn-capture information given as a turn begins.
fn pawn_info(a: &Announcement) -> bool {
    matches!(
        a,
        Announcement::PawnTries(_) | Announcement::PawnTrySquares(_) | Announcement::PawnCaptures
    )
}

/// Whether an announcement ends the game by the fifty-move rule.
fn fifty_moves_end(a: &Announcement) -> bool {
    matches!(a, Announcement::GameOver(r) if r.reason == EndReason::FiftyMoves)
}

/// Whether the real game ended here by threefold repetition.
pub(crate) fn repetition_end(obs: &Observation) -> bool {
    obs.announcements.iter().any(
        |a| matches!(a, Announcement::GameOver(r) if r.reason == EndReason::ThreefoldRepetition),
    )
}

/// Whether `sim`, the outcome of the same command in a hypothetical game, gives the player
/// `real.player` what `real` told it (verdict, whether a move was made, and every informative
/// announcement, in order).
pub(crate) fn same_observation(real: &Observation, sim: &Outcome) -> bool {
    let player = real.player;
    if real.actor != sim.side {
        return false;
    }
    let own = real.actor == player;
    if own {
        let Some(cmd) = real.own else { return false };
        if cmd.verdict != sim.verdict {
            return false;
        }
    } else if real.moved != sim.is_accepted() {
        return false;
    }
    let drop_pawn_info = repetition_end(real);
    // Where the real game ended by repetition, the simulation (which does not see repetitions;
    // the belief checks them itself) may go on, or end by the fifty-move rule, checked after.
    let mut theirs = sim
        .heard_by(player)
        .filter(|a| informative(a) && !(drop_pawn_info && (pawn_info(a) || fifty_moves_end(a))));
    for mine in real.announcements.iter().filter(|a| informative(a)) {
        if theirs.next() != Some(*mine) {
            return false;
        }
    }
    theirs.next().is_none()
}

/// What an observation of the opponent's tells about the hidden position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpponentEvent {
    /// Nothing: a draw offer or answer, a resignation.
    Silent,
    /// An attempt of the opponent's was rejected.
    Rebuff,
    /// The opponent asked "Any?".
    Any,
    /// The opponent moved.
    Moved,
}

/// Classifies an observation of the opponent's command.
pub(crate) fn opponent_event(obs: &Observation) -> OpponentEvent {
    if obs.moved {
        return OpponentEvent::Moved;
    }
    let mut event = OpponentEvent::Silent;
    for a in &obs.announcements {
        match a {
            Announcement::AnyAnswer(_) => event = OpponentEvent::Any,
            Announcement::Illegal | Announcement::Impossible | Announcement::Repeat => {
                event = OpponentEvent::Rebuff;
            }
            _ => {}
        }
    }
    event
}
