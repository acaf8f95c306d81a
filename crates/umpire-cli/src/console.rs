//! What the two console umpires (`umpire referee` and `umpire schroedinger referee`) share: the
//! name of a side, the game-over object of a JSON answer, and writing one JSON answer a line.

use std::io::Write;

use serde::Serialize;
use umpire_rules::shakmaty::Color;

/// "White" or "Black".
pub fn side_title(side: Color) -> &'static str {
    side.fold_wb("White", "Black")
}

/// How a game ended, in a JSON answer.
#[derive(Serialize)]
pub struct GameJson {
    /// The score: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why it ended.
    pub reason: &'static str,
}

/// Writes `answer` as one line of JSON.
pub fn write_json(out: &mut impl Write, answer: &impl Serialize) -> Result<(), String> {
    serde_json::to_writer(&mut *out, answer).map_err(|e| format!("output: {e}"))?;
    writeln!(out).map_err(|e| format!("output: {e}"))
}
