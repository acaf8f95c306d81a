//! Ctrl-C (SIGINT sent to the child, as a terminal sends it) in `umpire referee`, `umpire
//! connect` and `umpire serve`: each says what became of the game or the server.

#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Reaped, UMPIRE};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "umpire-cli-interrupts-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sends SIGINT to `pid`.
fn interrupt(pid: u32) {
    let status = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Collects everything `out` prints, on a thread.
fn collect(mut out: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

/// Waits (without a time assertion on the program: a generous deadline only) until `text`
/// holds `needle`.
fn wait_for(text: &Arc<Mutex<String>>, needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !text.lock().unwrap().contains(needle) {
        assert!(
            Instant::now() < deadline,
            "waited in vain for {needle:?}:\n{}",
            text.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_in_referee_says_where_the_record_is() {
    let dir = fresh_dir("referee");
    let record = dir.join("game.json");
    let mut child = Reaped(
        Command::new(UMPIRE)
            .args(["referee", "--record"])
            .arg(&record)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let out = collect(child.stdout.take().unwrap());
    let err = collect(child.stderr.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"e4\n").unwrap();
    stdin.flush().unwrap();
    wait_for(&out, "Black to move.");
    interrupt(child.id());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    wait_for(
        &err,
        &format!("the game so far is saved in {}", record.display()),
    );
    assert!(std::fs::read_to_string(&record).unwrap().contains("e2e4"));
    drop(stdin);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_in_serve_says_it_stopped_cleanly() {
    let dir = fresh_dir("serve");
    let mut child = Reaped(
        Command::new(UMPIRE)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(&dir)
            .env("UMPIRE_TABLES", "lazy")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let out = collect(child.stdout.take().unwrap());
    wait_for(&out, "listening on http://");
    interrupt(child.id());
    assert!(child.wait().unwrap().success());
    wait_for(&out, "umpire serve: stopped cleanly");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_in_connect_prints_the_resume_line() {
    let dir = fresh_dir("connect");
    let cwd = fresh_dir("connect-cwd");
    let mut args = vec![
        std::ffi::OsStr::new("--listen"),
        std::ffi::OsStr::new("127.0.0.1:0"),
        std::ffi::OsStr::new("--data"),
    ];
    args.push(dir.as_os_str());
    let (mut server, url) = common::serve(&args);
    let mut child = Reaped(
        Command::new(UMPIRE)
            .args(["connect", &url, "--agent", "random", "--color", "white"])
            .current_dir(&cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let out = collect(child.stdout.take().unwrap());
    wait_for(&out, "White, move 1> ");
    interrupt(child.id());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    wait_for(&out, "Interrupted: you leave");
    let text = out.lock().unwrap().clone();
    let resume = text
        .lines()
        .find_map(|l| l.split("Resume with: ").nth(1))
        .unwrap_or_else(|| panic!("no resume line:\n{text}"));
    assert!(
        resume.starts_with(&format!("umpire connect {url} --game ")),
        "{resume}"
    );
    assert!(resume.contains("--session-file"), "{resume}");
    server.kill().unwrap();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&cwd);
}
