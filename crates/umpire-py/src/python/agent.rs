//! Built-in agents (`Agent`): each holds its own player's view, fed from a state's
//! observations for that player, and chooses a command.

use std::sync::Mutex;

use pyo3::prelude::*;
use umpire_ai::{Agent as CoreAgent, AgentConfig, AgentKind};
use umpire_rules::Command;
use umpire_rules::shakmaty::EnPassantMode;
use umpire_rules::shakmaty::fen::Fen;

use super::convert::side_of;
use super::err;
use super::game::KriegspielState;
use crate::action;

/// A built-in agent (`random`, `guided-random`, `belief-guided`, `mcts`, `darkboard`) for one
/// side, seeded. It hears only its side's observations.
#[pyclass(module = "umpire._umpire")]
pub struct Agent {
    inner: Mutex<Box<dyn CoreAgent>>,
    seen: usize,
    kind: AgentKind,
    /// The start of the agent's game (FEN), to refuse a state of another game.
    start_fen: String,
}

/// The start of a game under `rules` from `fen` (or the standard start), as an umpire there.
pub(crate) fn start_umpire(
    rules: &str,
    fen: Option<String>,
) -> PyResult<(crate::state::GameConfig, umpire_rules::Umpire)> {
    let config = crate::state::GameConfig::new(rules, fen, false).map_err(err)?;
    let umpire = match &config.fen {
        Some(f) => umpire_rules::Umpire::from_fen(config.rules, f).map_err(err)?,
        None => umpire_rules::Umpire::new(config.rules),
    };
    Ok((config, umpire))
}

#[pymethods]
impl Agent {
    /// An agent of `kind` for `side` under `rules`, from `fen` (a set-up start both players
    /// are told) or the standard start, seeded. To join a game under way, make it for the
    /// game's start and hand it the state (`observe`), or use `Agent.for_state`.
    #[new]
    #[pyo3(signature = (kind, side, rules = "wild16", seed = 0, fen = None))]
    fn new(
        kind: &str,
        side: &Bound<'_, PyAny>,
        rules: &str,
        seed: u64,
        fen: Option<String>,
    ) -> PyResult<Agent> {
        Agent::build(kind, side_of(side)?, rules, seed, fen)
    }

    /// An agent of `kind` for `side` (default: the player to move) in `state`'s game, from
    /// any start and at any point: made for the game's start, then handed the observations
    /// of its side so far.
    #[staticmethod]
    #[pyo3(signature = (kind, state, side = None, seed = 0))]
    fn for_state(
        kind: &str,
        state: &KriegspielState,
        side: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<Agent> {
        let side = match side {
            Some(s) => side_of(s)?,
            None => state.inner.game().umpire().turn(),
        };
        let record = state.inner.game().record();
        let mut agent = Agent::build(
            kind,
            side,
            record.rules.as_str(),
            seed,
            Some(record.fen.clone()),
        )?;
        agent.observe(state)?;
        Ok(agent)
    }

    /// The agent's name.
    #[getter]
    fn name(&self) -> String {
        self.kind.as_str().to_owned()
    }

    /// Hands the agent the observations of its side in `state` that it has not had yet.
    fn observe(&mut self, state: &KriegspielState) -> PyResult<()> {
        let mut agent = self
            .inner
            .lock()
            .map_err(|_| err("the agent failed before"))?;
        let side = agent.view().side();
        if state.inner.game().record().fen != self.start_fen {
            return Err(err(format!(
                "this state's game starts from {}, the agent's from {}",
                state.inner.game().record().fen,
                self.start_fen
            )));
        }
        let transcript = state.inner.view(side).transcript();
        if transcript.len() < self.seen {
            return Err(err(
                "this state is not the game the agent has been following",
            ));
        }
        for o in &transcript[self.seen..] {
            agent.observe(o).map_err(err)?;
        }
        self.seen = transcript.len();
        Ok(())
    }

    /// Observes `state`, then chooses: returns the action (an int) for the state's
    /// `apply_action`. Lets go of the interpreter lock while it thinks.
    fn step(&mut self, py: Python<'_>, state: &KriegspielState) -> PyResult<usize> {
        self.observe(state)?;
        let command = self.choose_command(py)?;
        let side = state.inner.game().umpire().turn();
        match command {
            Command::AskAny => Ok(action::ANY_ACTION),
            Command::Attempt(a) => {
                action::encode(a, side).ok_or_else(|| err(format!("{a} has no action")))
            }
            other => Err(err(format!(
                "the agent said {other}, which is not an action"
            ))),
        }
    }

    /// Chooses a command (UCI, `any`, …) from what the agent has observed.
    fn choose(&mut self, py: Python<'_>) -> PyResult<String> {
        Ok(self.choose_command(py)?.to_text())
    }

    /// The agent's own estimate of its position (from its last search), when it has one.
    fn value(&self) -> PyResult<Option<f64>> {
        let agent = self
            .inner
            .lock()
            .map_err(|_| err("the agent failed before"))?;
        Ok(agent.analysis().map(|a| a.value))
    }
}

impl Agent {
    fn build(
        kind: &str,
        side: umpire_rules::shakmaty::Color,
        rules: &str,
        seed: u64,
        fen: Option<String>,
    ) -> PyResult<Agent> {
        let kind: AgentKind = kind.parse().map_err(err)?;
        let (_, umpire) = start_umpire(rules, fen)?;
        let start = Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string();
        // Seated as the match runner seats its agents: the opening announcements heard.
        let (_, agent) = umpire_ai::Seat::new(umpire, side, seed)
            .take(|view, seed| kind.build(view, seed, &AgentConfig::default()));
        Ok(Agent {
            inner: Mutex::new(agent),
            seen: 0,
            kind,
            start_fen: start,
        })
    }

    fn choose_command(&mut self, py: Python<'_>) -> PyResult<Command> {
        let inner = &self.inner;
        py.detach(|| {
            inner
                .lock()
                .map(|mut a| a.choose())
                .map_err(|_| "the agent failed before".to_owned())
        })
        .map_err(err)
    }
}

/// The names of the built-in agents.
#[pyfunction]
pub fn agent_names() -> Vec<&'static str> {
    AgentKind::ALL.iter().map(|k| k.as_str()).collect()
}
