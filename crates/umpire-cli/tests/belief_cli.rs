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
    assert_eq!(v["ply"], 4);
    assert!(v["size"].as_u64().unwrap() >= 1);
    assert!(v["marginals"]["squares"].as_array().unwrap().len() >= 16);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
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
