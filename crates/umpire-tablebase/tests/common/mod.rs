//! Shared by the integration tests: one full KRK build per test binary.

#![allow(dead_code)]

use std::sync::OnceLock;

use shakmaty::{Bitboard, Square};
use umpire_tablebase::{BuildOptions, Ending, Tablebase};

/// The complete KRK table, built once.
pub fn krk() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| Tablebase::build(Ending::Krk, BuildOptions::default(), |_| {}))
}

/// A set of squares from their names.
pub fn set(squares: &[Square]) -> u64 {
    squares
        .iter()
        .fold(Bitboard::EMPTY, |acc, &sq| acc.with(sq))
        .0
}
