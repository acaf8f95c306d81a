//! Umpire for Python (issue 26): the pure-Rust core of the bindings, tested by `cargo test`,
//! and (with the `python` feature, as maturin builds it) the PyO3 module `umpire._umpire`.
//!
//! - [`action`]: the 4,672 + 1 action encoding;
//! - [`tensor`]: the observation tensor, plane by plane, from a player's view only;
//! - [`text`]: the observation and information-state strings, from a player's view only;
//! - [`legal`]: a player's legal actions from its view (the hot path of a step);
//! - [`state`]: the OpenSpiel-shaped game state;
//! - [`batch`]: batched random playouts and matches, at the core's speed;
//! - [`tablebase`]: endgame-table probes from a FEN or from White's view;
//! - [`engine`]: engine-protocol requests read back into the player's view;
//! - [`vector`]: many games stepped by one call (the fast path from Python);
//! - [`run_slice`]: games `[i, j)` of a match or self-play run, as the whole run plays them.
//!
//! See `docs/PYTHON.md` for the Python API.

pub mod action;
pub mod batch;
pub mod engine;
pub mod legal;
pub mod run_slice;
pub mod state;
pub mod tablebase;
pub mod tensor;
pub mod text;
pub mod vector;

#[cfg(feature = "python")]
mod python;
