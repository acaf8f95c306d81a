//! Shared by the integration tests: each table built at most once per test binary. KRK and KQK
//! are complete (a few seconds); KBBK and KBNK are depth-limited to keep the default suite
//! fast (their complete builds take about 10 s and 31 s; see the `#[ignore]`d tests).

#![allow(dead_code)]

use std::sync::OnceLock;

use shakmaty::{Bitboard, Square};
use umpire_tablebase::{BuildOptions, Ending, Tablebase};

/// Depth of the partial KBBK and KBNK tables of the default suite.
pub const PARTIAL_DEPTH: u8 = 10;

fn build(ending: Ending, max_depth: u8) -> Tablebase {
    Tablebase::build(
        ending,
        BuildOptions {
            max_depth,
            threads: 2,
        },
        |_| {},
    )
}

/// The complete KRK table, built once.
pub fn krk() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Krk, u8::MAX))
}

/// The complete KQK table, built once.
pub fn kqk() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Kqk, u8::MAX))
}

/// KBBK up to [`PARTIAL_DEPTH`], built once.
pub fn kbbk_partial() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Kbbk, PARTIAL_DEPTH))
}

/// KBNK up to [`PARTIAL_DEPTH`], built once.
pub fn kbnk_partial() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Kbnk, PARTIAL_DEPTH))
}

/// The complete KBBK table (about 10 s), for `#[ignore]`d tests.
pub fn kbbk_full() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Kbbk, u8::MAX))
}

/// The complete KBNK table (about 31 s), for `#[ignore]`d tests.
pub fn kbnk_full() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| build(Ending::Kbnk, u8::MAX))
}

/// A set of squares from their names.
pub fn set(squares: &[Square]) -> u64 {
    squares
        .iter()
        .fold(Bitboard::EMPTY, |acc, &sq| acc.with(sq))
        .0
}
