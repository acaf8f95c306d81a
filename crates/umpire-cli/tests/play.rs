//! `umpire play` at a scripted terminal.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("umpire runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn a_scripted_game_is_played_shown_and_saved() {
    let dir = std::env::temp_dir().join(format!("umpire-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let input = "help\noptions\nNf3\nnonsense words\nf3e5\nNc3\nboard\nresign\n";
    let (stdout, stderr, ok) = play(
        &[
            "--rules",
            "wild16",
            "--seed",
            "3",
            "--record",
            record.to_str().unwrap(),
        ],
        input,
    );
    assert!(ok, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Own men only: White's pieces are drawn, Black's never.
    assert!(stdout.contains('♔') && !stdout.contains('♚'), "{stdout}");
    assert!(
        stdout.contains("20 still possible") || stdout.contains("still possible"),
        "{stdout}"
    );
    assert!(stdout.contains("g1f3: move made"), "{stdout}");
    assert!(stdout.contains("is not a command"), "{stdout}");
    assert!(stdout.contains("Game over: 0-1 (resignation)"), "{stdout}");
    assert!(stdout.contains("Game saved to"), "{stdout}");
    let verify = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["record", "verify", record.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("\"g1f3\""), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn playing_black_starts_with_the_opponents_move() {
    let dir = std::env::temp_dir().join(format!("umpire-play-b-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.pgn");
    let (stdout, stderr, ok) = play(
        &[
            "--side",
            "black",
            "--rules",
            "berkeley",
            "--seed",
            "9",
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "stderr: {stderr}");
    assert!(stdout.contains("Your opponent has moved."), "{stdout}");
    assert!(stdout.contains('♚') && !stdout.contains('♔'), "{stdout}");
    assert!(stdout.contains("End of input: you resign."), "{stdout}");
    assert!(
        std::fs::read_to_string(&record)
            .unwrap()
            .contains("[KriegspielRules \"berkeley\"]")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
