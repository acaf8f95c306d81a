//! [`HouseAgent`]: a built-in agent seated by the server. It holds only its player's view and
//! is fed only its player's observations, exactly like a remote player.

use umpire_ai::{AGENT_BOUND, Agent, AgentKind, BeliefGuidedAgent, GuidedRandomAgent, RandomAgent};
use umpire_rules::shakmaty::Chess;
use umpire_rules::{Announcement, Command, Observation};
use umpire_view::PlayerView;

use crate::projection::OFFERED_FILTERS;

/// A built-in agent (a concrete type, so that a game task can own it across threads).
#[derive(Debug)]
pub enum HouseAgent {
    /// [`RandomAgent`].
    Random(RandomAgent),
    /// [`GuidedRandomAgent`] over the sound guided filters.
    GuidedRandom(GuidedRandomAgent),
    /// [`BeliefGuidedAgent`] over the sound guided filters and the belief filter.
    BeliefGuided(Box<BeliefGuidedAgent>),
}

impl HouseAgent {
    /// A new agent of `kind` for the player of `view`, seeded.
    pub fn new(kind: AgentKind, view: PlayerView, seed: u64) -> HouseAgent {
        match kind {
            AgentKind::Random => HouseAgent::Random(RandomAgent::new(view, seed)),
            AgentKind::GuidedRandom => {
                HouseAgent::GuidedRandom(GuidedRandomAgent::new(view, seed, OFFERED_FILTERS))
            }
            AgentKind::BeliefGuided => {
                let start = view.standard_start().then(Chess::default);
                HouseAgent::BeliefGuided(Box::new(BeliefGuidedAgent::new(
                    view,
                    seed,
                    OFFERED_FILTERS,
                    start,
                    AGENT_BOUND,
                )))
            }
        }
    }

    fn agent(&mut self) -> &mut dyn Agent {
        match self {
            HouseAgent::Random(a) => a,
            HouseAgent::GuidedRandom(a) => a,
            HouseAgent::BeliefGuided(a) => a.as_mut(),
        }
    }

    /// Takes in the opening announcements.
    pub fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.agent().hear_opening(announcements);
    }

    /// Takes in one observation; false if it did not fit the agent's view (then the agent
    /// resigns rather than play on from a broken view).
    pub fn observe(&mut self, obs: &Observation) -> bool {
        self.agent().observe(obs).is_ok()
    }

    /// The agent's command on its turn.
    pub fn choose(&mut self) -> Command {
        self.agent().choose()
    }

    /// The agent's answer to a draw offer.
    pub fn answer_draw(&mut self) -> Command {
        if self.agent().accepts_draw() {
            Command::AcceptDraw
        } else {
            Command::DeclineDraw
        }
    }
}
