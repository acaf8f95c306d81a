//! [`AgentSpec`]: an agent as named on the command line — a built-in kind (optionally with its
//! own budget, `NAME@BUDGET`) or `cmd:PROGRAM ARGS`, an outside program spoken to over the
//! engine protocol.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use umpire_view::PlayerView;

use crate::engine::{EngineAgent, EngineFault};
use crate::gauntlet::TrueBoard;
use crate::tuning::{Tuning, parse_budget};
use crate::{Agent, AgentConfig, AgentKind, Budget};

/// The prefix naming an outside program.
pub const CMD_PREFIX: &str = "cmd:";

/// The separator of a built-in agent's own budget: `mcts@4000` (4,000 nodes per decision) or
/// `mcts@500ms` (500 ms per decision).
pub const BUDGET_SEPARATOR: char = '@';

/// An agent by name: the one place names are read (`umpire play`, `selfplay`, `match`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AgentSpec {
    /// A built-in agent.
    Builtin(AgentKind),
    /// `NAME@BUDGET`: a built-in agent thinking with this budget whatever the others are
    /// given (`@N`: N nodes per decision; `@Nms`: N milliseconds).
    Budgeted(AgentKind, Budget),
    /// `mcts@BUDGET/repair=R/bound=B`: `mcts` with its own budget and belief ([`Tuning`]; only
    /// `mcts` is tuned this way).
    Tuned(AgentKind, Tuning),
    /// `cmd:PROGRAM ARGS`: the program and its arguments (split at white space; no quoting).
    Command(Vec<String>),
}

/// A name that is neither a built-in agent nor `cmd:PROGRAM`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown agent {name:?} (known: {known}, each optionally with its own budget as NAME@N nodes or NAME@Nms, or cmd:PROGRAM ARGS for an engine-protocol program)"
)]
pub struct UnknownSpec {
    /// The name given.
    pub name: String,
    /// The known names, comma-separated.
    pub known: String,
}

/// The built-in agents' names, comma-separated.
pub fn known_agents() -> String {
    AgentKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the error says of a cheating agent's name given where only fair agents are offered.
pub const CHEATING_HINT: &str = "peek sees the true board (a cheating yardstick) and is offered only by `umpire match --allow-cheating-agents`";

impl FromStr for AgentSpec {
    type Err = UnknownSpec;

    /// A fair agent by name ([`AgentKind::ALL`]) or `cmd:`; never a cheating one.
    fn from_str(s: &str) -> Result<AgentSpec, UnknownSpec> {
        AgentSpec::parse_with(s, false)
    }
}

impl AgentSpec {
    /// [`AgentSpec::from_str`], also accepting the cheating agents ([`AgentKind::CHEATING`]) —
    /// for `umpire match --allow-cheating-agents` only.
    pub fn parse_allowing_cheating(s: &str) -> Result<AgentSpec, UnknownSpec> {
        AgentSpec::parse_with(s, true)
    }

    /// Whether this agent sees more than its player may.
    pub fn is_cheating(&self) -> bool {
        match self {
            AgentSpec::Builtin(kind) | AgentSpec::Budgeted(kind, _) | AgentSpec::Tuned(kind, _) => {
                kind.is_cheating()
            }
            AgentSpec::Command(_) => false,
        }
    }

    /// Whether this agent plays the tablebase endings ([`AgentKind::uses_tables`]; an outside
    /// program loads its own).
    pub fn uses_tables(&self) -> bool {
        match self {
            AgentSpec::Builtin(kind) | AgentSpec::Budgeted(kind, _) | AgentSpec::Tuned(kind, _) => {
                kind.uses_tables()
            }
            AgentSpec::Command(_) => false,
        }
    }

    fn parse_with(s: &str, cheating: bool) -> Result<AgentSpec, UnknownSpec> {
        let name = s.trim();
        let unknown = || UnknownSpec {
            name: name.to_owned(),
            known: known_agents(),
        };
        if let Some(rest) = name.strip_prefix(CMD_PREFIX) {
            let argv: Vec<String> = rest.split_whitespace().map(str::to_owned).collect();
            if argv.is_empty() {
                return Err(unknown());
            }
            return Ok(AgentSpec::Command(argv));
        }
        let (kind_name, budget) = match name.split_once(BUDGET_SEPARATOR) {
            Some((kind_name, budget)) => (kind_name, Some(budget)),
            None => (name, None),
        };
        let named = |k: &AgentKind| k.as_str().eq_ignore_ascii_case(kind_name.trim());
        let kind = match AgentKind::ALL.into_iter().find(named) {
            Some(kind) => kind,
            None => match AgentKind::CHEATING.into_iter().find(named) {
                Some(kind) if cheating => kind,
                Some(_) => {
                    return Err(UnknownSpec {
                        name: name.to_owned(),
                        known: format!("{}; {CHEATING_HINT}", known_agents()),
                    });
                }
                None => return Err(unknown()),
            },
        };
        match budget {
            None => Ok(AgentSpec::Builtin(kind)),
            Some(text) if text.contains('/') => match Tuning::parse(text) {
                Some(tuning) if kind == AgentKind::Mcts => Ok(AgentSpec::Tuned(kind, tuning)),
                _ => Err(unknown()),
            },
            Some(text) => parse_budget(text)
                .map(|b| AgentSpec::Budgeted(kind, b))
                .ok_or_else(unknown),
        }
    }
}

impl From<AgentKind> for AgentSpec {
    fn from(kind: AgentKind) -> AgentSpec {
        AgentSpec::Builtin(kind)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Builtin(kind) => f.write_str(kind.as_str()),
            AgentSpec::Budgeted(kind, Budget::Nodes(n)) => {
                write!(f, "{}{BUDGET_SEPARATOR}{n}", kind.as_str())
            }
            AgentSpec::Budgeted(kind, Budget::Time(t)) => {
                write!(f, "{}{BUDGET_SEPARATOR}{}ms", kind.as_str(), t.as_millis())
            }
            AgentSpec::Tuned(kind, tuning) => {
                write!(f, "{}{BUDGET_SEPARATOR}{tuning}", kind.as_str())
            }
            AgentSpec::Command(argv) => write!(f, "{CMD_PREFIX}{}", argv.join(" ")),
        }
    }
}

/// How long an engine may take to answer under `budget`: twice a time budget plus five
/// seconds, or a minute under a node budget.
pub fn engine_timeout(budget: Budget) -> Duration {
    match budget {
        Budget::Time(t) => t.saturating_mul(2) + Duration::from_secs(5),
        Budget::Nodes(_) => Duration::from_secs(60),
    }
}

impl AgentSpec {
    /// Whether this agent carries its own budget (`NAME@BUDGET`, a tuned `mcts`), so that the
    /// budget given to the others ([`AgentSpec::budget`]'s argument) is not its.
    pub fn has_own_budget(&self) -> bool {
        matches!(self, AgentSpec::Budgeted(..) | AgentSpec::Tuned(..))
    }

    /// The budget this agent thinks with when the others are given `budget`: its own for
    /// `NAME@BUDGET`, else `budget`.
    pub fn budget(&self, budget: Budget) -> Budget {
        match self {
            AgentSpec::Budgeted(_, own) => *own,
            AgentSpec::Tuned(_, tuning) => tuning.budget,
            _ => budget,
        }
    }

    /// The agent for `view` (a view before the first observation), seeded, built with
    /// `config` (its budget replaced by the agent's own for `NAME@BUDGET`); an outside program
    /// is started now and answers within [`engine_timeout`]`(config.budget)`.
    pub fn build(&self, view: PlayerView, seed: u64, config: &AgentConfig) -> Box<dyn Agent> {
        self.build_watched(view, seed, config, engine_timeout(config.budget))
            .0
    }

    /// [`AgentSpec::build`] with the engine timeout given, also returning an outside
    /// program's fault slot (`None` for a built-in agent). A cheating agent built here plays
    /// blind; see [`AgentSpec::build_seeing`].
    pub fn build_watched(
        &self,
        view: PlayerView,
        seed: u64,
        config: &AgentConfig,
        timeout: Duration,
    ) -> (Box<dyn Agent>, Option<EngineFault>) {
        self.build_seeing(view, seed, config, timeout, &TrueBoard::new())
    }

    /// [`AgentSpec::build_watched`], a cheating agent reading the true position from `truth`
    /// (the caller, who referees the game, keeps it up to date). Fair agents never hold it.
    pub fn build_seeing(
        &self,
        view: PlayerView,
        seed: u64,
        config: &AgentConfig,
        timeout: Duration,
        truth: &TrueBoard,
    ) -> (Box<dyn Agent>, Option<EngineFault>) {
        match self {
            AgentSpec::Builtin(kind) => (kind.build_seeing(view, seed, config, truth), None),
            AgentSpec::Budgeted(kind, budget) => {
                let own = AgentConfig {
                    budget: *budget,
                    ..*config
                };
                (kind.build_seeing(view, seed, &own, truth), None)
            }
            AgentSpec::Tuned(_, tuning) => (tuning.build_mcts(view, seed, config), None),
            AgentSpec::Command(argv) => {
                let agent = EngineAgent::spawn(argv, view, seed, config.budget, timeout);
                let fault = agent.fault();
                (Box::new(agent), Some(fault))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        assert_eq!(
            "random".parse::<AgentSpec>(),
            Ok(AgentSpec::Builtin(AgentKind::Random))
        );
        assert_eq!(
            " Guided-Random ".parse::<AgentSpec>(),
            Ok(AgentSpec::Builtin(AgentKind::GuidedRandom))
        );
        let cmd: AgentSpec = "cmd:python3  engine.py --x 1".parse().unwrap();
        assert_eq!(
            cmd,
            AgentSpec::Command(vec![
                "python3".into(),
                "engine.py".into(),
                "--x".into(),
                "1".into()
            ])
        );
        assert_eq!(cmd.to_string(), "cmd:python3 engine.py --x 1");
    }

    #[test]
    fn an_own_budget_follows_the_name() {
        let nodes: AgentSpec = "MCTS@4000".parse().unwrap();
        assert_eq!(
            nodes,
            AgentSpec::Budgeted(AgentKind::Mcts, Budget::Nodes(4000))
        );
        assert_eq!(nodes.to_string(), "mcts@4000");
        assert_eq!(nodes.budget(Budget::Nodes(400)), Budget::Nodes(4000));
        let time: AgentSpec = "darkboard@250ms".parse().unwrap();
        assert_eq!(
            time,
            AgentSpec::Budgeted(
                AgentKind::Darkboard,
                Budget::Time(Duration::from_millis(250))
            )
        );
        assert_eq!(time.to_string(), "darkboard@250ms");
        let tuned: AgentSpec = "mcts@16000/repair=32000/bound=512".parse().unwrap();
        assert_eq!(
            tuned,
            AgentSpec::Tuned(
                AgentKind::Mcts,
                Tuning::parse("16000/repair=32000/bound=512").unwrap()
            )
        );
        assert_eq!(tuned.to_string(), "mcts@16000/repair=32000/bound=512");
        assert_eq!(tuned.budget(Budget::Nodes(400)), Budget::Nodes(16_000));
        // Only mcts keeps a belief tuned this way.
        assert!("darkboard@1000/bound=512".parse::<AgentSpec>().is_err());
        let plain: AgentSpec = "mcts".parse().unwrap();
        assert_eq!(plain.budget(Budget::Nodes(400)), Budget::Nodes(400));
        assert!(nodes.has_own_budget() && time.has_own_budget() && tuned.has_own_budget());
        assert!(!plain.has_own_budget());
        let cmd: AgentSpec = "cmd:engine".parse().unwrap();
        assert!(!cmd.has_own_budget());
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let e = "rnadom".parse::<AgentSpec>().unwrap_err();
        let text = e.to_string();
        assert!(text.contains("\"rnadom\""), "{text}");
        for kind in AgentKind::ALL {
            assert!(text.contains(kind.as_str()), "{text}");
        }
        assert!(text.contains("cmd:PROGRAM"), "{text}");
        assert!("cmd:".parse::<AgentSpec>().is_err());
        for bad in [
            "mcts@", "mcts@0", "mcts@ms", "mcts@-5", "mcts@1.5", "mcts@10s", "nope@100",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
        assert!("cmd:   ".parse::<AgentSpec>().is_err());
    }

    #[test]
    fn the_cheating_agent_parses_only_when_allowed() {
        let refused = "peek".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(refused.contains("--allow-cheating-agents"), "{refused}");
        assert!(!known_agents().contains("peek"));
        let peek = AgentSpec::parse_allowing_cheating("peek").unwrap();
        assert_eq!(peek, AgentSpec::Builtin(AgentKind::Peek));
        assert!(peek.is_cheating());
        let raider: AgentSpec = "raider".parse().unwrap();
        assert!(!raider.is_cheating());
        assert_eq!(AgentSpec::parse_allowing_cheating("raider"), Ok(raider));
    }
}
