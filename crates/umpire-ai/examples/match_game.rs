//! Plays single games of an `umpire match --seed SEED` run again, by their numbers, without
//! the games before them: game `i` of a run depends only on the run's key, `i` and the two
//! agents, so a later game of a long row can be checked against a new build on its own
//! (issue 28: the rows' fifty-move draws). Prints each game's ending and writes its record.
//!
//! `cargo run --profile ci -p umpire-ai --example match_game -- SEED A B MOVETIME OUT GAME...`
//!
//! `A` and `B` as `umpire match` names agents (`mcts@30000 raider`), `MOVETIME` in ms as its
//! `--movetime`, `GAME` numbered from 1 as the records are (`game-0026.json`).

use std::time::Duration;

use umpire_ai::tournament::{MatchConfig, RunKey, play_game};
use umpire_ai::{AgentConfig, AgentSpec, Budget};
use umpire_rules::RuleSetId;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 {
        eprintln!("usage: match_game SEED A B MOVETIME OUT GAME...");
        std::process::exit(2);
    }
    let number = |s: &str| -> u64 {
        s.parse().unwrap_or_else(|_| {
            eprintln!("{s}: not a number");
            std::process::exit(2)
        })
    };
    let spec = |s: &str| -> AgentSpec {
        s.parse().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        })
    };
    let (a, b) = (spec(&args[1]), spec(&args[2]));
    let cfg = MatchConfig {
        rules: RuleSetId::Wild16,
        games: 1,
        agent: AgentConfig {
            budget: Budget::Time(Duration::from_millis(number(&args[3]))),
            ..AgentConfig::default()
        },
        concurrency: 1,
        key: RunKey::from_seed(number(&args[0])),
        max_plies: 2000,
        sprt: None,
        engine_timeout: None,
    };
    let out = std::path::Path::new(&args[4]);
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("{}: {e}", out.display());
        std::process::exit(1);
    }
    for game in &args[5..] {
        let index = number(game).saturating_sub(1);
        let report = play_game(&a, &b, &cfg, index).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        println!(
            "game {}: {:?} {:?} after {} plies (A White: {})",
            index + 1,
            report.points,
            report.termination,
            report.plies,
            report.a_white
        );
        let path = out.join(format!("game-{:04}.json", index + 1));
        if let Err(e) = std::fs::write(&path, report.record.to_json()) {
            eprintln!("{}: {e}", path.display());
        }
    }
}
