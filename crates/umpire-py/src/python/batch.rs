//! Batched calls that run whole games in Rust, without the interpreter lock.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use umpire_ai::AgentKind;

use super::err;
use crate::batch;
use crate::state::GameConfig;

/// Plays `n` random games (uniform over each mover's own-board options, as `umpire bench`)
/// on `threads` threads; returns counts and the elapsed seconds.
#[pyfunction]
#[pyo3(signature = (n, rules = "wild16", seed = 0, max_plies = 10_000, threads = 1))]
pub fn play_random_games<'py>(
    py: Python<'py>,
    n: u64,
    rules: &str,
    seed: u64,
    max_plies: u32,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let config = GameConfig::new(rules, None, false).map_err(err)?;
    let start = std::time::Instant::now();
    let b = py.detach(|| batch::play_random_games(config.rules, n, seed, max_plies, threads));
    let seconds = start.elapsed().as_secs_f64();
    let d = PyDict::new(py);
    d.set_item("games", b.stats.games)?;
    d.set_item("attempts", b.stats.attempts)?;
    d.set_item("plies", b.stats.plies)?;
    d.set_item("white_wins", b.results[0])?;
    d.set_item("black_wins", b.results[1])?;
    d.set_item("draws", b.results[2])?;
    d.set_item("seconds", seconds)?;
    Ok(d)
}

/// Plays `games` games between built-in agents `a` and `b` (colours alternating); returns
/// `a`'s wins, `b`'s wins and draws.
#[pyfunction]
#[pyo3(signature = (a, b, games = 10, rules = "wild16", seed = 0, max_plies = 1_000))]
pub fn play_match<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    games: u64,
    rules: &str,
    seed: u64,
    max_plies: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let ka: AgentKind = a.parse().map_err(err)?;
    let kb: AgentKind = b.parse().map_err(err)?;
    let config = GameConfig::new(rules, None, false).map_err(err)?;
    let s = py
        .detach(|| batch::match_games(ka, kb, config.rules, games, seed, max_plies))
        .map_err(err)?;
    let d = PyDict::new(py);
    d.set_item("games", s.games)?;
    d.set_item("a_wins", s.wins[0])?;
    d.set_item("b_wins", s.wins[1])?;
    d.set_item("draws", s.wins[2])?;
    d.set_item("attempts", s.attempts)?;
    d.set_item("plies", s.plies)?;
    Ok(d)
}
