//! `umpire tablebase` as a user runs it: build, probe by squares and from a game record, stats,
//! and clear errors.

use std::path::PathBuf;
use std::process::Command;

fn umpire(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("umpire runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// A fresh directory for one test (removed by the test at its end).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-cli-tb-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn build_probe_stats_and_errors() {
    let dir = temp_dir("build");
    let kqk = dir.join("kqk2.tb");
    let kqk = kqk.to_str().unwrap();
    let (out, err, ok) = umpire(&[
        "tablebase",
        "build",
        "kqk",
        "--max-depth",
        "2",
        "--out",
        kqk,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("kqk:") && out.contains("depth-limited"),
        "{out}"
    );
    let (out, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        kqk,
        "--king",
        "g6",
        "--queen",
        "b1",
        "--black",
        "h8,g8",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("mate in 1") && out.contains("b1b8"), "{out}");
    // The board diagram marks the queen and the two squares.
    assert!(out.contains("x x") && out.contains('Q'), "{out}");
    let (_, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        kqk,
        "--king",
        "g6",
        "--rook",
        "b1",
        "--black",
        "h8",
    ]);
    assert!(
        !ok && err.contains("not a position of this kqk table"),
        "{err}"
    );
    let (out, err, ok) = umpire(&["tablebase", "stats", "--table", kqk]);
    assert!(ok, "{err}");
    assert!(
        out.contains("certain wins") && out.contains("lower bounds"),
        "{out}"
    );
    let junk = dir.join("junk.tb");
    std::fs::write(&junk, b"definitely not a table").unwrap();
    let (_, err, ok) = umpire(&["tablebase", "stats", "--table", junk.to_str().unwrap()]);
    assert!(!ok && err.contains("not an Umpire tablebase file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probe_from_a_game_record() {
    let dir = temp_dir("record");
    let krk = dir.join("krk.tb");
    let krk = krk.to_str().unwrap();
    let (_, err, ok) = umpire(&["tablebase", "build", "krk", "--out", krk]);
    assert!(ok, "{err}");
    let games = dir.join("games");
    let (_, err, ok) = umpire(&[
        "selfplay",
        "--fen",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "--games",
        "1",
        "--seed",
        "3",
        "--max-plies",
        "4",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let record = games.join("game-0001.json");
    let record = record.to_str().unwrap();
    let (out, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        krk,
        "--record",
        record,
        "--ply",
        "0",
    ]);
    assert!(ok, "{err}");
    // At the start White knows nothing but the legal squares: e5 among them.
    assert!(
        out.contains("White's view (exact") && out.contains("e5"),
        "{out}"
    );
    let (_, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        krk,
        "--record",
        record,
        "--ply",
        "1",
    ]);
    assert!(!ok && err.contains("Black's turn"), "{err}");
    let (_, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        krk,
        "--record",
        record,
        "--ply",
        "99",
    ]);
    assert!(!ok && err.contains("only 4 plies"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn options_that_would_be_ignored_are_refused() {
    let (_, err, ok) = umpire(&[
        "tablebase",
        "profile",
        "krk",
        "--illegal",
        "costs-a-move",
        "--rounds",
        "2",
    ]);
    assert!(
        !ok && err.contains("--rounds applies only with --illegal free"),
        "{err}"
    );
    let (_, err, ok) = umpire(&[
        "tablebase",
        "probe",
        "--table",
        "krk.tb",
        "--record",
        "game.json",
        "--rook",
        "a1",
    ]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}
