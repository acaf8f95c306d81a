//! `umpire selfplay`: random games written as records.

use crate::console::stdout::say;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_ai::{AgentConfig, AgentKind, AgentSpec, play_match, setup_view};
use umpire_rules::record::Game;
use umpire_rules::{RuleSetId, shakmaty::Color};
use umpire_view::PlayerView;

/// What to play and where to write it.
pub struct SelfplayArgs<'a> {
    /// Rule set.
    pub rules: RuleSetId,
    /// Number of games.
    pub games: u64,
    /// Base seed: game `i` uses [`game_seed`]`(seed, i)`.
    pub seed: u64,
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

/// The seed of game `index` (0-based) of a run with base seed `seed`: each game can be
/// replayed on its own (SplitMix64 of the pair).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the games, writes the records, prints a summary.
pub fn run(args: &SelfplayArgs<'_>) -> Result<(), String> {
    if let Some(dir) = args.out {
        fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    }
    let rules = *args.rules.rules();
    if let Some(fen) = args.fen {
        Game::from_fen(rules, fen).map_err(|e| format!("--fen: {e}"))?;
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
        let seed = game_seed(args.seed, index);
        let mut game = match args.fen {
            Some(fen) => Game::from_fen(rules, fen).map_err(|e| format!("--fen: {e}"))?,
            None => Game::new(rules),
        };
        game.set_tag("Event", "umpire selfplay")
            .map_err(|e| e.to_string())?;
        let name = args.agent.to_string();
        game.set_tag("White", &name).map_err(|e| e.to_string())?;
        game.set_tag("Black", &name).map_err(|e| e.to_string())?;
        game.set_tag("Round", &(index + 1).to_string())
            .map_err(|e| e.to_string())?;
        game.set_tag("Seed", &seed.to_string())
            .map_err(|e| e.to_string())?;
        match &args.agent {
            AgentSpec::Builtin(AgentKind::Random) => {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let stats = game.play_random(&mut rng, args.max_plies);
                attempts += stats.attempts;
                plies += stats.plies;
            }
            spec => {
                let start = game.umpire().position().clone();
                let mut agents = [Color::White, Color::Black].map(|side| {
                    let view = if args.fen.is_some() {
                        setup_view(rules, &start, side)
                    } else {
                        PlayerView::standard(rules, side)
                    };
                    spec.build(
                        view,
                        game_seed(seed, u64::from(side.is_black())),
                        &AgentConfig::default(),
                    )
                });
                let [white, black] = &mut agents;
                let stats = play_match(
                    &mut game,
                    [&mut **white, &mut **black],
                    args.max_plies,
                    &mut (),
                )
                .map_err(|e| e.to_string())?;
                attempts += stats.attempts;
                plies += stats.plies;
            }
        }
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

#[cfg(test)]
mod tests {
    use super::game_seed;

    #[test]
    fn game_seeds_differ_and_repeat() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
