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

use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, Command, Observation, Umpire, Verdict};

use super::knight_checks::KnightChecks;
use crate::compare::{Expected, repetition_end};

/// The player's commands of its next turn (up to and including its move, or as far as known),
/// each with the answer the player heard (prepared for the comparisons).
#[derive(Clone, Debug)]
pub(super) struct NextTurn {
    commands: Vec<(Command, Expected)>,
    /// The knight checks heard further ahead (`belief/knight_checks.rs`).
    knights: KnightChecks,
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
            commands.push((own.command, Expected::of(obs)));
            let over = obs
                .announcements
                .iter()
                .any(|a| matches!(a, Announcement::GameOver(_)));
            if obs.moved || over {
                break;
            }
        }
        (!commands.is_empty()).then_some(NextTurn {
            commands,
            knights: KnightChecks::default(),
        })
    }

    /// The same turn, whose children must also be able to give the knight checks heard
    /// further ahead.
    pub(super) fn with_knight_checks(mut self, knights: KnightChecks) -> NextTurn {
        self.knights = knights;
        self
    }

    /// Whether the umpire answers every command of the player's next turn as the player heard
    /// it in the position `played` holds: an umpire that has just played the opponent's move
    /// (analysed as after any move), copied into `scratch` instead of a fresh umpire built and
    /// analysed in its position. The copy answers every command as the fresh
    /// one would: the turn's state is that of a turn's start in both (no attempt, no "Any?",
    /// no offer; the repetition draw is off in a simulation), the move counter differs by one
    /// (it decides only whether an abort is still allowed, before two moves in both), and a
    /// position without a legal move, which a fresh umpire refuses, fails here too.
    pub(super) fn passes_after(&self, scratch: &mut Option<Umpire>, played: &Umpire) -> bool {
        if !played.has_legal_move() || !self.knights.allows(played.position()) {
            return false;
        }
        let umpire = match scratch {
            Some(u) => {
                u.clone_from(played);
                u
            }
            None => scratch.insert(played.clone()),
        };
        self.answers(umpire)
    }

    /// Whether the umpire, in `pos` (the opponent's move made, the player to move), answers
    /// every command of the turn as the player heard it. `scratch` is an umpire kept between
    /// calls. (The expansion judges with [`NextTurn::passes_after`]; this is its yardstick.)
    #[cfg(test)]
    pub(super) fn passes(
        &self,
        scratch: &mut Option<Umpire>,
        sim: umpire_rules::RuleSet,
        pos: &umpire_rules::shakmaty::Chess,
    ) -> bool {
        let umpire = match scratch {
            Some(u) => {
                if u.reset_to(sim, pos).is_err() {
                    return false;
                }
                u
            }
            None => match crate::simulate::umpire_at(sim, pos) {
                Some(u) => scratch.insert(u),
                None => return false,
            },
        };
        self.answers(umpire)
    }

    /// Whether `umpire` (the player to move) answers every command of the turn as the player
    /// heard it.
    fn answers(&self, umpire: &mut Umpire) -> bool {
        for (command, real) in &self.commands {
            let out = umpire.submit(*command);
            if !real.matches(&out) {
                return false;
            }
            if out.verdict == Verdict::Accepted {
                return true;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::playout::random_game;
    use umpire_rules::{Attempt, Command, RuleSetId, Umpire, Verdict};

    use super::NextTurn;
    use crate::simulate::simulation_rules;
    use umpire_rules::shakmaty::Color;

    /// The umpire that has just played the opponent's move answers the player's next turn as
    /// a fresh umpire built in the position reached does: for every legal move of Black at
    /// each of its turns in random games under every rule set, judged by White's real next
    /// turn.
    #[test]
    fn the_umpire_after_the_move_answers_as_a_fresh_one() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
        let (mut passed, mut failed) = (0u32, 0u32);
        for id in RuleSetId::ALL {
            let rules = *id.rules();
            let sim = simulation_rules(rules);
            for _ in 0..3 {
                let mut game = Umpire::new(rules);
                let mut commands = Vec::new();
                random_game(&mut game, &mut rng, 60, |c, _| commands.push(c));
                // The replay: White's observations by command, and Black's turn starts.
                let mut replay = Umpire::new(rules);
                let mut white = Vec::new();
                let mut starts = Vec::new();
                for &c in &commands {
                    let actor = replay.actor(c);
                    let out = replay.submit(c);
                    if actor == Color::White
                        && let Some(obs) = out.observation(c, Color::White)
                    {
                        white.push(obs);
                    }
                    if out.verdict == Verdict::Accepted && replay.turn() == Color::Black {
                        starts.push((replay.position().clone(), white.len()));
                    }
                }
                for (pos, w) in starts {
                    // White's next turn begins with its observations after this Black turn.
                    let Some(next) = NextTurn::of(Color::White, &white[w..]) else {
                        continue;
                    };
                    let Ok(parent) = Umpire::from_position(sim, pos.clone()) else {
                        continue;
                    };
                    let (mut fresh, mut kept) = (None, None);
                    for m in parent.legal_moves() {
                        let Some(a) = Attempt::from_move(&m) else {
                            continue;
                        };
                        let mut played = parent.clone();
                        if played.submit(Command::Attempt(a)).verdict != Verdict::Accepted {
                            continue;
                        }
                        let want = next.passes(&mut fresh, sim, played.position());
                        assert_eq!(next.passes_after(&mut kept, &played), want, "{id}: {m:?}");
                        if want {
                            passed += 1;
                        } else {
                            failed += 1;
                        }
                    }
                }
            }
        }
        assert!(
            passed > 100 && failed > 100,
            "{passed} passed, {failed} failed"
        );
    }
}
