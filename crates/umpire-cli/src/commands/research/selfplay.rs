//! `umpire selfplay`: random games written as records.

use super::run_secret::RunSecret;
use crate::console::stdout::say;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use umpire_ai::AgentSpec;
use umpire_ai::tournament::{SelfplayConfig, selfplay_game};
use umpire_rules::record::Game;
use umpire_rules::{RuleSetId, shakmaty::Color};

/// What to play and where to write it.
pub struct SelfplayArgs<'a> {
    /// Rule set.
    pub rules: RuleSetId,
    /// Number of games.
    pub games: u64,
    /// The run's secret: game `i`'s players are seeded with its key's `seat_seed(i, side)`, a
    /// `random` game with its `game_seed(i)` (`umpire_ai::tournament::RunKey`).
    pub secret: RunSecret,
    /// Start position, if not the standard one.
    pub fen: Option<&'a str>,
    /// Stop a game unfinished after this many moves.
    pub max_plies: u32,
    /// Directory for the records, if any.
    pub out: Option<&'a Path>,
    /// Also write each player's filtered view (PGN and JSON).
    pub player_views: bool,
    /// Who plays both sides.
    pub agent: AgentSpec,
}

/// Plays the games, writes the records, prints a summary.
pub fn run(args: &SelfplayArgs<'_>) -> Result<(), String> {
    if let Some(dir) = args.out {
        fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    }
    let cfg = SelfplayConfig::new(
        args.rules,
        args.fen.map(str::to_owned),
        args.agent.clone(),
        args.secret.key(),
        args.max_plies,
    )?;
    if args.rules == RuleSetId::Wild16 && args.agent.uses_tables() {
        crate::console::table_notice::prepare_with_notice("umpire selfplay");
    }
    let bar = ProgressBar::new(args.games);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let mut results: BTreeMap<String, u64> = BTreeMap::new();
    let (mut attempts, mut plies) = (0u64, 0u64);
    for index in 0..args.games {
        // Each game is a function of the key and its index (as on Ray, docs/PYTHON.md).
        let played = selfplay_game(&cfg, index)?;
        attempts += played.attempts;
        plies += played.plies;
        let game = played.game;
        let key = match game.result() {
            Some(r) => format!("{} {}", r.score(), r.reason.as_str()),
            None => format!("* unfinished after {} plies", args.max_plies),
        };
        *results.entry(key).or_default() += 1;
        if let Some(dir) = args.out {
            write_game(dir, index, &game, args.player_views)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = args.games.max(1) as f64;
    say!(
        "{} games under {} ({} agents): {:.1} attempts and {:.1} moves per game",
        args.games,
        args.rules,
        args.agent,
        attempts as f64 / n,
        plies as f64 / n
    );
    for (result, count) in results {
        say!("  {count:>7}  {result}");
    }
    // The key (or the chosen seed) replays the run; the players have finished with it.
    say!("seeded by {}", args.secret.describe());
    if let Some(dir) = args.out {
        say!("records written to {}", dir.display());
    }
    Ok(())
}

fn write_game(dir: &Path, index: u64, game: &Game, player_views: bool) -> Result<(), String> {
    let stem = dir.join(format!("game-{:04}", index + 1));
    let record = game.record();
    let write = |path: std::path::PathBuf, text: String| {
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(stem.with_extension("json"), record.to_json_pretty())?;
    write(
        stem.with_extension("pgn"),
        record.to_pgn().map_err(|e| e.to_string())?,
    )?;
    if player_views {
        for (color, name) in [(Color::White, "white"), (Color::Black, "black")] {
            // Player views carry only the public tags: never the seed (docs/RECORDS.md).
            let view = record.player_view(color).map_err(|e| e.to_string())?;
            write(stem.with_extension(format!("{name}.pgn")), view.to_pgn())?;
            write(stem.with_extension(format!("{name}.json")), view.to_json())?;
        }
    }
    Ok(())
}
