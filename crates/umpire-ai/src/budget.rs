//! [`Budget`] (how much a searching agent may think per decision), [`AgentConfig`] (what
//! every built-in agent is built with) and [`Analysis`] (what a searching agent reports of its
//! last decision).

use std::time::Duration;

use umpire_rules::Command;
use umpire_view::guided::FilterSet;

/// How much a searching agent may think per decision. Agents that do not search ignore it.
///
/// A node budget makes a seeded agent deterministic (the same observations and seed give the
/// same choices on any machine); a time budget does not, since the work done in the time
/// depends on the machine and its load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// At most this many search nodes (playouts, expansions or evaluations, as the agent
    /// documents) per decision.
    Nodes(u64),
    /// At most this long per decision (wall-clock).
    Time(Duration),
}

impl Default for Budget {
    /// 100 ms per decision.
    fn default() -> Budget {
        Budget::Time(Duration::from_millis(100))
    }
}

/// What a built-in agent is built with, besides its view and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentConfig {
    /// The guided filters the agents that use the guided action space apply.
    pub filters: FilterSet,
    /// The thinking budget of the searching agents.
    pub budget: Budget,
}

impl Default for AgentConfig {
    /// The sound guided filters and the default budget.
    fn default() -> AgentConfig {
        AgentConfig {
            filters: FilterSet::all_sound(),
            budget: Budget::default(),
        }
    }
}

impl AgentConfig {
    /// The default configuration with these guided filters.
    pub fn with_filters(filters: FilterSet) -> AgentConfig {
        AgentConfig {
            filters,
            ..AgentConfig::default()
        }
    }
}

/// What a searching agent thinks of its last decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The expected result for the agent's player, in [-1, 1] (1: a certain win).
    pub value: f64,
    /// The principal line from the agent's point of view: its chosen command first, then
    /// what it expects to follow (its own later commands; the opponent's hidden replies are
    /// not commands it can name and are left out).
    pub line: Vec<Command>,
    /// Search nodes spent on the decision.
    pub nodes: u64,
}
