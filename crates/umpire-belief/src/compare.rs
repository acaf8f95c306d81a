//! Whether a hypothetical game would have told the player exactly what it heard.
//!
//! Announcements that do not depend on where the enemy men stand (draw offers and their
//! answers, resignations, a draw by agreement) are left out on both sides: they follow from the
//! commands alone. A draw by threefold repetition is the one position-dependent announcement the
//! simulation does not reproduce (it replays each turn from a fresh umpire, which keeps no
//! earlier positions); where the real game announced it, the simulation's pawn-capture
//! information for the next turn, which the real umpire no longer gives, is left out too.

use arrayvec::ArrayVec;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, EndReason, MAX_ANNOUNCEMENTS, Observation, Outcome, Verdict};

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

/// What a player heard, prepared to be compared with many simulated outcomes of the same
/// command in hypothetical games (the observation's informative announcements picked out once,
/// not at every comparison).
#[derive(Clone, Debug)]
pub(crate) struct Expected {
    player: Color,
    actor: Color,
    judged: Judged,
    /// Where the real game ended by repetition, the simulation (which does not see
    /// repetitions; the belief checks them itself) may go on, or end by the fifty-move rule,
    /// checked after: its pawn-capture information and a fifty-move end are not compared.
    drop_pawn_info: bool,
    /// The informative announcements heard, in order.
    announcements: ArrayVec<Announcement, MAX_ANNOUNCEMENTS>,
}

/// What the player learnt of a command's judgement besides the announcements.
#[derive(Clone, Copy, Debug)]
enum Judged {
    /// Its own command's verdict.
    Verdict(Verdict),
    /// The opponent's command: whether a move was made.
    Moved(bool),
    /// Its own command without the command recorded: no outcome matches.
    Nothing,
}

impl Expected {
    /// Prepares `real` for comparisons.
    pub(crate) fn of(real: &Observation) -> Expected {
        let judged = if real.actor == real.player {
            real.own
                .map_or(Judged::Nothing, |cmd| Judged::Verdict(cmd.verdict))
        } else {
            Judged::Moved(real.moved)
        };
        Expected {
            player: real.player,
            actor: real.actor,
            judged,
            drop_pawn_info: repetition_end(real),
            announcements: real
                .announcements
                .iter()
                .copied()
                .filter(informative)
                .collect(),
        }
    }

    /// Whether `sim` gives the player what it heard: the same verdict (the opponent's command:
    /// whether a move was made) and every informative announcement, in order.
    pub(crate) fn matches(&self, sim: &Outcome) -> bool {
        if self.actor != sim.side {
            return false;
        }
        let same_judgement = match self.judged {
            Judged::Verdict(v) => v == sim.verdict,
            Judged::Moved(moved) => moved == sim.is_accepted(),
            Judged::Nothing => false,
        };
        if !same_judgement {
            return false;
        }
        let mut expected = self.announcements.iter();
        for a in sim.heard_by(self.player) {
            if !informative(&a) || (self.drop_pawn_info && (pawn_info(&a) || fifty_moves_end(&a))) {
                continue;
            }
            if expected.next() != Some(&a) {
                return false;
            }
        }
        expected.next().is_none()
    }
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
