//! The house agents' turns: a built-in agent seated in the game moves while it is its turn
//! (searching off the runtime's threads, in the server-wide queue of
//! [`crate::game::agent_pool`]) and answers a draw offer made to it; an agent that panics
//! resigns.

use umpire_rules::Command;

use super::{Round, index};
use crate::game::agent_pool::{Failed, think};

/// The longest run of house-agent commands judged in one go (a guard; games end far sooner).
const MAX_AGENT_RUN: usize = 100_000;

impl Round {
    /// Lets the house agents act while it is their turn (or a draw offer awaits their answer).
    pub(super) async fn run_agents(&mut self) {
        for _ in 0..MAX_AGENT_RUN {
            if self.row.status != "live" || self.is_over() {
                return;
            }
            let umpire = self.game.umpire();
            let turn = umpire.turn();
            let answerer = umpire.actor(Command::AcceptDraw);
            let (side, command) = match (answerer != turn, &mut self.agents) {
                (true, agents) if agents[index(answerer)].is_some() => {
                    let agent = agents[index(answerer)].as_mut().expect("checked");
                    (answerer, agent.answer_draw())
                }
                (_, agents) => match agents[index(turn)].take() {
                    // A searching agent thinks for up to its budget: off the runtime's
                    // worker threads, in the server-wide queue of decisions, so other games
                    // and connections go on meanwhile.
                    Some(agent) => match think(agent).await {
                        Ok((agent, command)) => {
                            self.agents[index(turn)] = Some(agent);
                            (turn, command)
                        }
                        // The agent is lost: it resigns, so that the game ends now instead of
                        // waiting for a move that never comes until the flag falls.
                        Err(Failed::Panicked(e)) => {
                            tracing::error!(
                                "game {}: house agent panicked ({e}); it resigns",
                                self.row.id
                            );
                            (turn, Command::Resign)
                        }
                    },
                    None => return,
                },
            };
            if let Err(e) = self.command(side, command, None).await {
                tracing::warn!("game {}: house agent command refused: {e}", self.row.id);
                return;
            }
        }
    }
}
