//! What a newcomer meets first (issue 29): the help that points at `play` and `serve`, every
//! agent listed where an agent is named, `umpire rules` at 80 columns, a match summary that
//! means something after a few games, and arguments checked before anything is made.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::UMPIRE;
use umpire_ai::AgentKind;

fn umpire(args: &[&str]) -> Output {
    Command::new(UMPIRE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("umpire-cli-newcomer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_main_help_points_at_play_and_serve() {
    let help = stdout(&umpire(&["--help"]));
    let tail = help.rsplit("Options:").next().unwrap();
    assert!(tail.contains("Start with `umpire play`"), "{help}");
    assert!(tail.contains("`umpire serve`"), "{help}");
    assert!(!tail.contains("umpire referee"), "{help}");
}

#[test]
fn every_option_naming_an_agent_lists_every_agent_with_a_line_each() {
    let cases: [&[&str]; 6] = [
        &["play", "--help"],
        &["connect", "--help"],
        &["selfplay", "--help"],
        &["match", "--help"],
        &["engine", "--help"],
        &["bot", "--help"],
    ];
    for args in cases {
        let help = stdout(&umpire(args));
        for kind in AgentKind::ALL {
            let line = help
                .lines()
                .find(|l| l.split_whitespace().next() == Some(kind.as_str()))
                .unwrap_or_else(|| panic!("{args:?}: no line for {kind}:\n{help}"));
            assert!(line.contains(kind.summary()), "{args:?}: {line}");
        }
    }
    assert!(
        stdout(&umpire(&["play", "--help"])).contains("(default mcts)"),
        "play's default opponent is a strong one"
    );
}

#[test]
fn play_without_an_opponent_plays_mcts() {
    let dir = fresh_dir("default-opponent");
    let record = dir.join("game.json");
    let out = Command::new(UMPIRE)
        .args(["play", "--seed", "3", "--record"])
        .arg(&record)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("against mcts"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_fit_80_columns_and_wide_keeps_the_table() {
    let narrow = stdout(&umpire(&["rules"]));
    for line in narrow.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    for id in [
        "wild16",
        "berkeley",
        "berkeley-any",
        "cincinnati",
        "english",
        "rand",
        "umpire1965",
    ] {
        assert!(
            narrow.lines().any(|l| l.starts_with(&format!("{id}: "))),
            "no block for {id}:\n{narrow}"
        );
    }
    let wide = stdout(&umpire(&["rules", "--wide"]));
    assert_eq!(wide, umpire_rules::rule_table::markdown_table());
    assert!(wide.lines().any(|l| l.chars().count() > 80));
}

#[cfg(unix)]
#[test]
fn a_one_sided_match_gives_a_real_interval_and_says_too_few_games_for_elo() {
    // `false` exits at once: each of its games is lost to an engine failure, so random wins
    // both (the "score 1.000 (95 %: 1.000 to 1.000), Elo +∞ (-∞ to +∞)").
    let out = umpire(&[
        "match",
        "random",
        "cmd:false",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("score "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        line,
        "score 1.000 (95 %: 0.342 to 1.000), Elo difference: too few games to bound it"
    );
    // Two draws: an interval around 0.5 and a bounded Elo difference.
    let out = umpire(&[
        "match",
        "random",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--max-plies",
        "2",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("score 0.500 (95 %: 0.095 to 0.905), Elo difference +0 (95 %: -393 to +393)"),
        "{text}"
    );
}

#[test]
fn listen_says_the_expected_form() {
    let out = umpire(&["serve", "--listen", "8080"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("IP:PORT"), "{err}");
    assert!(err.contains("127.0.0.1:8080"), "{err}");
}

#[test]
fn serve_on_a_port_in_use_creates_nothing() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = fresh_dir("port-in-use");
    let data = dir.join("data");
    let out = Command::new(UMPIRE)
        .args(["serve", "--listen", &addr, "--data"])
        .arg(&data)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert!(!err.contains("rebuilt"), "{err}");
    assert!(
        !data.exists(),
        "the data directory was made before the port was checked"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn an_unwritable_data_directory_is_named_in_the_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh_dir("read-only");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o500)).unwrap();
    // Root writes anywhere: then there is nothing to see.
    if std::fs::write(data.join("probe"), b"").is_ok() {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = Command::new(UMPIRE)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(&data.join("umpire.sqlite3").display().to_string()),
        "{err}"
    );
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn connect_checks_its_arguments_before_making_a_guest() {
    let data = fresh_dir("connect-args");
    let (mut server, url) = common::serve(&[
        std::ffi::OsStr::new("--listen"),
        std::ffi::OsStr::new("127.0.0.1:0"),
        std::ffi::OsStr::new("--data"),
        data.as_os_str(),
    ]);
    let level = umpire(&["connect", &url, "--agent", "mcts", "--level", "9"]);
    assert!(!level.status.success());
    assert!(stderr(&level).contains("--level"), "{}", stderr(&level));
    let missing = umpire(&["connect", &url, "--game", "nosuchgame"]);
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("no game \"nosuchgame\""),
        "{}",
        stderr(&missing)
    );
    // A guest made says so ("Playing as guest …"): neither made one.
    for out in [&level, &missing] {
        assert!(!stdout(out).contains("guest"), "{}", stdout(out));
    }
    server.kill().unwrap();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&data);
}
