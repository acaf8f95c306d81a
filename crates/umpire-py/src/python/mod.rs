//! The PyO3 layer (feature `python`): a thin wrapper of the pure-Rust core, as the module
//! `umpire._umpire`. Errors become `umpire.UmpireError` (a `ValueError`) carrying the Rust
//! message; long calls let go of the interpreter lock (`Python::detach`).

mod agent;
mod batch;
mod convert;
mod game;
mod record;
mod run_slice;
mod tablebase;
mod vector;
mod view;

use pyo3::prelude::*;

pyo3::create_exception!(
    _umpire,
    UmpireError,
    pyo3::exceptions::PyValueError,
    "An error reported by Umpire (bad rule set, position, action, record, …)."
);

/// Turns any displayable error into an `UmpireError`.
pub(crate) fn err(e: impl std::fmt::Display) -> PyErr {
    UmpireError::new_err(e.to_string())
}

/// The native module.
#[pymodule]
fn _umpire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("UmpireError", m.py().get_type::<UmpireError>())?;
    m.add("NUM_ACTIONS", crate::action::NUM_ACTIONS)?;
    m.add("ANY_ACTION", crate::action::ANY_ACTION)?;
    m.add("STANDARD_FEN", umpire_rules::record::STANDARD_FEN)?;
    m.add("TENSOR_PLANES", crate::tensor::PLANES)?;
    m.add("BELIEF_PLANES", crate::tensor::BELIEF_PLANES)?;
    m.add("MAX_STACK", crate::tensor::MAX_STACK)?;
    m.add("PLANE_NAMES", crate::tensor::PLANE_NAMES.to_vec())?;
    m.add_class::<game::KriegspielGame>()?;
    m.add_class::<game::KriegspielState>()?;
    m.add_class::<record::Umpire>()?;
    m.add_class::<record::Record>()?;
    m.add_class::<view::PlayerView>()?;
    m.add_class::<view::Belief>()?;
    m.add_class::<agent::Agent>()?;
    m.add_class::<vector::VectorEnvCore>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::encode_action, m)?)?;
    m.add_function(wrap_pyfunction!(game::decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(record::rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(record::rule_table, m)?)?;
    m.add_function(wrap_pyfunction!(batch::play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(batch::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(agent::agent_names, m)?)?;
    m.add_function(wrap_pyfunction!(view::read_engine_request, m)?)?;
    m.add_function(wrap_pyfunction!(run_slice::match_slice, m)?)?;
    m.add_function(wrap_pyfunction!(run_slice::selfplay_slice, m)?)?;
    m.add_function(wrap_pyfunction!(run_slice::match_header, m)?)?;
    m.add_function(wrap_pyfunction!(run_slice::tally_figures, m)?)?;
    Ok(())
}
