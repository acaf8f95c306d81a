//! `umpire play` at a scripted terminal.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: impl AsRef<[u8]>) -> (String, String, bool) {
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
        .write_all(input.as_ref())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn bytes_that_are_not_utf8_are_answered_and_the_game_is_still_saved() {
    let dir = std::env::temp_dir().join(format!("umpire-play-bytes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let (stdout, stderr, ok) = play(
        &["--seed", "3", "--record", record.to_str().unwrap()],
        &b"e4\n\xff\xfe\nd4\n"[..],
    );
    assert!(ok, "stderr: {stderr}");
    assert!(stdout.contains("is not a command"), "{stdout}");
    assert!(stdout.contains("d2d4: move made"), "{stdout}");
    assert!(stdout.contains("Game saved to"), "{stdout}");
    let text = std::fs::read_to_string(&record).expect("the record is written");
    assert!(text.contains("\"d2d4\""), "{text}");
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

#[test]
fn options_lists_the_guided_offers_and_why_names_the_rules() {
    let dir = std::env::temp_dir().join(format!("umpire-play-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let input = "options\nwhy e2d3\nwhy f1c4\nwhy Bc4\nwhy e2e4\nwhy\nwhy zz9\nwhy any\nresign\n";
    let (stdout, stderr, ok) = play(
        &[
            "--opponent",
            "guided-random",
            "--seed",
            "1",
            "--record",
            record.to_str().unwrap(),
        ],
        input,
    );
    assert!(ok, "stderr: {stderr}");
    assert!(stdout.contains("against guided-random"), "{stdout}");
    // At the start: 16 pawn moves and 4 knight moves; the 14 pawn captures the own board
    // allows cannot be legal.
    assert!(stdout.contains("20 still possible:"), "{stdout}");
    assert!(stdout.contains("14 more on your board"), "{stdout}");
    assert!(!stdout.contains("e2d3 e2e3"), "{stdout}");
    assert!(stdout.contains("e2d3 is hidden by:\n  B4:"), "{stdout}");
    assert!(stdout.contains("  C1: pawn captures only"), "{stdout}");
    assert!(stdout.contains("f1c4 is hidden by:\n  B2:"), "{stdout}");
    assert!(stdout.contains("e2e4 is offered"), "{stdout}");
    assert!(
        stdout.contains("\"Bc4\": no man of yours can make that move"),
        "{stdout}"
    );
    assert!(stdout.contains("why what?"), "{stdout}");
    assert!(stdout.contains("`any` is not a move."), "{stdout}");
    // After an illegal attempt, the player hears how many attempts are still worth making.
    assert!(
        !stdout.contains("could still be legal (`options`"),
        "{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("guided-random"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_illegal_attempt_says_how_many_attempts_remain() {
    let dir = std::env::temp_dir().join(format!("umpire-play-ill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    // With this seed the random opponent's replies leave Qxf7 illegal (checked by the record
    // verification below, which replays every verdict).
    let (stdout, stderr, ok) = play(
        &[
            "--seed",
            "4",
            "--opponent",
            "random",
            "--record",
            record.to_str().unwrap(),
        ],
        "e4\nQh5\nQxf7\nresign\n",
    );
    assert!(ok, "stderr: {stderr}");
    assert!(stdout.contains("h5f7: illegal"), "{stdout}");
    assert!(
        stdout.contains("attempts could still be legal (`options` lists them)."),
        "{stdout}"
    );
    let verify = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["record", "verify", record.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(verify.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_against_each_opponent_runs_to_the_end_of_input() {
    for opponent in ["random", "guided-random"] {
        let dir =
            std::env::temp_dir().join(format!("umpire-play-{opponent}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let record = dir.join("game.json");
        let (stdout, stderr, ok) = play(
            &[
                "--side",
                "black",
                "--opponent",
                opponent,
                "--seed",
                "2",
                "--record",
                record.to_str().unwrap(),
            ],
            "e7e5\nd7d5\nNc6\noptions\n",
        );
        assert!(ok, "{opponent}: {stderr}");
        assert!(stdout.contains(&format!("against {opponent}")), "{stdout}");
        assert!(stdout.contains("End of input: you resign."), "{stdout}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
