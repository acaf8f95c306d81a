//! `umpire belief`: on records of every rule set and of set-up positions, its samples are whole
//! game records whose view for the side is the real game's, byte for byte; its JSON, SVG and
//! errors.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire_rules::record::{Game, PLAYER_VIEW_TAGS, Record};
use umpire_rules::shakmaty::Color;

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("umpire-belief-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn umpire(args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).output().expect("umpire runs")
}

fn ok(args: &[&str]) -> String {
    let out = umpire(args);
    assert!(
        out.status.success(),
        "umpire {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The real record cut after its `ply`-th move.
fn cut(record: &Record, ply: u32) -> Record {
    let mut game = Game::from_fen(*record.rules.rules(), &record.fen).unwrap();
    *game.tags_mut() = record.tags.clone();
    for entry in &record.entries {
        if game.umpire().plies() == ply {
            break;
        }
        game.submit(entry.command);
    }
    game.into_record()
}

fn selfplay(out: &Path, rules: &str, fen: Option<&str>, seed: &str) -> Record {
    let d = out.to_str().unwrap();
    let mut args = vec![
        "selfplay",
        "--games",
        "1",
        "--seed",
        seed,
        "--max-plies",
        "12",
        "--rules",
        rules,
        "--out",
        d,
    ];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    ok(&args);
    Record::from_json(&std::fs::read_to_string(out.join("game-0001.json")).unwrap()).unwrap()
}

#[test]
fn samples_out_views_equal_the_real_view_byte_for_byte() {
    let cases: [(&str, Option<&str>); 4] = [
        ("wild16", None),
        ("english", None),
        (
            "rand",
            Some("r3k2r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/R3K2R w KQkq - 0 1"),
        ),
        ("umpire1965", None),
    ];
    for (k, (rules, fen)) in cases.into_iter().enumerate() {
        let d = dir(&format!("s{k}"));
        let record = selfplay(&d, rules, fen, &(k + 2).to_string());
        let ply = record.plies().min(6) as u32;
        let real = cut(&record, ply);
        for (side, name) in [(Color::White, "white"), (Color::Black, "black")] {
            let samples = d.join(format!("{name}.jsonl"));
            ok(&[
                "belief",
                d.join("game-0001.json").to_str().unwrap(),
                "--side",
                name,
                "--ply",
                &ply.to_string(),
                "--samples",
                "4",
                "--samples-out",
                samples.to_str().unwrap(),
            ]);
            let text = std::fs::read_to_string(&samples).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert!(!lines.is_empty(), "{rules} {name}: no samples");
            for line in lines {
                let sample = Record::from_json(line).unwrap();
                sample.replay().unwrap();
                // A sample is handed to the player: it carries no tag the player may not know
                // (the real game's seed would replay the true moves).
                assert!(
                    sample
                        .tags
                        .iter()
                        .all(|(name, _)| PLAYER_VIEW_TAGS.contains(&name)),
                    "{rules} {name}: {:?}",
                    sample.tags.iter().collect::<Vec<_>>()
                );
                assert_eq!(
                    sample.player_pgn(side).unwrap(),
                    real.player_pgn(side).unwrap(),
                    "{rules} {name}"
                );
            }
        }
    }
}

#[test]
fn json_and_svg() {
    let d = dir("json");
    selfplay(&d, "berkeley", None, "5");
    let svg = d.join("h.svg");
    let text = ok(&[
        "belief",
        d.join("game-0001.json").to_str().unwrap(),
        "--side",
        "white",
        "--ply",
        "4",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["plies"], 4);
    assert_eq!(v["size_kind"], "exact");
    assert!(v["size"].as_u64().unwrap() >= 1);
    assert!(v["marginals"]["squares"].as_array().unwrap().len() >= 16);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // A caption naming side, ply, exactness and size; a legend; own men drawn unlike enemy men.
    let size = v["size"].as_u64().unwrap();
    assert!(
        svg.contains(&format!(
            "White's belief after 4 plies (berkeley): exact, {size} positions"
        )),
        "{svg}"
    );
    assert!(
        svg.contains("Chance that an enemy man stands on the square"),
        "{svg}"
    );
    assert!(svg.contains("your own men"), "{svg}");
    assert!(svg.contains("<circle"), "own men are drawn on discs");
    assert!(
        !svg.contains(">0%<"),
        "a man that may be there never reads 0 %"
    );
}

#[test]
fn samples_without_samples_out_prints_held_positions_as_fen() {
    let d = dir("samples-alone");
    let record = selfplay(&d, "wild16", None, "3");
    let file = d.join("game-0001.json");
    let file = file.to_str().unwrap();
    let args = ["belief", file, "--side", "white", "--samples", "5"];
    let out = umpire(&args);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("does nothing"), "no warning any more: {err}");
    let text = String::from_utf8(out.stdout).unwrap();
    let (_, after) = text
        .split_once("positions drawn uniformly from the")
        .expect("a samples header");
    let fens: Vec<&str> = after.lines().skip(1).collect();
    assert_eq!(fens.len(), 5, "{text}");
    // Each is a position White cannot rule out: White's own men stand where they really do.
    let real = record.replay().unwrap();
    let own = |fen: &str| {
        let board: umpire_rules::shakmaty::Board = fen.split(' ').next().unwrap().parse().unwrap();
        board.by_color(Color::White)
    };
    let real_fen = umpire_rules::shakmaty::fen::Fen::from_position(
        real.umpire().position(),
        umpire_rules::shakmaty::EnPassantMode::Legal,
    )
    .to_string();
    for fen in &fens {
        assert_eq!(own(fen), own(&real_fen), "{fen}");
    }
    let distinct: std::collections::HashSet<_> = fens.iter().collect();
    assert_eq!(distinct.len(), fens.len(), "distinct positions: {fens:?}");
    // The same draw in the JSON summary, and none when --samples is not given.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json: serde_json::Value = serde_json::from_str(&ok(&json_args)).unwrap();
    let listed: Vec<&str> = json["samples"]
        .as_array()
        .expect("a samples array")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(listed, fens);
    let plain: serde_json::Value =
        serde_json::from_str(&ok(&["belief", file, "--side", "white", "--json"])).unwrap();
    assert!(plain.get("samples").is_none());
}

#[test]
fn bad_input_gets_a_clear_error() {
    let d = dir("bad");
    selfplay(&d, "wild16", None, "6");
    let file = d.join("game-0001.json");
    let out = umpire(&[
        "belief",
        file.to_str().unwrap(),
        "--side",
        "white",
        "--ply",
        "999",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("beyond"));
    std::fs::write(d.join("junk.json"), "{ not a record").unwrap();
    let out = umpire(&[
        "belief",
        d.join("junk.json").to_str().unwrap(),
        "--side",
        "black",
    ]);
    assert!(!out.status.success());
    assert_ne!(out.status.code(), Some(101), "no panic");
}

/// The text and the JSON say the same: at ply 0, at a later ply while exact, and beyond the
/// bound, where the size is an estimate (never the sample's count) with a certain lower bound.
#[test]
fn text_and_json_agree_and_estimates_are_labelled() {
    let d = dir("agree");
    selfplay(&d, "wild16", None, "8");
    let file = d.join("game-0001.json");
    let f = file.to_str().unwrap();
    for (ply, bound) in [("0", "1000000"), ("5", "1000000"), ("10", "40")] {
        let args = [
            "belief", f, "--side", "black", "--ply", ply, "--bound", bound,
        ];
        let text = ok(&args);
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let v: serde_json::Value = serde_json::from_str(ok(&with_json).trim()).unwrap();
        assert!(
            text.starts_with(&format!("black's belief after {ply} plies")),
            "{text}"
        );
        assert_eq!(v["plies"].as_u64().unwrap().to_string(), ply);
        if v["exact"] == true {
            assert_eq!(v["size_kind"], "exact");
            assert!(
                text.contains(&format!("exact: yes, {} positions", v["size"])),
                "{text}"
            );
        } else {
            assert_eq!(bound, "40", "only the small bound samples here");
            assert_eq!(v["size_kind"], "estimate");
            assert_eq!(v["sampled_because"], "bound");
            let held = v["held"].as_u64().unwrap();
            assert!(held <= 40);
            assert_eq!(v["size_estimate"]["lower_bound"].as_u64().unwrap(), held);
            assert!(v["size"].as_u64().unwrap() >= held);
            assert!(
                text.contains("exact: no (more than the bound of 40 positions)"),
                "{text}"
            );
            assert!(text.contains(&format!("at least {held} certain")), "{text}");
            assert!(text.contains("(estimate"), "{text}");
        }
    }
}

/// Past --max-seconds the belief starts again with a sample of at most 20,000 and says so (a
/// cap of a nanosecond is always passed after the first observation).
#[test]
fn the_time_cap_falls_back_to_sampling() {
    let d = dir("cap");
    selfplay(&d, "wild16", None, "9");
    let file = d.join("game-0001.json");
    let text = ok(&[
        "belief",
        file.to_str().unwrap(),
        "--side",
        "white",
        "--max-seconds",
        "0.000000001",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["bound"], 20_000);
    if v["exact"] == false {
        assert_eq!(v["sampled_because"], "time cap");
    }
}

/// `--all-plies --json`: one JSON object a line, one per ply up to --ply, each equal (but for
/// the time) to the single answer of `--ply` at that ply.
#[test]
fn all_plies_prints_one_line_per_ply_equal_to_the_single_answers() {
    let d = dir("all-plies");
    selfplay(&d, "wild16", None, "12");
    let f = d.join("game-0001.json");
    let f = f.to_str().unwrap();
    let common = [
        "--side",
        "black",
        "--bound",
        "300",
        "--particles",
        "50",
        "--json",
    ];
    let mut args = vec!["belief", f, "--ply", "9", "--all-plies"];
    args.extend(common);
    let text = ok(&args);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9);
    assert!(
        lines.iter().any(|l| l["exact"] == false),
        "the bound of 300 should be passed by ply 9"
    );
    let without_time = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("millis");
        v
    };
    for (k, line) in lines.into_iter().enumerate() {
        let ply = (k + 1).to_string();
        assert_eq!(line["plies"], k + 1);
        assert_eq!(line["particles"], 50);
        // Blind, as the stream: with the lookahead a single answer samples otherwise.
        let mut args = vec!["belief", f, "--ply", &ply, "--no-lookahead"];
        args.extend(common);
        let single: serde_json::Value = serde_json::from_str(ok(&args).trim()).unwrap();
        assert_eq!(without_time(line), without_time(single), "ply {ply}");
    }
}

#[test]
fn every_argument_gets_a_clear_error() {
    let d = dir("args");
    let record = selfplay(&d, "wild16", None, "10");
    let file = d.join("game-0001.json");
    let f = file.to_str().unwrap();
    let view = d.join("white-view.json");
    std::fs::write(&view, record.player_json(Color::White).unwrap()).unwrap();
    let view_pgn = d.join("white-view.pgn");
    std::fs::write(&view_pgn, record.player_pgn(Color::White).unwrap()).unwrap();
    let missing = d.join("nowhere").join("x.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["belief", "/no/such/record.json", "--side", "white"],
            "record.json",
        ),
        (vec!["belief", f, "--side", "purple"], "purple"),
        (vec!["belief", f], "--side"),
        (vec!["belief", f, "--side", "white", "--ply", "-1"], "-1"),
        (
            vec!["belief", f, "--side", "white", "--ply", "many"],
            "--ply",
        ),
        (
            vec!["belief", f, "--side", "white", "--samples", "x"],
            "--samples",
        ),
        (vec!["belief", f, "--side", "white", "--seed", "-3"], "-3"),
        (
            vec!["belief", f, "--side", "white", "--bound", "0"],
            "--bound",
        ),
        (
            vec!["belief", f, "--side", "white", "--max-seconds", "0"],
            "seconds",
        ),
        (
            vec!["belief", f, "--side", "white", "--max-seconds", "soon"],
            "seconds",
        ),
        (
            vec![
                "belief",
                f,
                "--side",
                "white",
                "--svg",
                missing.to_str().unwrap(),
            ],
            "x.svg",
        ),
        (
            vec![
                "belief",
                f,
                "--side",
                "white",
                "--samples-out",
                missing.to_str().unwrap(),
            ],
            "x.svg",
        ),
        (
            vec!["belief", f, "--side", "white", "--particles", "0"],
            "--particles",
        ),
        (
            vec!["belief", f, "--side", "white", "--threads", "0"],
            "--threads",
        ),
        (
            vec![
                "belief",
                f,
                "--side",
                "white",
                "--all-plies",
                "--svg",
                missing.to_str().unwrap(),
            ],
            "--all-plies",
        ),
        (
            vec!["belief", view.to_str().unwrap(), "--side", "white"],
            "player's view",
        ),
        (
            vec!["belief", view_pgn.to_str().unwrap(), "--side", "white"],
            "player's view",
        ),
    ];
    for (args, says) in cases {
        let out = umpire(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// An estimate beyond what 64 bits count (ply 80 of a long game, many hidden men) is given as
/// `size: null` beside its floating-point value, not as 2^64 − 1 positions.
#[test]
fn an_estimate_beyond_64_bits_has_no_integer_size() {
    let game =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../umpire-belief/tests/data/dying_game.json");
    let text = ok(&[
        "belief",
        game.to_str().unwrap(),
        "--side",
        "white",
        "--ply",
        "80",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["size_kind"], "estimate");
    let value = v["size_estimate"]["value"].as_f64().unwrap();
    assert!(value >= u64::MAX as f64, "{value}");
    assert!(v["size"].is_null(), "{}", v["size"]);
}
