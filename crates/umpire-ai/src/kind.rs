//! [`AgentKind`]: the built-in agents by name.

use std::fmt;
use std::str::FromStr;

use umpire_rules::shakmaty::Chess;
use umpire_view::PlayerView;

use crate::gauntlet::{PeekAgent, RaiderAgent, TrueBoard};
use crate::{
    AGENT_BOUND, Agent, AgentConfig, BeliefGuidedAgent, DarkboardAgent, GuidedRandomAgent,
    RandomAgent,
};

/// A built-in agent, by the name used on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// [`RandomAgent`]: uniform over the own board, rejected attempts excluded.
    Random,
    /// [`GuidedRandomAgent`]: uniform over the guided action space.
    GuidedRandom,
    /// [`BeliefGuidedAgent`]: the guided action space narrowed by the belief filter (exact
    /// while the consistent set is at most [`AGENT_BOUND`], sampled beyond).
    BeliefGuided,
    /// [`MctsAgent`](crate::mcts::MctsAgent): Monte Carlo tree search over the belief, wrapped
    /// in the [`Endgame`](crate::endgame::Endgame) technique.
    Mcts,
    /// [`DarkboardAgent`]: weighted maximax over metapositions (seed 001), wrapped in the
    /// [`Endgame`](crate::endgame::Endgame) technique.
    Darkboard,
    /// [`RaiderAgent`](crate::gauntlet::RaiderAgent): an aggressive club player (captures,
    /// likely checks, recaptures on the announced square); a fair agent of the gauntlet.
    Raider,
    /// [`PeekAgent`](crate::gauntlet::PeekAgent): **cheats** (sees the true board); only in
    /// [`AgentKind::CHEATING`], never in [`AgentKind::ALL`], never parsed by name here. Built
    /// by [`AgentKind::build`] it has no true board and plays blind; the match runner gives it
    /// one ([`AgentKind::build_seeing`]).
    Peek,
}

impl AgentKind {
    /// Every fair built-in agent (what the server, `umpire play` and the engine offer).
    pub const ALL: [AgentKind; 6] = [
        AgentKind::Random,
        AgentKind::GuidedRandom,
        AgentKind::BeliefGuided,
        AgentKind::Mcts,
        AgentKind::Darkboard,
        AgentKind::Raider,
    ];

    /// The agents that see more than their player may (measurement yardsticks only).
    pub const CHEATING: [AgentKind; 1] = [AgentKind::Peek];

    /// Whether the agent sees more than its player may ([`AgentKind::CHEATING`]).
    pub const fn is_cheating(self) -> bool {
        matches!(self, AgentKind::Peek)
    }

    /// Whether the agent plays the tablebase endings ([`crate::endgame::Endgame`] wraps it),
    /// so that whoever runs it loads the tables first ([`crate::endgame::prepare_tables`]).
    pub const fn uses_tables(self) -> bool {
        matches!(
            self,
            AgentKind::Mcts | AgentKind::Raider | AgentKind::Darkboard
        )
    }

    /// The name (`"random"`, `"guided-random"`, `"belief-guided"`, `"mcts"`, `"darkboard"`,
    /// `"raider"`, `"peek"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::GuidedRandom => "guided-random",
            AgentKind::BeliefGuided => "belief-guided",
            AgentKind::Mcts => "mcts",
            AgentKind::Darkboard => "darkboard",
            AgentKind::Raider => "raider",
            AgentKind::Peek => "peek",
        }
    }

    /// What the agent does, in one line for a command's help (no trailing full stop).
    pub const fn summary(self) -> &'static str {
        match self {
            AgentKind::Random => "uniform over the moves of its own board (weakest)",
            AgentKind::GuidedRandom => "uniform over the moves that could still be legal",
            AgentKind::BeliefGuided => "guided-random narrowed by what it believes",
            AgentKind::Mcts => "Monte Carlo tree search over its belief (strong)",
            AgentKind::Darkboard => "maximax over metapositions, after Darkboard (strong)",
            AgentKind::Raider => "an aggressive club player: captures, checks, recaptures",
            AgentKind::Peek => "CHEATS: sees the true board (a yardstick for umpire match only)",
        }
    }

    /// Every built-in agent, one line each (`  NAME  summary`), for a command's help.
    pub fn catalogue() -> String {
        let width = AgentKind::ALL
            .iter()
            .map(|k| k.as_str().len())
            .max()
            .unwrap_or(0);
        AgentKind::ALL
            .iter()
            .map(|k| format!("  {:width$}  {}", k.as_str(), k.summary()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A new agent of this kind with `view`, seeded, built with `config` (the filters apply to
    /// the guided agents, the budget to the searching ones).
    /// The belief-guided agent keeps a belief only from the standard start (a set-up start
    /// is not in the view; build [`BeliefGuidedAgent`] directly to give it).
    pub fn build(self, view: PlayerView, seed: u64, config: &AgentConfig) -> Box<dyn Agent> {
        self.build_seeing(view, seed, config, &TrueBoard::new())
    }

    /// [`AgentKind::build`], a cheating agent reading the true position from `truth` (which
    /// the caller keeps up to date); the fair agents ignore it and never hold it.
    pub fn build_seeing(
        self,
        view: PlayerView,
        seed: u64,
        config: &AgentConfig,
        truth: &TrueBoard,
    ) -> Box<dyn Agent> {
        let filters = config.filters;
        match self {
            AgentKind::Raider => {
                let start = view.standard_start().then(Chess::default);
                // The raid ends in the same mating technique as the searching agents' (as it
                // was when the yardstick was set: without the surplus play, the stalemate
                // guard or the capture tries as the clock runs).
                Box::new(crate::endgame::Endgame::with_config(
                    RaiderAgent::new(view, seed, start, config.budget),
                    crate::endgame::EndgameConfig {
                        surplus: false,
                        stalemate_guard: false,
                        capture_tries: false,
                        ..crate::endgame::EndgameConfig::default()
                    },
                ))
            }
            AgentKind::Peek => Box::new(PeekAgent::new(view, truth.clone(), seed)),
            AgentKind::Random => Box::new(RandomAgent::new(view, seed)),
            AgentKind::GuidedRandom => Box::new(GuidedRandomAgent::new(view, seed, filters)),
            AgentKind::BeliefGuided => {
                let start = view.standard_start().then(Chess::default);
                Box::new(BeliefGuidedAgent::new(
                    view,
                    seed,
                    filters,
                    start,
                    AGENT_BOUND,
                ))
            }
            AgentKind::Mcts => {
                let start = view.standard_start().then(Chess::default);
                let mcts = crate::mcts::MctsAgent::new(
                    view,
                    seed,
                    start,
                    crate::mcts::MctsConfig::from_agent_config(config),
                );
                Box::new(crate::endgame::Endgame::new(mcts))
            }
            // Darkboard closes the mating net itself, with its own root terms; the yardstick
            // keeps the tables as they were when it was set (without the surplus play).
            AgentKind::Darkboard => Box::new(crate::endgame::Endgame::with_config(
                DarkboardAgent::new(view, seed, config),
                crate::endgame::EndgameConfig {
                    net: false,
                    surplus: false,
                    ..crate::endgame::EndgameConfig::default()
                },
            )),
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
#[error(
    "unknown agent {0:?} (known: random, guided-random, belief-guided, mcts, darkboard, raider)"
)]
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

#[cfg(test)]
mod tests {
    use super::AgentKind;

    #[test]
    fn the_catalogue_names_every_agent_once_on_its_own_line() {
        let text = AgentKind::catalogue();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), AgentKind::ALL.len());
        for (line, kind) in lines.iter().zip(AgentKind::ALL) {
            assert_eq!(line.split_whitespace().next(), Some(kind.as_str()));
            assert!(line.ends_with(kind.summary()));
        }
    }
}
