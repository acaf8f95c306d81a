//! [`HouseAgent`]: a built-in agent seated by the server. It holds only its player's view and
//! is fed only its player's observations, exactly like a remote player.

use umpire_ai::{Agent, AgentConfig};
use umpire_rules::{Announcement, Command, Observation};
use umpire_view::PlayerView;

use crate::game::projection::OFFERED_FILTERS;
use crate::game::strength::HouseSpec;

/// A built-in agent seated by the server (any [`umpire_ai::AgentKind`]; agents are `Send`, so a game
/// task owns it across threads).
pub struct HouseAgent(Box<dyn Agent>);

impl std::fmt::Debug for HouseAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("HouseAgent").field(&self.0.name()).finish()
    }
}

impl HouseAgent {
    /// A new agent of `spec` (kind and budget) for the player of `view`, seeded, over the
    /// filters the server offers its players.
    pub fn new(spec: HouseSpec, view: PlayerView, seed: u64) -> HouseAgent {
        let mut config = AgentConfig::with_filters(OFFERED_FILTERS);
        config.budget = spec.budget();
        HouseAgent(spec.agent_spec().build(view, seed, &config))
    }

    /// The agent of a game reloaded from storage, caught up with the uninterrupted one: built
    /// fresh, it hears its player's transcript and decides again wherever it decided before
    /// (before each of its own commands: a draw answer where it answered a draw, a choice
    /// anywhere else but at an end the server declared), its decisions thrown away. Its
    /// random generator and whatever state its search keeps then stand where the
    /// uninterrupted agent's stood, and, its budget being nodes (never time), its next
    /// decisions are the same: a game against a house agent replays exactly from its record.
    /// It costs those decisions again, once per load.
    pub fn caught_up(
        spec: HouseSpec,
        view: PlayerView,
        seed: u64,
        transcript: &[Observation],
    ) -> HouseAgent {
        let mut agent = HouseAgent::new(spec, view, seed);
        for obs in transcript {
            if let Some(own) = &obs.own {
                match own.command {
                    Command::AcceptDraw | Command::DeclineDraw => {
                        let _ = agent.answer_draw();
                    }
                    c if c.is_declared_end() => {}
                    _ => {
                        let _ = agent.choose();
                    }
                }
            }
            agent.observe(obs);
        }
        agent
    }

    /// A house agent of an agent built elsewhere (a test's).
    pub fn from_agent(agent: Box<dyn Agent>) -> HouseAgent {
        HouseAgent(agent)
    }

    /// Takes in the opening announcements.
    pub fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.0.hear_opening(announcements);
    }

    /// Takes in one observation; false if it did not fit the agent's view (then the agent
    /// resigns rather than play on from a broken view).
    pub fn observe(&mut self, obs: &Observation) -> bool {
        self.0.observe(obs).is_ok()
    }

    /// The agent's command on its turn.
    pub fn choose(&mut self) -> Command {
        self.0.choose()
    }

    /// The agent's answer to a draw offer.
    pub fn answer_draw(&mut self) -> Command {
        if self.0.accepts_draw() {
            Command::AcceptDraw
        } else {
            Command::DeclineDraw
        }
    }
}
