//! `umpire serve` loads the house agents' endgame tables at start (issue 28 goal 3), so that
//! no house agent's decision pays for a load or a build; `--tables lazy` leaves each to its
//! first need. A stop in the middle of a build leaves only whole tables behind.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Reaped, UMPIRE, listening_url};
use umpire_tablebase::{Ending, Tablebase};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "umpire-cli-serve-tables-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `umpire serve` on a free port with its data in `dir/data` and its table cache in
/// `dir/tables`, and `extra` arguments; stderr (the log) is piped.
fn serve(dir: &Path, extra: &[&str]) -> Reaped {
    let child = Command::new(UMPIRE)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.join("data"))
        .args(extra)
        .env("UMPIRE_TABLE_DIR", dir.join("tables"))
        .env_remove("UMPIRE_TABLES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Reaped(child);
    listening_url(&mut child);
    child
}

/// The log of a server: its stderr, line by line, read on a thread of its own (so that a
/// line that never comes fails the test instead of hanging it).
type Log = std::sync::mpsc::Receiver<String>;

fn log_of(child: &mut Reaped) -> Log {
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The log lines up to (and including) the first that contains `needle`; panics if the log
/// ends first, or if no line comes for ten minutes (far beyond any build: a broken server,
/// not a timing assertion).
fn log_until(log: &mut Log, needle: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        match log.recv_timeout(Duration::from_secs(600)) {
            Ok(line) => {
                let found = line.contains(needle);
                lines.push(line);
                if found {
                    return lines;
                }
            }
            Err(e) => panic!("the log gave no {needle:?} ({e}): {lines:?}"),
        }
    }
}

/// Waits until `path` exists; a deadline far beyond any build keeps a broken server from
/// hanging the test (not a timing assertion).
fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(600);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops `child` as Ctrl-C does and requires a clean exit.
fn interrupt(child: &mut Reaped) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
}

#[cfg(unix)]
#[test]
fn serve_builds_the_tables_into_an_empty_cache_at_start_and_a_stop_mid_build_leaves_whole_tables() {
    let dir = fresh_dir("eager");
    let tables = dir.join("tables");
    let mut child = serve(&dir, &[]);
    let mut log = log_of(&mut child);
    // The log says the tables are on their way, into the cache given.
    let lines = log_until(&mut log, "endgame tables: loading");
    assert!(
        lines
            .last()
            .unwrap()
            .contains(&tables.display().to_string()),
        "{lines:?}"
    );
    // No game was played: the server builds the first table (KRK) all the same.
    let krk = umpire_ai::endgame::tables::cache_file(&tables, Ending::Krk);
    wait_for(&krk);
    // Stopped while the next tables are built: a clean stop, and only whole tables stay.
    interrupt(&mut child);
    let mut whole = 0;
    for entry in std::fs::read_dir(&tables).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".lock") {
            continue;
        }
        assert!(
            !name.ends_with(".tmp"),
            "a half-written table was left: {name}"
        );
        let table = Tablebase::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(table.is_complete(), "{name}");
        whole += 1;
    }
    assert!(whole >= 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn serve_with_lazy_tables_says_so_and_loads_none_at_start() {
    let dir = fresh_dir("lazy");
    let mut child = serve(&dir, &["--tables", "lazy"]);
    let mut log = log_of(&mut child);
    // Storage is opened and the server listens before the tables' choice is logged.
    let lines = log_until(&mut log, "endgame tables:");
    assert!(lines.last().unwrap().contains("first need"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("unfinished game(s)")),
        "storage opened before the tables' line: {lines:?}"
    );
    interrupt(&mut child);
    assert!(!dir.join("tables").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_way_to_load_the_tables_is_refused() {
    let out = Command::new(UMPIRE)
        .args(["serve", "--tables", "sometimes"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("eager or lazy"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
