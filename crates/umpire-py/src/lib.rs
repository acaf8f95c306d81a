//! Umpire for Python (issue 26): the pure-Rust core of the bindings, tested by `cargo test`,
//! and (with the `python` feature, as maturin builds it) the PyO3 module `umpire._umpire`.
//!
//! - [`action`]: the 4,672 + 1 action encoding;
//! - [`action_set`]: a bit set of actions, written a man at a time, read out sorted;
//! - [`planes`]: one man's moves as the 73 planes of its square (a slider's ray as a run);
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
pub mod action_set;
pub mod batch;
pub mod engine;
pub mod lean_game;
pub mod legal;
pub mod planes;
pub mod run_slice;
pub mod state;
pub mod tablebase;
pub mod tensor;
pub mod text;
pub mod vector;

#[cfg(feature = "python")]
mod python;
