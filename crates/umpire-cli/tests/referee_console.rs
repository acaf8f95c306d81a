//! `umpire referee` as issue 11 wants it: castling SAN means castling, it says it is the
//! operator's console, lines are bounded, and the record is checked first and kept as the
//! game goes. Also `tablebase build --out` checked before the build.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn umpire(args: &[&str], input: &[u8]) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("umpire runs");
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-referee-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Issue 11, point 1: `O-O` from a king away from its start square was played as a king
/// step (g2g1, f1g1, d1c1); now it is refused with the reason and nothing is played.
#[test]
fn castling_san_from_any_king_square_is_refused_unless_it_is_castling() {
    for (fen, san) in [
        ("r3k3/8/8/8/8/8/6K1/8 w - - 0 1", "O-O"),
        ("r3k3/8/8/8/8/8/8/5K2 w - - 0 1", "O-O"),
        ("r3k3/8/8/8/8/8/8/3K4 w - - 0 1", "O-O-O"),
    ] {
        let input = format!("{san}\nstatus\n");
        let (out, err, ok) = umpire(&["referee", "--json", "--fen", fen], input.as_bytes());
        assert!(ok, "{err}");
        let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(first["result"], "invalid", "{fen}: {first}");
        assert!(first.get("command").is_none(), "{first}");
        assert!(
            first["message"]
                .as_str()
                .unwrap()
                .contains("your king is not on its start square"),
            "{first}"
        );
        let status: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
        assert_eq!(status["to_move"], "white", "nothing was played: {status}");
    }
    // Real castling still works, by SAN and by UCI.
    let (out, _, ok) = umpire(
        &["referee", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"],
        b"O-O\nO-O-O\n",
    );
    assert!(ok);
    assert!(out.contains("White: e1g1 - move made."), "{out}");
    assert!(out.contains("Black: e8c8 - move made."), "{out}");
}

/// Issue 11, point 8 and 7: the referee says plainly that it is the operator's console, and
/// its help and errors use the same command words as `umpire play`.
#[test]
fn the_referee_says_it_is_the_operators_console_and_lists_its_commands() {
    let (out, _, ok) = umpire(
        &["referee"],
        b"help\nhello\nany\ndraw offer\ndecline\ne4\ndecline\n",
    );
    assert!(ok);
    assert!(
        out.contains("This is the umpire operator's console") && out.contains("must not read it"),
        "{out}"
    );
    let unknown = out
        .lines()
        .find(|l| l.contains("\"hello\" is not a command"))
        .unwrap();
    for word in [
        "any", "draw", "accept", "decline", "resign", "status", "help",
    ] {
        assert!(unknown.contains(word), "{word}: {unknown}");
    }
    assert!(
        out.contains("White: any - refused: this rule set has no \"Any?\" question (`any` exists under berkeley-any, english)."),
        "{out}"
    );
    // The answers use the same words as the help, whichever spelling was typed.
    assert!(out.contains("White: draw - noted."), "{out}");
    // The side that offered may not answer its own offer; the other side answers on its turn.
    assert!(
        out.contains("White: decline - refused: the draw offer is yours"),
        "{out}"
    );
    assert!(out.contains("Black: decline - noted."), "{out}");
}

/// Issue 11, point 9: a 20 MB line gets a short answer, in both modes.
#[test]
fn a_huge_line_gets_a_short_refusal() {
    let mut input = vec![b'e'; 20 << 20];
    input.extend_from_slice(b"\ne2e4\n");
    let (out, err, ok) = umpire(&["referee", "--json"], &input);
    assert!(ok, "{err}");
    assert!(out.len() < 2000, "the answer is short: {} bytes", out.len());
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["reason"], "line_too_long");
    assert_eq!(answers[1]["result"], "accepted");
    let (out, _, ok) = umpire(&["referee"], &input);
    assert!(ok);
    assert!(
        out.len() < 2000 && out.contains("longer than 4096 bytes"),
        "{out}"
    );
}

/// Issue 11, point 5: a bad --record is refused before anything is read; a good one holds the
/// game so far after every command (here: the input ends without a newline mid-game).
#[test]
fn the_referee_record_is_checked_first_and_kept_as_the_game_goes() {
    let dir = scratch("record");
    let bad = dir.join("nope").join("g.json");
    let (out, err, ok) = umpire(&["referee", "--record", bad.to_str().unwrap()], b"e4\n");
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("--record") && err.contains("does not exist"),
        "{err}"
    );
    let good = dir.join("g.pgn");
    let (_, err, ok) = umpire(&["referee", "--record", good.to_str().unwrap()], b"e4\ne5");
    assert!(ok, "{err}");
    let pgn = std::fs::read_to_string(&good).unwrap();
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 11, point 5: `tablebase build --out` into a missing directory fails at once.
#[test]
fn tablebase_build_checks_out_before_building() {
    let dir = scratch("tb");
    let bad = dir.join("missing").join("kqk.tb");
    let (out, err, ok) = umpire(
        &["tablebase", "build", "kqk", "--out", bad.to_str().unwrap()],
        b"",
    );
    assert!(!ok);
    assert!(!out.contains("sets"), "nothing was built: {out}");
    assert!(
        err.contains("--out") && err.contains("does not exist"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 11, point 6: Schrödinger refusals name the real reason: a blocked path, a pawn's
/// capture-only diagonal, a pawn move no pawn makes.
#[test]
fn schroedinger_refusals_name_the_real_reason() {
    let (out, err, ok) = umpire(&["schroedinger", "referee"], b"b1b3\ne2d3\ne2e5\nc1e3\n");
    assert!(ok, "{err}");
    for expected in [
        "White: b1b3 - illegal: the path from b1 to b3 is blocked: a man stands between them",
        "White: e2d3 - illegal: a pawn moves diagonally only to capture, and no enemy man stands on d3.",
        "White: e2e5 - illegal: a pawn does not move like that.",
        "White: c1e3 - illegal: the path from c1 to e3 is blocked",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
}
