//! The umpire itself (`Umpire`), records (`Record`) and the rule-set table.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use umpire_rules::RuleSetId;
use umpire_rules::record::{Game, Record as CoreRecord};

use super::convert::{color_name, outcome, side_of};
use super::err;
use super::view::PlayerView;
use crate::state::GameConfig;

/// The referee: owns the true position. `submit(command)` returns the verdict and the
/// announcements with their audiences and each player's observation.
#[pyclass(module = "umpire._umpire")]
pub struct Umpire {
    game: Game,
}

#[pymethods]
impl Umpire {
    /// A game under `rules` (a rule-set id) from the standard start or a set-up `fen`.
    #[new]
    #[pyo3(signature = (rules = "wild16", fen = None))]
    fn new(rules: &str, fen: Option<String>) -> PyResult<Umpire> {
        let config = GameConfig::new(rules, fen.clone(), false).map_err(err)?;
        let game = match fen {
            Some(f) => Game::from_fen(config.rules, &f).map_err(err)?,
            None => Game::new(config.rules),
        };
        Ok(Umpire { game })
    }

    /// Judges a command of the side to move (or of `side`, for resignations and draw
    /// answers): an attempt in UCI or SAN as the mover's own board reads it (`e2e4`, `Nf3`),
    /// `any`, `draw offer`, `draw accept`, `draw decline`, `resign`.
    #[pyo3(signature = (command, side = None))]
    fn submit<'py>(
        &mut self,
        py: Python<'py>,
        command: &str,
        side: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let actor = match side {
            Some(s) => side_of(s)?,
            None => self.game.umpire().turn(),
        };
        let command = if actor == self.game.umpire().turn() {
            self.game
                .umpire()
                .own_board()
                .parse_command(command)
                .map_err(err)?
        } else {
            umpire_rules::Command::parse_keyword_or_uci(command)
                .ok_or_else(|| err(format!("{command:?} is not a command")))?
        };
        let out = self.game.submit_as(actor, command);
        outcome(py, command, &out)
    }

    /// The side to move, `"white"` or `"black"`.
    fn turn(&self) -> &'static str {
        color_name(self.game.umpire().turn())
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.umpire().is_over()
    }

    /// The result (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`) and its reason, or None.
    fn result(&self) -> Option<(&'static str, &'static str)> {
        self.game.result().map(|r| (r.score(), r.reason.as_str()))
    }

    /// The moves played.
    fn plies(&self) -> u32 {
        self.game.umpire().plies()
    }

    /// The true position as FEN (referee information).
    fn fen(&self) -> String {
        use umpire_rules::shakmaty::EnPassantMode;
        use umpire_rules::shakmaty::fen::Fen;
        Fen::from_position(self.game.umpire().position(), EnPassantMode::Legal).to_string()
    }

    /// The legal moves in the true position, UCI (referee information).
    fn legal_moves(&self) -> Vec<String> {
        self.game
            .umpire()
            .legal_moves()
            .iter()
            .filter_map(umpire_rules::Attempt::from_move)
            .map(|a| a.to_string())
            .collect()
    }

    /// The game's record so far.
    fn record(&self) -> Record {
        Record {
            inner: self.game.record().clone(),
        }
    }

    /// `side`'s view, rebuilt from its filtered record.
    fn player_view(&self, side: &Bound<'_, PyAny>) -> PyResult<PlayerView> {
        let (_, view) = crate::state::view_of(self.game.record(), side_of(side)?).map_err(err)?;
        Ok(PlayerView { inner: view })
    }
}

/// A game record: lossless JSON, Kriegspiel PGN, and each player's filtered view.
#[pyclass(module = "umpire._umpire", frozen)]
pub struct Record {
    pub(crate) inner: CoreRecord,
}

#[pymethods]
impl Record {
    /// Reads a JSON record.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Record> {
        Ok(Record {
            inner: CoreRecord::from_json(text).map_err(err)?,
        })
    }

    /// Reads a Kriegspiel PGN record (the referee's).
    #[staticmethod]
    fn from_pgn(text: &str) -> PyResult<Record> {
        Ok(Record {
            inner: CoreRecord::from_pgn(text).map_err(err)?,
        })
    }

    /// Reads a record from a file (`.json` or `.pgn`).
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Record> {
        let text =
            std::fs::read_to_string(&path).map_err(|e| err(format!("{}: {e}", path.display())))?;
        if path.extension().is_some_and(|e| e == "pgn") {
            Record::from_pgn(&text)
        } else {
            Record::from_json(&text)
        }
    }

    /// Writes the record to a file (`.pgn` as PGN, otherwise JSON).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        let text = if path.extension().is_some_and(|e| e == "pgn") {
            self.to_pgn()?
        } else {
            self.to_json()
        };
        std::fs::write(&path, text).map_err(|e| err(format!("{}: {e}", path.display())))
    }

    /// The lossless JSON record.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The referee's Kriegspiel PGN.
    fn to_pgn(&self) -> PyResult<String> {
        self.inner.to_pgn().map_err(err)
    }

    /// `side`'s filtered record as PGN (opponent's moves `??`).
    fn player_pgn(&self, side: &Bound<'_, PyAny>) -> PyResult<String> {
        self.inner.player_pgn(side_of(side)?).map_err(err)
    }

    /// `side`'s filtered record as JSON.
    fn player_json(&self, side: &Bound<'_, PyAny>) -> PyResult<String> {
        self.inner.player_json(side_of(side)?).map_err(err)
    }

    /// `side`'s view at the end of the record.
    fn player_view(&self, side: &Bound<'_, PyAny>) -> PyResult<PlayerView> {
        let (_, view) = crate::state::view_of(&self.inner, side_of(side)?).map_err(err)?;
        Ok(PlayerView { inner: view })
    }

    /// Replays the record (checking every verdict and announcement) into an `Umpire`.
    fn replay(&self) -> PyResult<Umpire> {
        Ok(Umpire {
            game: self.inner.replay().map_err(err)?,
        })
    }

    /// The rule-set id.
    #[getter]
    fn rules(&self) -> &'static str {
        self.inner.rules.as_str()
    }

    /// The start position (FEN).
    #[getter]
    fn fen(&self) -> String {
        self.inner.fen.clone()
    }

    /// The commands in order, as text.
    #[getter]
    fn commands(&self) -> Vec<String> {
        self.inner
            .entries
            .iter()
            .map(|e| e.command.to_text())
            .collect()
    }

    /// Who gave each command: 0 (White) or 1 (Black).
    #[getter]
    fn sides(&self) -> Vec<usize> {
        self.inner
            .entries
            .iter()
            .map(|e| crate::state::index(e.side))
            .collect()
    }

    /// The result (`"1-0"`, …) or None.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.inner.result.map(|r| r.score())
    }

    /// The moves played.
    fn plies(&self) -> usize {
        self.inner.plies()
    }

    fn __len__(&self) -> usize {
        self.inner.entries.len()
    }
}

/// Every rule set: a list of dicts with `id`, `name`, `source`, and whether it has "Any?".
#[pyfunction]
pub fn rule_sets<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    RuleSetId::ALL
        .iter()
        .map(|id| {
            let r = id.rules();
            let d = PyDict::new(py);
            d.set_item("id", id.as_str())?;
            d.set_item("name", r.name)?;
            d.set_item("source", r.source)?;
            d.set_item("any_question", r.has_any_question())?;
            Ok(d)
        })
        .collect()
}

/// The rule-set table (Markdown), as `docs/RULESETS.md` shows it.
#[pyfunction]
pub fn rule_table() -> String {
    umpire_rules::rule_table::markdown_table()
}
