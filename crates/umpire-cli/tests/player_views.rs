//! Issue 10, leak 1: the player views every command writes carry only the public tags, never
//! the seed, in PGN and JSON alike.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("umpire-cli-views-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn run(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("umpire runs");
    assert!(
        out.status.success(),
        "umpire {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Tags a player's view may carry (`docs/RECORDS.md`, "Player views").
const ALLOWED: [&str; 11] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "KriegspielRules",
    "KriegspielFormat",
    "KriegspielTermination",
    "KriegspielView",
];

fn assert_public(text: &str, what: &str) {
    assert!(!text.contains("Seed"), "{what} names a seed:\n{text}");
    for line in text.lines().filter(|l| l.starts_with('[')) {
        let name = line[1..].split(' ').next().unwrap_or("");
        assert!(
            ALLOWED.contains(&name)
                || name == "KriegspielOwnStart"
                || name == "KriegspielEnemyStart",
            "{what}: tag {name} is not on the list"
        );
    }
}

#[test]
fn selfplay_player_views_carry_no_seed() {
    for (agent, fen) in [
        ("random", None),
        ("guided-random", None),
        (
            "guided-random",
            Some("4k3/pp6/8/8/8/8/3PPP2/R3K2N w Q - 0 1"),
        ),
    ] {
        let dir = scratch(agent);
        let mut args = vec![
            "selfplay",
            "--games",
            "2",
            "--seed",
            "77",
            "--max-plies",
            "60",
            "--agent",
            agent,
            "--out",
            dir.to_str().unwrap(),
            "--player-views",
        ];
        if let Some(f) = fen {
            args.extend(["--fen", f]);
        }
        run(&args);
        let referee = fs::read_to_string(dir.join("game-0001.pgn")).unwrap();
        // The referee's record keeps the seeds: the game's (`random` plays both sides from
        // one generator) or each seat's.
        let tags: &[&str] = if agent == "random" {
            &["[Seed "]
        } else {
            &["[WhiteSeed ", "[BlackSeed "]
        };
        for tag in tags {
            assert!(referee.contains(tag), "the referee's record keeps {tag}");
        }
        for view in ["white", "black"] {
            for ext in ["pgn", "json"] {
                let path = dir.join(format!("game-0001.{view}.{ext}"));
                let text = fs::read_to_string(&path).unwrap();
                assert_public(&text, &path.display().to_string());
            }
            let json: serde_json::Value = serde_json::from_str(
                &fs::read_to_string(dir.join(format!("game-0001.{view}.json"))).unwrap(),
            )
            .unwrap();
            let mut tags: Vec<&String> = json["tags"].as_object().unwrap().keys().collect();
            tags.sort();
            assert_eq!(tags, ["Black", "Date", "Event", "Round", "Site", "White"]);
        }
    }
}

#[test]
fn record_convert_player_views_carry_no_seed() {
    let dir = scratch("convert");
    run(&[
        "selfplay",
        "--games",
        "1",
        "--seed",
        "5",
        "--max-plies",
        "40",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let record = dir.join("game-0001.json");
    for to in ["white-pgn", "black-pgn", "white-json", "black-json"] {
        let text = run(&["record", "convert", "--to", to, record.to_str().unwrap()]);
        assert_public(&text, to);
    }
}
