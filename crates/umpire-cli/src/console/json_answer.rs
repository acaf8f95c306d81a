//! What the two console umpires (`umpire referee` and `umpire schroedinger referee`) share in
//! their answers: the game-over object of a JSON answer, writing one JSON answer a line, and
//! the answer to a line over the bound, in JSON or in words.

use std::io::Write;

use serde::Serialize;

use super::input::Line;

/// How a game ended, in a JSON answer.
#[derive(Serialize)]
pub struct GameJson {
    /// The score: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why it ended.
    pub reason: &'static str,
}

/// A console's JSON answer to one line, which can say why the line was refused.
pub trait JsonAnswer: Serialize {
    /// Marks the answer refused: `reason` is the stable code, `message` the words.
    fn refuse(&mut self, reason: &'static str, message: String);
}

/// The error text of a failed write to the console's output.
pub fn output_error(e: std::io::Error) -> String {
    format!("output: {e}")
}

/// Writes `answer` as one line of JSON.
pub fn write_json(out: &mut impl Write, answer: &impl Serialize) -> Result<(), String> {
    serde_json::to_writer(&mut *out, answer).map_err(|e| format!("output: {e}"))?;
    writeln!(out).map_err(output_error)
}

/// Answers a line over the bound whose start is `start`: with `json`, that answer refused as
/// `line_too_long`; otherwise one line of words. Then flushes `out`.
pub fn answer_too_long(
    out: &mut impl Write,
    json: Option<impl JsonAnswer>,
    start: &str,
) -> Result<(), String> {
    match json {
        Some(mut answer) => {
            answer.refuse("line_too_long", Line::too_long_message());
            write_json(out, &answer)?;
        }
        None => writeln!(out, "{}", Line::too_long_answer(start)).map_err(output_error)?,
    }
    out.flush().map_err(output_error)
}
