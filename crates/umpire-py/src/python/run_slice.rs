//! Slices of match and self-play runs for `umpire.distributed` (the core is
//! `crate::run_slice`): plain dicts, lists and strings, so that Ray can carry them between
//! processes and machines.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::err;
use crate::run_slice::{self, GameRow, MatchRun, SelfplayRun};

fn row<'py>(py: Python<'py>, r: &GameRow) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("rules", r.rules)?;
    d.set_item("fen", &r.fen)?;
    d.set_item("result", r.result)?;
    d.set_item("record", &r.record)?;
    d.set_item("white_view", &r.white_view)?;
    d.set_item("black_view", &r.black_view)?;
    Ok(d)
}

/// Games `[start, end)` of the match `umpire match A B --seed SEED` (or `--run-key`) would
/// play, in order: one dict per game with `index`, `seeds`, `a_white`, `points` (A's),
/// `termination`, `plies`, `fault`, `decisions`, `nodes`, `think_us` (A's, B's) and `row`
/// (the dataset row of `umpire.datasets`).
#[pyfunction]
#[pyo3(signature = (a, b, start, end, rules = "wild16", movetime = None, nodes = None,
                    seed = None, run_key = None, max_plies = 2000))]
#[allow(clippy::too_many_arguments)]
pub fn match_slice<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    start: u64,
    end: u64,
    rules: &str,
    movetime: Option<u64>,
    nodes: Option<u64>,
    seed: Option<u64>,
    run_key: Option<&str>,
    max_plies: u32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let key = run_slice::run_key(seed, run_key).map_err(err)?;
    let budget = run_slice::budget(movetime, nodes).map_err(err)?;
    let run = MatchRun::new(a, b, rules, budget, key, max_plies).map_err(err)?;
    let games = py.detach(|| run.play(start, end)).map_err(err)?;
    games
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            d.set_item("index", g.index)?;
            d.set_item("seeds", g.seeds.to_vec())?;
            d.set_item("a_white", g.a_white)?;
            d.set_item("points", g.points)?;
            d.set_item("termination", g.termination)?;
            d.set_item("plies", g.plies)?;
            d.set_item("fault", g.fault.as_deref())?;
            d.set_item("decisions", g.decisions.to_vec())?;
            d.set_item("nodes", g.nodes.to_vec())?;
            d.set_item("think_us", g.think_us.to_vec())?;
            d.set_item("row", row(py, &g.row)?)?;
            Ok(d)
        })
        .collect()
}

/// Games `[start, end)` of the run `umpire selfplay --agent AGENT --seed SEED` would play, in
/// order: one dict per game with `index`, `outcome` (its line in the summary), `attempts`,
/// `plies` and `row` (the dataset row).
#[pyfunction]
#[pyo3(signature = (agent, start, end, rules = "wild16", fen = None, seed = None,
                    run_key = None, max_plies = 2000))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay_slice<'py>(
    py: Python<'py>,
    agent: &str,
    start: u64,
    end: u64,
    rules: &str,
    fen: Option<String>,
    seed: Option<u64>,
    run_key: Option<&str>,
    max_plies: u32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let key = run_slice::run_key(seed, run_key).map_err(err)?;
    let run = SelfplayRun::new(agent, rules, fen, key, max_plies).map_err(err)?;
    let games = py.detach(|| run.play(start, end)).map_err(err)?;
    games
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            d.set_item("index", g.index)?;
            d.set_item("outcome", &g.outcome)?;
            d.set_item("attempts", g.attempts)?;
            d.set_item("plies", g.plies)?;
            d.set_item("row", row(py, &g.row)?)?;
            Ok(d)
        })
        .collect()
}

/// What `umpire match --json` says of a run besides its games: the agents' names (`a`, `b`),
/// the run's `budget` (None when both agents carry their own) and each agent's `budgets`, and
/// the `run_key` (hex) of a seed or key.
#[pyfunction]
#[pyo3(signature = (a, b, movetime = None, nodes = None, seed = None, run_key = None))]
pub fn match_header<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    movetime: Option<u64>,
    nodes: Option<u64>,
    seed: Option<u64>,
    run_key: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let key = run_slice::run_key(seed, run_key).map_err(err)?;
    let budget = run_slice::budget(movetime, nodes).map_err(err)?;
    let run = MatchRun::new(a, b, "wild16", budget, key, 1).map_err(err)?;
    let [name_a, name_b] = run.names();
    let d = PyDict::new(py);
    d.set_item("a", name_a)?;
    d.set_item("b", name_b)?;
    d.set_item("budget", run.run_budget())?;
    d.set_item("budgets", run.budgets().to_vec())?;
    d.set_item("run_key", key.to_hex())?;
    Ok(d)
}

/// The score (draw = ½), its 95 % interval, the Elo difference and its interval of `wins`,
/// `draws`, `losses`, computed as `umpire match --json` does (None where it writes null).
#[pyfunction]
pub fn tally_figures(
    py: Python<'_>,
    wins: u64,
    draws: u64,
    losses: u64,
) -> PyResult<Bound<'_, PyDict>> {
    let (score, interval, elo, elo_interval) = run_slice::figures(wins, draws, losses);
    let d = PyDict::new(py);
    d.set_item("score", score)?;
    d.set_item("score_interval", interval.map(|(lo, hi)| vec![lo, hi]))?;
    d.set_item("elo", elo)?;
    d.set_item("elo_interval", elo_interval.map(|(lo, hi)| vec![lo, hi]))?;
    Ok(d)
}
