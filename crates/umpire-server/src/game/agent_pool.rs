//! [`think`]: a house agent's decision, run off the runtime's threads under a server-wide bound
//! with a fair queue, and survived if the agent panics.
//!
//! One decision of a strong agent takes up to ~0.4 CPU-seconds; without a bound, many games
//! against house agents would take every core from the sockets and the other games. At most
//! [`MAX_THINKING_AGENTS`] decisions run at once in the whole server; the others wait in a
//! first-come first-served queue (tokio's semaphore is fair: permits go in the order asked),
//! and each game asks for one decision at a time, so no game waits behind another's
//! several turns.

use std::sync::OnceLock;

use tokio::sync::Semaphore;
use umpire_rules::Command;

use crate::game::house_agent::HouseAgent;

/// The most house-agent decisions running at once in the server: 2 (one per core of a small
/// machine; the runtime's own threads keep serving meanwhile).
pub const MAX_THINKING_AGENTS: usize = 2;

/// The server-wide queue of house-agent decisions.
fn queue() -> &'static Semaphore {
    static QUEUE: OnceLock<Semaphore> = OnceLock::new();
    QUEUE.get_or_init(|| Semaphore::new(MAX_THINKING_AGENTS))
}

/// Why a house agent gave no decision.
#[derive(Debug)]
pub enum Failed {
    /// It panicked (the agent is lost; the game must not wait for it).
    Panicked(String),
}

/// The agent's command on its turn, decided on a blocking thread once the server-wide queue
/// lets it; the agent comes back with it. `Err` if it panicked (the agent is then gone).
pub async fn think(mut agent: HouseAgent) -> Result<(HouseAgent, Command), Failed> {
    // The semaphore is never closed: acquiring only waits.
    let _permit = queue().acquire().await;
    tokio::task::spawn_blocking(move || {
        let command = agent.choose();
        (agent, command)
    })
    .await
    .map_err(|e| Failed::Panicked(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_ai::Agent;
    use umpire_rules::{Announcement, Observation, RuleSet};
    use umpire_view::{PlayerView, ViewError};

    /// An agent whose decision panics.
    struct Panicking(PlayerView);

    impl Agent for Panicking {
        fn name(&self) -> &str {
            "panicking"
        }
        fn view(&self) -> &PlayerView {
            &self.0
        }
        fn hear_opening(&mut self, _: &[Announcement]) {}
        fn observe(&mut self, _: &Observation) -> Result<(), ViewError> {
            Ok(())
        }
        fn choose(&mut self) -> Command {
            panic!("a bug in the agent")
        }
    }

    #[tokio::test]
    async fn a_panicking_agent_is_reported_not_waited_for() {
        let view = PlayerView::standard(RuleSet::default(), umpire_rules::shakmaty::Color::White);
        let agent = HouseAgent::from_agent(Box::new(Panicking(view)));
        assert!(matches!(think(agent).await, Err(Failed::Panicked(_))));
        // The permit came back: the queue is whole again.
        assert_eq!(queue().available_permits(), MAX_THINKING_AGENTS);
    }
}
