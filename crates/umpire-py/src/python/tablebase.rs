//! `Tablebase`: Kriegspiel endgame tables (`crate::tablebase`), built, saved, loaded and
//! probed from Python.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use umpire_rules::shakmaty::Square;
use umpire_tablebase::{BuildOptions, Ending, Tablebase as CoreTable, squares_text};

use super::err;
use super::game::KriegspielState;
use crate::tablebase::{self, TableAnswer};

/// A Kriegspiel endgame table (KRK, KQK, KBBK or KBNK, `wild16`, White to move).
#[pyclass(module = "umpire._umpire", frozen)]
pub struct Tablebase {
    inner: CoreTable,
}

fn answer_dict<'py>(py: Python<'py>, a: &TableAnswer) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("wdl", a.wdl.as_str())?;
    d.set_item("dtm", a.probe.distance)?;
    d.set_item(
        "best",
        a.probe
            .best
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("squares", squares_text(a.probe.set))?;
    d.set_item("dropped", squares_text(a.probe.dropped))?;
    d.set_item("exact", a.exact)?;
    d.set_item("white", a.probe.layout.to_string())?;
    Ok(d)
}

#[pymethods]
impl Tablebase {
    /// Builds the table of `ending` (`"krk"`, `"kqk"`, `"kbbk"`, `"kbnk"`) up to `max_depth`
    /// White moves (None: complete) on `threads` threads (1 to 64), without the interpreter
    /// lock. KRK takes about a second; KBNK about a minute.
    #[staticmethod]
    #[pyo3(signature = (ending, max_depth = None, threads = 1))]
    fn build(
        py: Python<'_>,
        ending: &str,
        max_depth: Option<u8>,
        threads: usize,
    ) -> PyResult<Tablebase> {
        let ending: Ending = ending.parse().map_err(err)?;
        let options = BuildOptions {
            max_depth: max_depth.unwrap_or(u8::MAX),
            threads: threads.clamp(1, 64),
        };
        let inner = py.detach(|| CoreTable::build(ending, options, |_| {}));
        Ok(Tablebase { inner })
    }

    /// Loads a table file (as `umpire tablebase build` or `save` write it).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Tablebase> {
        let inner = py.detach(|| CoreTable::load(&path)).map_err(err)?;
        Ok(Tablebase { inner })
    }

    /// Writes the table to `path`.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.inner.save(&path)).map_err(err)
    }

    /// The ending (`"krk"`, …).
    #[getter]
    fn ending(&self) -> &'static str {
        self.inner.ending().as_str()
    }

    /// Whether the build ran to the end (else it stopped at a depth limit).
    #[getter]
    fn is_complete(&self) -> bool {
        self.inner.is_complete()
    }

    /// The longest forced mate in the table, in White moves.
    #[getter]
    fn longest_mate(&self) -> u8 {
        self.inner.longest_mate()
    }

    /// Probes a position given as FEN (White to move; White's king and one or two of Q, R,
    /// B, N; Black's lone king). With `squares` (names such as `"h8"`), the black king may be
    /// on any of them instead (what White knows). Returns a dict: `wdl` (`"win"`, `"draw"`:
    /// no forced mate in a complete table, `"unknown"`: none within a depth-limited table's
    /// depth), `dtm` (mate in that many White moves, or None), `best` (the attempts that
    /// keep it, UCI), `squares`, `dropped` (squares left out as impossible), `exact`,
    /// `white`. Raises `UmpireError` for a position no table answers.
    #[pyo3(signature = (fen, squares = None))]
    fn probe<'py>(
        &self,
        py: Python<'py>,
        fen: &str,
        squares: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let parsed: Option<Vec<Square>> = squares
            .map(|list| {
                list.iter()
                    .map(|s| {
                        s.trim()
                            .parse::<Square>()
                            .map_err(|_| err(format!("{s:?} is not a square (a1 to h8)")))
                    })
                    .collect::<PyResult<Vec<_>>>()
            })
            .transpose()?;
        let a = tablebase::probe_fen(&self.inner, fen, parsed.as_deref()).map_err(err)?;
        answer_dict(py, &a)
    }

    /// Probes what White knows in `state`'s game (`wild16`, White to move, White's king and
    /// one or two men, Black's king alone or not yet known to be), from White's view alone:
    /// its men and the squares where the black king may be. The same dict as `probe`.
    fn probe_state<'py>(
        &self,
        py: Python<'py>,
        state: &KriegspielState,
    ) -> PyResult<Bound<'py, PyDict>> {
        let record = state.inner.game().record();
        let ply = record.plies();
        let a = tablebase::probe_white_view(&self.inner, record, ply).map_err(err)?;
        answer_dict(py, &a)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tablebase {} {} longest mate {}>",
            self.inner.ending(),
            if self.inner.is_complete() {
                "complete"
            } else {
                "depth-limited"
            },
            self.inner.longest_mate()
        )
    }
}
