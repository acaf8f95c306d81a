//! `umpire schroedinger referee`, `umpire schroedinger verify` and
//! `umpire play --game schroedinger` from the outside.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

fn run(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the umpire binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().expect("the umpire binary runs");
    writer.join().expect("the writer finishes");
    output
}

fn run_ok(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "umpire {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

fn run_err(args: &[&str]) -> String {
    let out = run(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "umpire {args:?} should fail");
    assert_ne!(
        out.status.code(),
        Some(101),
        "umpire {args:?} panicked: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("umpire-sch-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn natures_of<'a>(answer: &'a Value, man: &str) -> &'a str {
    answer["men"]
        .as_array()
        .expect("men")
        .iter()
        .find(|m| m["man"] == man)
        .and_then(|m| m["natures"].as_str())
        .expect("the man is listed")
}

#[test]
fn the_json_referee_answers_every_line_and_records_the_game() {
    let dir = scratch("referee");
    let record = dir.join("game.json");
    let input = "e2e4\ne7e5\nd1h5\nc8c6\nnonsense\ne7e8q\nb8c6\nh5f7\nstatus\n";
    let out = run_ok(
        &[
            "schroedinger",
            "referee",
            "--json",
            "--record",
            path_str(&record),
        ],
        input,
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(answers.len(), input.lines().count());
    let results: Vec<&str> = answers
        .iter()
        .map(|a| a["result"].as_str().expect("result"))
        .collect();
    assert_eq!(
        results,
        [
            "accepted", "accepted", "accepted", "illegal", "invalid", "invalid", "accepted",
            "accepted", "status"
        ]
    );
    // d1h5 slid diagonally over three squares: a queen or a bishop.
    assert_eq!(natures_of(&answers[2], "w:d1"), "QB");
    assert_eq!(answers[3]["reason"], "no_nature");
    assert_eq!(answers[5]["reason"], "not_a_command");
    assert_eq!(natures_of(&answers[6], "b:b8"), "N");
    // The QB man on f7 next to e8: Black may be in check in some worlds.
    assert_eq!(answers[7]["check"], "sometimes");
    assert!(
        answers[8]["moves"]
            .as_array()
            .is_some_and(|m| !m.is_empty())
    );
    let verified = run_ok(&["schroedinger", "verify", path_str(&record)], "");
    assert!(verified.contains("ok, 6 entries, 5 moves"), "{verified}");
}

#[test]
fn the_plain_referee_shows_the_board_and_the_possible_natures() {
    let out = run_ok(&["schroedinger", "referee"], "e2e4\ne7e5\nf1c4\n");
    assert!(out.contains("White: f1c4 - accepted."), "{out}");
    assert!(out.contains("f1@c4 QB"), "{out}");
}

#[test]
fn a_game_against_the_random_player_is_saved_and_replays() {
    let dir = scratch("play");
    for side in ["white", "black"] {
        let record = dir.join(format!("{side}.json"));
        let out = run_ok(
            &[
                "play",
                "--game",
                "schroedinger",
                "--side",
                side,
                "--seed",
                "7",
                "--record",
                path_str(&record),
            ],
            "e2e4\ne7e5\nmoves\nd2d4\nd7d5\n",
        );
        assert!(out.contains("Game saved to"), "{out}");
        let text = fs::read_to_string(&record).expect("record written");
        let json: Value = serde_json::from_str(&text).expect("JSON record");
        assert_eq!(json["format"], "umpire-schroedinger-record");
        // End of input leaves the game unfinished, as in Kriegspiel play (issue 11).
        assert!(json["result"].is_null(), "{text}");
        assert!(
            out.contains("End of input: you leave the game unfinished"),
            "{out}"
        );
        assert_eq!(
            json["tags"][if side == "white" { "White" } else { "Black" }],
            "you"
        );
        assert_eq!(
            json["tags"][if side == "white" { "Black" } else { "White" }],
            "random"
        );
        assert_eq!(json["tags"]["Seed"], "7");
        run_ok(&["schroedinger", "verify", path_str(&record)], "");
        // The generic record command recognises the format and replays it the same way.
        let out = run_ok(&["record", "verify", path_str(&record)], "");
        assert!(
            out.contains(": ok, ") && out.contains("unfinished"),
            "{out}"
        );
        let stderr = run_err(&["record", "convert", path_str(&record), "--to", "pgn"]);
        assert!(stderr.contains("Haft Schrödinger record"), "{stderr}");
    }
}

#[test]
fn bytes_that_are_not_utf8_neither_stop_play_nor_lose_the_game() {
    let dir = scratch("bytes");
    let record = dir.join("game.json");
    let args = [
        "play",
        "--game",
        "schroedinger",
        "--seed",
        "7",
        "--record",
        path_str(&record),
    ];
    let out = run(&args, &b"e2e4\n\xff\xfe\nd2d4\n"[..]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(&record).expect("the record is written");
    assert!(text.contains("\"d2d4\""), "{text}");
    let out = run(&["schroedinger", "referee"], &b"e2e4\n\xff\ne7e5\n"[..]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Black: e7e5 - accepted."), "{stdout}");
}

#[test]
fn bad_records_are_reported_not_panicked_on() {
    let dir = scratch("bad");
    let missing = dir.join("missing.json");
    let stderr = run_err(&["schroedinger", "verify", path_str(&missing)]);
    assert!(stderr.contains("missing.json"), "{stderr}");
    let bad = dir.join("bad.json");
    fs::write(
        &bad,
        r#"{"format":"umpire-schroedinger-record","version":1,"entries":[{"side":"white","command":"e2e5","verdict":"accepted"}],"result":null}"#,
    )
    .expect("write");
    let stderr = run_err(&["schroedinger", "verify", path_str(&bad)]);
    assert!(
        stderr.contains("entry 1") && stderr.contains("e2e5"),
        "{stderr}"
    );
    fs::write(&bad, "[1, 2").expect("write");
    let stderr = run_err(&["schroedinger", "verify", path_str(&bad)]);
    assert!(stderr.contains("not a valid"), "{stderr}");
}

#[test]
fn a_move_after_the_end_is_answered_game_over() {
    let out = run_ok(
        &["schroedinger", "referee", "--json"],
        "e2e4\nresign\ne2e4\n",
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert_eq!(answers[1]["result"], "accepted");
    assert_eq!(answers[2]["result"], "game_over", "{out}");
    assert_eq!(answers[2]["reason"], "game_over", "{out}");
}

#[test]
fn options_that_do_not_apply_to_schroedinger_play_are_refused() {
    for args in [
        &["play", "--game", "schroedinger", "--rules", "berkeley"][..],
        &["play", "--game", "schroedinger", "--opponent", "random"][..],
        &["play", "--game", "schroedinger", "--record", "game.pgn"][..],
    ] {
        let stderr = run_err(args);
        assert!(
            stderr.contains("does not apply to --game schroedinger"),
            "{stderr}"
        );
    }
}
