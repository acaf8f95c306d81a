//! The house agents' turns: a built-in agent seated in the game moves while it is its turn
//! (searching off the runtime's threads) and answers a draw offer made to it.

use umpire_rules::Command;

use super::{Round, index};

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
                    // worker threads, so other games and connections go on meanwhile.
                    Some(mut agent) => {
                        let thought = tokio::task::spawn_blocking(move || {
                            let command = agent.choose();
                            (agent, command)
                        })
                        .await;
                        match thought {
                            Ok((agent, command)) => {
                                self.agents[index(turn)] = Some(agent);
                                (turn, command)
                            }
                            Err(e) => {
                                tracing::error!("game {}: house agent failed: {e}", self.row.id);
                                return;
                            }
                        }
                    }
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
