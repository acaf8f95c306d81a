//! Built-in agents (`Agent`): each holds its own player's view, fed from a state's
//! observations for that player, and chooses a command.

use std::sync::Mutex;

use pyo3::prelude::*;
use umpire_ai::{Agent as CoreAgent, AgentConfig, AgentKind};
use umpire_rules::Command;

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
}

#[pymethods]
impl Agent {
    /// An agent of `kind` for `side` under `rules`, from the standard start, seeded.
    #[new]
    #[pyo3(signature = (kind, side, rules = "wild16", seed = 0))]
    fn new(kind: &str, side: &Bound<'_, PyAny>, rules: &str, seed: u64) -> PyResult<Agent> {
        let kind: AgentKind = kind.parse().map_err(err)?;
        let config = crate::state::GameConfig::new(rules, None, false).map_err(err)?;
        let side = side_of(side)?;
        let view = umpire_view::PlayerView::standard(config.rules, side);
        let mut agent = kind.build(view, seed, &AgentConfig::default());
        // The opening announcements are public, as the match runner hands them to both.
        let opening: Vec<_> = umpire_rules::Umpire::new(config.rules)
            .opening_announcements()
            .iter()
            .map(|h| h.announcement)
            .collect();
        agent.hear_opening(&opening);
        Ok(Agent {
            inner: Mutex::new(agent),
            seen: 0,
            kind,
        })
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
