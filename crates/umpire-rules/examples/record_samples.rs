//! Writes sample game records for tools outside Rust (the python-chess test reads them).
//!
//! Usage: `cargo run --example record_samples -- DIR [GAMES_PER_RULE_SET]`
//!
//! For every rule set and seed it writes `DIR/<rules>-<seed>.json` (the record),
//! `.pgn` (the referee's view), `.white.pgn` and `.black.pgn` (the players' views), from random
//! games, half of them from a set-up position.

use std::path::PathBuf;
use std::process::ExitCode;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, RuleSetId};

const SET_UP: &str = "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 12";

fn write(dir: &std::path::Path, name: &str, record: &Record) -> Result<(), String> {
    let files = [
        (format!("{name}.json"), record.to_json_pretty()),
        (
            format!("{name}.pgn"),
            record.to_pgn().map_err(|e| e.to_string())?,
        ),
        (
            format!("{name}.white.pgn"),
            record.player_pgn(Color::White).map_err(|e| e.to_string())?,
        ),
        (
            format!("{name}.black.pgn"),
            record.player_pgn(Color::Black).map_err(|e| e.to_string())?,
        ),
    ];
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or("usage: record_samples DIR [GAMES_PER_RULE_SET]")?,
    );
    let games: u64 = match args.next() {
        Some(n) => n
            .parse()
            .map_err(|_| format!("{n:?} is not a number of games"))?,
        None => 4,
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for id in RuleSetId::ALL {
        for seed in 0..games {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut game = if seed % 2 == 0 {
                Game::new(*id.rules())
            } else {
                Game::from_fen(*id.rules(), SET_UP).map_err(|e| e.to_string())?
            };
            game.set_tag("Event", "record_samples")
                .map_err(|e| e.to_string())?;
            game.set_tag("Round", &seed.to_string())
                .map_err(|e| e.to_string())?;
            game.play_random(&mut rng, 300);
            write(&dir, &format!("{id}-{seed}"), game.record())?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("record_samples: {e}");
            ExitCode::FAILURE
        }
    }
}
