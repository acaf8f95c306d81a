//! [`Clocks`]: each side's time left and whose clock runs; [`TimeControl`]: a game's initial
//! clock and increment.

use serde::{Deserialize, Serialize};

use crate::side::Side;

/// The clocks at the moment of a frame: `{"white_ms":…,"black_ms":…,"running":"white"|null}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Clocks {
    /// White's time left, milliseconds.
    pub white_ms: i64,
    /// Black's time left, milliseconds.
    pub black_ms: i64,
    /// The side whose clock runs, `null` when none does.
    pub running: Option<Side>,
}

/// A time control: `{"initial_ms":600000,"increment_ms":0}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TimeControl {
    /// The initial clock, milliseconds.
    pub initial_ms: i64,
    /// The increment after each move, milliseconds.
    pub increment_ms: i64,
}
