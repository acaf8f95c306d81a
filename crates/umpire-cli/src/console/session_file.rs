//! Where `umpire connect` keeps its session token: a file only the user can read (mode 0600),
//! never the screen (a terminal's scroll-back, a shared screen or a recording would give the
//! seat away). `--session-file FILE` resumes with it.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A new file name for the session of game `game` in the working directory:
/// `umpire-session-GAME.token`, or `…-2.token`, `…-3.token` if taken.
pub fn fresh_session_file(game: &str) -> PathBuf {
    let mut name = PathBuf::from(format!("umpire-session-{game}.token"));
    let mut n = 2;
    while name.exists() {
        name = PathBuf::from(format!("umpire-session-{game}-{n}.token"));
        n += 1;
    }
    name
}

/// Creates the file `path` for writing, never over an existing file, readable and writable by
/// its owner only (mode 0600 on Unix): where a secret (a session or an API token) is kept.
pub fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Creates `path` (never over an existing file), readable and writable by its owner only,
/// holding `token` and a newline.
pub fn save_session(path: &Path, token: &str) -> Result<(), String> {
    let mut file = create_private(path)
        .map_err(|e| format!("cannot create the session file {}: {e}", path.display()))?;
    file.write_all(format!("{token}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("cannot write the session file {}: {e}", path.display()))
}

/// Reads a session file: its first line, trimmed; an empty file is refused.
pub fn read_session(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--session-file {}: cannot read it: {e}", path.display()))?;
    let token = text.lines().next().unwrap_or_default().trim();
    if token.is_empty() {
        return Err(format!(
            "--session-file {}: it holds no session",
            path.display()
        ));
    }
    Ok(token.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_file_is_private_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("umpire-session-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.token");
        save_session(&path, "abc123").unwrap();
        assert_eq!(read_session(&path).unwrap(), "abc123");
        // Never overwritten.
        assert!(save_session(&path, "other").is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
