//! `umpire loadtest` against a real `umpire serve`: its counts agree with each other and with
//! what the server stored, and it still prints its figures when the server dies under it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

mod common;

use common::{Reaped, UMPIRE};

/// A running `umpire serve` over a fresh data directory, killed when dropped (also when a
/// test fails).
struct Server {
    child: Reaped,
    url: String,
    dir: PathBuf,
}

impl Server {
    fn start(name: &str) -> Server {
        let dir =
            std::env::temp_dir().join(format!("umpire-cli-loadtest-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (child, url) = common::serve(&[
            "--listen".as_ref(),
            "127.0.0.1:0".as_ref(),
            "--data".as_ref(),
            dir.as_os_str(),
        ]);
        Server { child, url, dir }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn report(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "umpire loadtest failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}): {text}"))
}

fn count(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no count {key:?} in {v}"))
}

/// The commands stored in the data directory `dir` (the server stopped), over all games.
fn stored_commands(dir: &std::path::Path) -> u64 {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let store = umpire_server::store::Store::open_dir(dir)
            .await
            .expect("the data directory opens");
        let mut n = 0;
        for game in store.games(None, 1000).await.expect("games listed") {
            n += store.commands(&game.id).await.expect("commands read").len() as u64;
        }
        store.close().await;
        n
    })
}

#[test]
fn a_paced_load_test_reports_consistent_counts_and_loses_nothing() {
    let server = Server::start("paced");
    let out = Command::new(UMPIRE)
        .args(["loadtest", "--server", &server.url])
        .args([
            "--games",
            "4",
            "--seconds",
            "2",
            "--rate",
            "40",
            "--seed",
            "3",
        ])
        .arg("--json")
        .output()
        .expect("umpire loadtest runs");
    let r = report(&out);
    assert_eq!(count(&r, "games"), 4);
    assert!(count(&r, "games_started") >= 4, "{r}");
    let attempts = count(&r, "attempts");
    let acknowledged = count(&r, "acknowledged");
    assert!(acknowledged > 0, "nothing answered: {r}");
    assert_eq!(count(&r, "errors"), 0, "{r}");
    assert_eq!(count(&r, "lost"), 0, "{r}");
    assert_eq!(acknowledged + count(&r, "in_flight"), attempts, "{r}");
    // Paced at 40 commands/s for 2 s: about 80 sent, never a burst far beyond the schedule.
    assert!(
        attempts <= 2 * 40 + 8,
        "{attempts} commands at 40/s for 2 s: {r}"
    );
    assert!(r["p50_ms"].as_f64().is_some_and(|p| p > 0.0), "{r}");
    assert!(r["p99_ms"].as_f64() >= r["p50_ms"].as_f64(), "{r}");
    // Every acknowledged command is stored, even when the server is then killed outright.
    let mut server = server;
    server.child.kill().expect("the server is killed");
    let _ = server.child.wait();
    let stored = stored_commands(&server.dir);
    assert!(
        stored >= acknowledged,
        "the server holds {stored} commands, {acknowledged} were acknowledged"
    );
}

#[test]
fn the_figures_are_printed_when_the_server_dies_under_the_load() {
    let mut server = Server::start("dies");
    let load = Command::new(UMPIRE)
        .args(["loadtest", "--server", &server.url])
        .args(["--games", "3", "--seconds", "4", "--seed", "5", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("umpire loadtest starts");
    std::thread::sleep(Duration::from_millis(1500));
    server.child.kill().expect("the server is killed");
    let _ = server.child.wait();
    let r = report(&load.wait_with_output().expect("umpire loadtest ends"));
    assert!(count(&r, "games_started") >= 1, "{r}");
    assert!(count(&r, "attempts") > 0, "{r}");
    assert!(
        count(&r, "errors") > 0,
        "lost connections must be counted as errors: {r}"
    );
    assert!(count(&r, "acknowledged") <= count(&r, "attempts"), "{r}");
}
