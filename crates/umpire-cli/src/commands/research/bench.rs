//! `umpire bench`: single-thread random-playout throughput per rule set.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use umpire_ai::AgentKind;
use umpire_rules::playout::{PlayoutStats, random_game};
use umpire_rules::{RuleSetId, Umpire};

use crate::console::stdout::say;

/// Figures for one rule set.
#[derive(Debug, Serialize)]
pub struct BenchFigures {
    /// Rule-set identifier.
    pub rules: String,
    /// Games played.
    pub games: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Games per second.
    pub games_per_sec: f64,
    /// Attempts (commands judged) per second.
    pub attempts_per_sec: f64,
    /// Mean attempts per game.
    pub attempts_per_game: f64,
    /// Mean moves (plies) per game.
    pub plies_per_game: f64,
}

/// Plays random games under `rules` for about `seconds` (or exactly `games` games), from `seed`.
pub fn run(
    rules: RuleSetId,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
    max_plies: u32,
) -> BenchFigures {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let fresh = Umpire::new(*rules.rules());
    let mut stats = PlayoutStats::default();
    // A budget too large for a Duration (`--seconds inf`, `1e30`) means "no time limit";
    // `from_secs_f64` would panic on it. NaN and negative values mean no time at all.
    let budget = Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX);
    let start = Instant::now();
    loop {
        // Check the clock every few games only.
        for _ in 0..16 {
            if games.is_some_and(|n| stats.games >= n) {
                break;
            }
            let mut umpire = fresh.clone();
            stats.add(random_game(&mut umpire, &mut rng, max_plies, |_, _| {}));
        }
        let done = match games {
            Some(n) => stats.games >= n,
            None => start.elapsed() >= budget,
        };
        if done {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let games = stats.games as f64;
    BenchFigures {
        rules: rules.to_string(),
        games: stats.games,
        seconds: secs,
        games_per_sec: games / secs,
        attempts_per_sec: stats.attempts as f64 / secs,
        attempts_per_game: stats.attempts as f64 / games,
        plies_per_game: stats.plies as f64 / games,
    }
}

/// The options of `umpire bench`.
#[derive(clap::Args)]
pub struct BenchOptions {
    /// Only this rule set (default: all).
    #[arg(long)]
    rules: Option<RuleSetId>,
    /// Seconds to run each rule set.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Play exactly this many games per rule set instead of running for --seconds
    /// (for instruction counts under valgrind, which do not depend on machine load).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop a game unfinished after this many moves (plies).
    #[arg(long, default_value_t = 10_000)]
    max_plies: u32,
    /// Print one JSON object per rule set (with --agent guided-random: per preset, then
    /// one for the cost per decision).
    #[arg(long)]
    json: bool,
    /// random: the raw umpire throughput under uniform own-board play. guided-random (or
    /// belief-guided): compare the guided action space's filter presets (own board, seed
    /// 000's rules, all sound filters, all filters) and the belief filter (all sound
    /// filters narrowed by the positions the player cannot rule out, exact up to 2,000
    /// positions, sampled beyond) in one run, and time computing the space per decision
    /// (default rule set wild16).
    #[arg(long, default_value = "random")]
    agent: AgentKind,
}

/// Runs `umpire bench`: the random-playout throughput, or the guided action space's presets;
/// the searching agents are refused (they have their own measures).
pub fn bench(options: BenchOptions) -> Result<(), String> {
    let BenchOptions {
        rules,
        seconds,
        games,
        seed,
        max_plies,
        json,
        agent,
    } = options;
    match agent {
        AgentKind::Mcts => {
            return Err("umpire bench measures the guided action space; \
                for mcts use `cargo run --release -p umpire-ai --example mcts_match`"
                .into());
        }
        AgentKind::Random => print(rules, seconds, games, seed, max_plies, json),
        AgentKind::GuidedRandom | AgentKind::BeliefGuided => print_guided(
            rules.unwrap_or(RuleSetId::Wild16),
            seconds,
            games,
            seed,
            max_plies,
            json,
        ),
        AgentKind::Darkboard => {
            return Err(
                "bench measures the random and guided action spaces; darkboard is a searching agent (see docs/BENCHMARKS.md)".into(),
            );
        }
        AgentKind::Raider | AgentKind::Peek => {
            return Err(format!(
                "bench measures the random and guided action spaces; {agent} is a gauntlet agent: measure against it with `umpire match`"
            ));
        }
    }
    Ok(())
}

/// Runs the benchmark for one or all rule sets and prints the figures.
pub fn print(
    rules: Option<RuleSetId>,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
    max_plies: u32,
    json: bool,
) {
    let ids: Vec<RuleSetId> = rules.map_or_else(|| RuleSetId::ALL.to_vec(), |id| vec![id]);
    if !json {
        say!(
            "{:<13} {:>10} {:>14} {:>14} {:>12} {:>12}",
            "rules",
            "games",
            "games/s",
            "attempts/s",
            "attempts/g",
            "plies/g"
        );
    }
    for id in ids {
        let f = run(id, seconds, games, seed, max_plies);
        if json {
            say!("{}", serde_json::to_string(&f).expect("figures serialize"));
        } else {
            say!(
                "{:<13} {:>10} {:>14.1} {:>14.0} {:>12.1} {:>12.1}",
                f.rules,
                f.games,
                f.games_per_sec,
                f.attempts_per_sec,
                f.attempts_per_game,
                f.plies_per_game
            );
        }
    }
}

/// The bound on the exact set in the belief filter's bench row.
pub const BELIEF_BENCH_BOUND: usize = 2_000;

/// Compares the guided action space's presets under guided-random play (all in one run) and
/// times computing the space per decision; prints a table or JSON lines.
pub fn print_guided(
    rules: RuleSetId,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
    max_plies: u32,
    json: bool,
) {
    use umpire_ai::guided_bench::{compare_presets, decision_cost};
    let set = *rules.rules();
    if !json {
        say!("guided-random play under {rules} (one thread, presets interleaved)");
        say!(
            "{:<26} {:>8} {:>10} {:>12} {:>10} {:>10}",
            "preset",
            "games",
            "games/s",
            "attempts/g",
            "plies/g",
            "rejected"
        );
    }
    for f in compare_presets(set, seconds, games, seed, max_plies) {
        if json {
            say!("{}", serde_json::to_string(&f).expect("figures serialize"));
        } else {
            say!(
                "{:<26} {:>8} {:>10.1} {:>12.1} {:>10.1} {:>9.1}%",
                f.preset,
                f.games,
                f.games_per_sec,
                f.attempts_per_game,
                f.plies_per_game,
                100.0 * f.rejected_share
            );
        }
    }
    let belief = umpire_ai::guided_bench::belief_row(
        set,
        seconds,
        games,
        seed,
        max_plies,
        BELIEF_BENCH_BOUND,
    );
    if !json {
        let f = &belief.figures;
        say!(
            "{:<26} {:>8} {:>10.1} {:>12.1} {:>10.1} {:>9.1}%",
            f.preset,
            f.games,
            f.games_per_sec,
            f.attempts_per_game,
            f.plies_per_game,
            100.0 * f.rejected_share
        );
        say!(
            "  belief filter (bound {}): {} decisions, {:.1}% with a sampled (heuristic) filter; \
             it hid {} attempts, {} of them legal in the true position ({:.2}% false hides); \
             legal moves hidden by the exact filter: {}",
            belief.bound,
            belief.decisions,
            100.0 * belief.sampled_decisions as f64 / belief.decisions.max(1) as f64,
            belief.sampled_hidden,
            belief.false_hides,
            100.0 * belief.false_hides as f64 / belief.sampled_hidden.max(1) as f64,
            belief.exact_false_hides
        );
    }
    let passes = if games.is_some() { 1 } else { 20 };
    let cost = decision_cost(set, seed, 2000, passes);
    if json {
        say!(
            "{}",
            serde_json::to_string(&cost).expect("figures serialize")
        );
        // The belief row comes last, so that the lines before keep their places.
        say!(
            "{}",
            serde_json::to_string(&belief).expect("figures serialize")
        );
    } else {
        say!(
            "cost per decision ({} sampled decisions x {} passes): own-board options {:.2} µs",
            cost.decisions,
            cost.passes,
            cost.own_board_ns / 1000.0
        );
        for (name, ns) in &cost.guided_ns {
            say!(
                "  guided space {:<26} {:>8.2} µs  ({:.1}x own board)",
                name,
                ns / 1000.0,
                ns / cost.own_board_ns
            );
        }
    }
}
