//! Child processes of the tests that never outlive them.

#![allow(dead_code)]

pub mod terminal;

use std::io::{BufRead, BufReader};
use std::ops::{Deref, DerefMut};
use std::process::{Child, Command, Stdio};

/// The `umpire` binary under test.
pub const UMPIRE: &str = env!("CARGO_BIN_EXE_umpire");

/// A child process that is killed and reaped when this guard is dropped: at the end of the
/// test, and also when the test panics (a failed assertion unwinds through the drop), so a
/// failing test never leaves an `umpire serve` (or a client) running.
#[derive(Debug)]
pub struct Reaped(pub Child);

impl Deref for Reaped {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for Reaped {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        // Already ended (and reaped by the test) or not: kill is then a harmless error.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `umpire serve` with `args` (`--listen`, `--data`, …); returns the guarded child and
/// the URL it prints on its first line. Its house agents load the endgame tables at need
/// (`UMPIRE_TABLES=lazy`): the tests start many servers at once and few reach an ending, and
/// each would otherwise hold about 200 MB of tables (or build them, on a machine without the
/// cache). `tests/serve_tables.rs` checks the default.
pub fn serve(args: &[&std::ffi::OsStr]) -> (Reaped, String) {
    let child = Command::new(UMPIRE)
        .arg("serve")
        .args(args)
        .env("UMPIRE_TABLES", "lazy")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Guarded before anything can fail.
    let mut child = Reaped(child);
    let url = listening_url(&mut child);
    (child, url)
}

/// The URL a starting `umpire serve` prints on its first line (`http://127.0.0.1:PORT`); its
/// stdout is taken.
pub fn listening_url(child: &mut Reaped) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line.trim()
        .strip_prefix("umpire serve: listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned()
}

/// Whether a process with this id still exists (`kill -0`).
pub fn alive(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The JSON record a client saved in `dir` (the first `.json` file there), checked with
/// `umpire record verify`; its text.
pub fn downloaded_record(dir: &std::path::Path) -> String {
    let record = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("the record was downloaded");
    verify_record(&record);
    std::fs::read_to_string(&record).unwrap()
}

/// Requires `umpire record verify FILE` to accept the record in `file`.
pub fn verify_record(file: &std::path::Path) {
    let verify = Command::new(UMPIRE)
        .args(["record", "verify"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
}
