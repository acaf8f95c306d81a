//! Lookahead: a proposal for the opponent's turn that uses the player's next commands, where
//! they are already known (issue 30, goal 4; issue 28's dying beliefs).
//!
//! A sampled opponent turn offers children blind: the reservoir keeps a uniform choice of the
//! children of the parents expanded, and the player's next commands then rule out most of them
//! (a capture, a check, a rejected attempt), so that the sample thins and dies. Where the
//! player's next turn is known — in a repair, which replays observations already taken in, and
//! on the paths that read the belief at a given ply of a finished record (`umpire belief`, the
//! review of a ply) — each child is judged by the player's commands of that turn before it is
//! offered: only children that the player's next turn leaves standing enter the reservoir, and
//! the turn expands parents until it has offered enough of *those*. This is Richards and Amir's
//! constraint-based history sampling one turn ahead: the proposal obeys the next observations,
//! not only the past ones.
//!
//! The lookahead only chooses which children are kept: every kept child is still judged by
//! those commands again when they are taken in (with the repetition check, which the lookahead
//! leaves out), so every held hypothesis stays fully consistent. The belief read *before* the
//! lookahead's commands are taken in would be conditioned on them; the callers read it after.

use umpire_rules::{Announcement, Command, Observation, Umpire, Verdict};
use umpire_rules::{RuleSet, shakmaty::Chess, shakmaty::Color};

use crate::compare::{repetition_end, same_observation};
use crate::simulate::umpire_at;

/// The player's commands of its next turn (up to and including its move, or as far as known),
/// each with the answer the player heard.
#[derive(Clone, Debug)]
pub(super) struct NextTurn {
    commands: Vec<(Command, Observation)>,
}

impl NextTurn {
    /// The next turn of `side` read from `later` (the observations known to follow the
    /// opponent's move being taken in); `None` when none of its commands is known.
    ///
    /// Stops at the player's move, at an observation of the opponent's, at the end of the game,
    /// and before a command whose answer ended the game by repetition (the simulation runs with
    /// the repetition draw switched off, so such an answer is compared apart).
    pub(super) fn of(side: Color, later: &[Observation]) -> Option<NextTurn> {
        let mut commands = Vec::new();
        for obs in later {
            if obs.actor != side || obs.player != side {
                break;
            }
            let Some(own) = obs.own else { continue };
            if !matches!(own.command, Command::Attempt(_) | Command::AskAny) {
                continue;
            }
            if repetition_end(obs) {
                break;
            }
            commands.push((own.command, obs.clone()));
            let over = obs
                .announcements
                .iter()
                .any(|a| matches!(a, Announcement::GameOver(_)));
            if obs.moved || over {
                break;
            }
        }
        (!commands.is_empty()).then_some(NextTurn { commands })
    }

    /// Whether the umpire, in `pos` (the opponent's move made, the player to move), answers
    /// every command of the turn as the player heard it. `scratch` is an umpire kept between
    /// calls.
    pub(super) fn passes(&self, scratch: &mut Option<Umpire>, sim: RuleSet, pos: &Chess) -> bool {
        let umpire = match scratch {
            Some(u) => {
                if u.reset_to(sim, pos).is_err() {
                    return false;
                }
                u
            }
            None => match umpire_at(sim, pos) {
                Some(u) => scratch.insert(u),
                None => return false,
            },
        };
        for (command, real) in &self.commands {
            let out = umpire.submit(*command);
            if !same_observation(real, &out) {
                return false;
            }
            if out.verdict == Verdict::Accepted {
                return true;
            }
        }
        true
    }
}
