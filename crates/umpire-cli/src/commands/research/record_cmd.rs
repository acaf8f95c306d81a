//! `umpire record`: check and convert game records.

use crate::stdout::{say, say_raw};
use std::fs;
use std::path::Path;

use umpire_rules::record::Record;
use umpire_rules::shakmaty::Color;

/// Output format of `umpire record convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lossless JSON record.
    Json,
    /// Kriegspiel PGN, the referee's unfiltered view.
    Pgn,
    /// Kriegspiel PGN, what White heard.
    WhitePgn,
    /// Kriegspiel PGN, what Black heard.
    BlackPgn,
    /// JSON, what White heard.
    WhiteJson,
    /// JSON, what Black heard.
    BlackJson,
}

/// Reads a record from JSON or PGN (by content: JSON starts with `{`).
pub fn load(path: &Path) -> Result<Record, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(path, &text)
}

/// Parses the Kriegspiel record `text` read from `path` (JSON or PGN, by content).
fn parse(path: &Path, text: &str) -> Result<Record, String> {
    if umpire_schroedinger::record::is_record(text) {
        return Err(format!(
            "{}: a Haft Schrödinger record: `umpire record verify` replays it, nothing converts it",
            path.display()
        ));
    }
    let record = if text.trim_start().starts_with('{') {
        Record::from_json(text).map_err(|e| format!("{}: {e}", path.display()))?
    } else {
        Record::from_pgn(text).map_err(|e| format!("{}: {e}", path.display()))?
    };
    Ok(record)
}

/// Replays a record and says whether every announcement matches. A Haft Schrödinger record
/// (format `umpire-schroedinger-record`) is recognised and replayed by its own umpire.
pub fn verify(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if umpire_schroedinger::record::is_record(&text) {
        return crate::schroedinger::verify(path, &text);
    }
    let record = parse(path, &text)?;
    record
        .replay()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let result = record
        .result
        .map_or("* (unfinished)".to_owned(), |r| r.to_string());
    say!(
        "{}: ok, {} rules, {} commands, {} moves, result {result}",
        path.display(),
        record.rules,
        record.entries.len(),
        record.plies()
    );
    Ok(())
}

/// Converts a record (checked by replay first) to another format, on stdout.
pub fn convert(path: &Path, to: Format) -> Result<(), String> {
    let record = load(path)?;
    record
        .replay()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = match to {
        Format::Json => record.to_json_pretty(),
        Format::Pgn => record.to_pgn().map_err(|e| e.to_string())?,
        Format::WhitePgn => record.player_pgn(Color::White).map_err(|e| e.to_string())?,
        Format::BlackPgn => record.player_pgn(Color::Black).map_err(|e| e.to_string())?,
        Format::WhiteJson => record
            .player_json(Color::White)
            .map_err(|e| e.to_string())?,
        Format::BlackJson => record
            .player_json(Color::Black)
            .map_err(|e| e.to_string())?,
    };
    say_raw!("{text}");
    if !text.ends_with('\n') {
        say!();
    }
    Ok(())
}

/// Writes a record to `path` in one step (see [`crate::save_file::write_atomic`]): Kriegspiel
/// PGN if the name ends in `.pgn`, JSON otherwise.
pub fn save(record: &Record, path: &Path) -> Result<(), String> {
    let text = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        record.to_pgn().map_err(|e| e.to_string())?
    } else {
        record.to_json_pretty()
    };
    crate::save_file::write_atomic(path, &text)
}
