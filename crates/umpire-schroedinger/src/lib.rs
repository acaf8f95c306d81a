//! Haft Schrödinger chess: each side's eight back-rank men start with unknown natures, and a
//! move is legal when some assignment of natures makes every move so far legal. The umpire
//! decides this with an incremental SAT solver ([`Umpire`]); [`brute::BruteForce`] enumerates
//! the assignments instead and serves as the test oracle and the benchmark baseline.
//!
//! The rules and every modelling choice are documented in `docs/SCHROEDINGER.md`.

#![warn(missing_docs)]

pub mod backend;
pub mod batsat_backend;
pub mod board;
pub mod brute;
#[cfg(feature = "cadical")]
pub mod cadical_backend;
pub mod encoding;
pub mod game;
pub mod geometry;
pub mod man;
pub mod mv;
pub mod nature;
pub mod random;
pub mod record;
pub mod umpire;
#[cfg(feature = "varisat")]
pub mod varisat_backend;
pub mod verdict;

pub use board::{Board, Played};
pub use game::{Command, Entry, Game, Verdict};
pub use man::{Kind, ManId};
pub use mv::{Move, MoveError};
pub use nature::{Nature, NatureSet};
pub use random::RandomPlayer;
pub use shakmaty;
pub use umpire::Umpire;
pub use verdict::{CheckStatus, EndReason, Ending, Judgement, Refusal};
