//! `umpire record`: check and convert game records.

use std::fs;
use std::path::Path;

use umpire_rules::shakmaty::Color;

use crate::commands::game::schroedinger;
use crate::console::record_file::{load, parse};
use crate::console::stdout::{say, say_raw};

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

/// Replays a record and says whether every announcement matches. A Haft Schrödinger record
/// (format `umpire-schroedinger-record`) is recognised and replayed by its own umpire.
pub fn verify(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if umpire_schroedinger::record::is_record(&text) {
        return schroedinger::verify(path, &text);
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
