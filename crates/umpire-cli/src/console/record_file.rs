//! Game records as files: reading one (JSON or Kriegspiel PGN, told apart by content) and
//! writing one in one step after every command of a game (PGN when the name ends in `.pgn`).

use std::fs;
use std::path::Path;

use umpire_rules::record::Record;

/// Reads a record from JSON or PGN (by content: JSON starts with `{`).
pub fn load(path: &Path) -> Result<Record, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(path, &text)
}

/// Parses the Kriegspiel record `text` read from `path` (JSON or PGN, by content).
pub fn parse(path: &Path, text: &str) -> Result<Record, String> {
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

/// Writes a record to `path` in one step (see [`super::save_file::write_atomic`]): Kriegspiel
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
    super::save_file::write_atomic(path, &text)
}
