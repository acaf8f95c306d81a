//! Output files that are never left half-written: checking a path before any work starts
//! ([`check_writable`]), replacing a file in one step ([`write_atomic`]), and a name no file
//! has yet ([`fresh_name`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The directory a file `path` goes into (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The temporary file next to `path` that [`write_atomic`] writes first.
fn temporary_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    directory_of(path).join(format!(".{name}.{}.tmp", std::process::id()))
}

/// Checks, before any work starts, that a file can be written at `path`: `what` (the option,
/// e.g. `--record`) names it in the error. The path must not be a directory, its directory
/// must exist, and a file must be creatable there (tried with the temporary file
/// [`write_atomic`] would use, removed at once). An existing file at `path` is not touched.
pub fn check_writable(path: &Path, what: &str) -> Result<(), String> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err(format!("{what}: the file name is empty"));
    }
    if path.is_dir() {
        return Err(format!("{what} {shown}: is a directory; give a file name"));
    }
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(format!(
            "{what} {shown}: the directory {} does not exist",
            dir.display()
        ));
    }
    let probe = temporary_for(path);
    fs::File::create(&probe).map_err(|e| format!("{what} {shown}: cannot write there: {e}"))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Checks, before a game starts, that `path` names no existing file (a game is never written
/// over another one) and can be written: the check for a game record.
pub fn check_new_record(path: &Path, what: &str) -> Result<(), String> {
    if path.exists() && !path.is_dir() {
        return Err(format!(
            "{what} {}: the file already exists; give a new name (a saved game is never overwritten)",
            path.display()
        ));
    }
    check_writable(path, what)
}

/// Writes `text` to `path` in one step: to a temporary file in the same directory, then
/// renamed over `path`. A reader, or a process that ends at any moment (crash, Ctrl-C, closed
/// terminal), leaves the old file or the new one, never a part. (The file is not forced to
/// disk, which only a power cut would need: the consoles rewrite it after every command.)
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let temporary = temporary_for(path);
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        drop(file);
        fs::rename(&temporary, path)
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&temporary);
        format!("{}: {e}", path.display())
    })
}

/// `{stem}-{tag}.json` in the current directory, or with `-2`, `-3`, … added if that exists:
/// the default name of a game's record.
pub fn fresh_name(stem: &str, tag: &str) -> PathBuf {
    let mut name = PathBuf::from(format!("{stem}-{tag}.json"));
    let mut n = 2;
    while name.exists() {
        name = PathBuf::from(format!("{stem}-{tag}-{n}.json"));
        n += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_paths_are_refused_and_good_ones_written_whole() {
        let dir = std::env::temp_dir().join(format!("umpire-save-file-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("no-such-dir").join("game.json");
        assert!(
            check_writable(&missing, "--record")
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(
            check_writable(&dir, "--out")
                .unwrap_err()
                .contains("is a directory")
        );
        let good = dir.join("game.json");
        check_writable(&good, "--record").unwrap();
        assert!(!good.exists(), "the check leaves nothing behind");
        write_atomic(&good, "one").unwrap();
        write_atomic(&good, "two").unwrap();
        assert_eq!(fs::read_to_string(&good).unwrap(), "two");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
        fs::remove_dir_all(&dir).unwrap();
    }
}
