//! [`AgentKind`]: the built-in agents by name.

use std::fmt;
use std::str::FromStr;

use umpire_view::PlayerView;
use umpire_view::guided::FilterSet;

use crate::{Agent, GuidedRandomAgent, RandomAgent};

/// A built-in agent, by the name used on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// [`RandomAgent`]: uniform over the own board, rejected attempts excluded.
    Random,
    /// [`GuidedRandomAgent`]: uniform over the guided action space.
    GuidedRandom,
}

impl AgentKind {
    /// Every built-in agent.
    pub const ALL: [AgentKind; 2] = [AgentKind::Random, AgentKind::GuidedRandom];

    /// The name (`"random"`, `"guided-random"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::GuidedRandom => "guided-random",
        }
    }

    /// A new agent of this kind with `view`, seeded; `filters` apply to the guided agent only.
    pub fn build(self, view: PlayerView, seed: u64, filters: FilterSet) -> Box<dyn Agent> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(view, seed)),
            AgentKind::GuidedRandom => Box::new(GuidedRandomAgent::new(view, seed, filters)),
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no built-in agent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown agent {0:?} (known: random, guided-random)")]
pub struct UnknownAgent(pub String);

impl FromStr for AgentKind {
    type Err = UnknownAgent;

    fn from_str(s: &str) -> Result<AgentKind, UnknownAgent> {
        let name = s.trim();
        AgentKind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownAgent(name.to_owned()))
    }
}
