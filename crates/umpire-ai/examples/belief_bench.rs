//! Belief benchmarks (figures in docs/BENCHMARKS.md):
//!
//! 1. time per observation update and set size at plies 10, 20, 40, 80 of random and
//!    guided-random games (both players' beliefs);
//! 2. distinct fully consistent samples per second at a middle-game ply, against plain
//!    rejection sampling (random opponent moves, kept if every observation matches) measured
//!    in the same run.
//!
//! `cargo run --release -p umpire-ai --example belief_bench -- [GAMES] [BOUND] [SAMPLE_PLY]`

use std::collections::HashSet;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_ai::{Agent, GuidedRandomAgent, RandomAgent};
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{Chess, Color, EnPassantMode, fen::Fen};
use umpire_rules::{Attempt, Command, Observation, RuleSet, Umpire};
use umpire_view::PlayerView;
use umpire_view::guided::FilterSet;

const MARKS: [u32; 4] = [10, 20, 40, 80];

struct Row {
    kind: &'static str,
    game: u64,
    side: Color,
    ply: u32,
    millis: f64,
    size: u64,
    exact: bool,
}

/// Plays one game of `kind` for 80 plies, both players' beliefs fed; returns the rows at the
/// marks and the black belief at `sample_ply` (for the sampling benchmark).
fn play(
    kind: &'static str,
    game: u64,
    bound: usize,
    sample_ply: u32,
) -> (Vec<Row>, Option<Belief>) {
    let rules = RuleSet::WILD16;
    let mut agents: [Box<dyn Agent>; 2] = [Color::White, Color::Black].map(|side| {
        let view = PlayerView::standard(rules, side);
        let seed = game * 2 + u64::from(side.is_black());
        if kind == "random" {
            Box::new(RandomAgent::new(view, seed)) as Box<dyn Agent>
        } else {
            Box::new(GuidedRandomAgent::new(view, seed, FilterSet::all_sound()))
        }
    });
    let config = BeliefConfig {
        bound,
        particles: None,
        seed: game,
        threads: 1,
        parallel_from: umpire_belief::PARALLEL_FROM,
        repair_budget: umpire_belief::REPAIR_BUDGET,
    };
    let mut beliefs = [Color::White, Color::Black]
        .map(|side| Belief::new(rules, Chess::default(), side, config).expect("live"));
    let mut umpire = Umpire::new(rules);
    let mut rows = Vec::new();
    let mut spent = [Duration::ZERO; 2];
    let mut kept = None;
    while !umpire.is_over() && umpire.plies() < 80 {
        let mover = usize::from(umpire.turn().is_black());
        let command = agents[mover].choose();
        let before = umpire.plies();
        let outcome = umpire.submit(command);
        for (i, agent) in agents.iter_mut().enumerate() {
            if let Some(obs) = outcome.observation(command, agent.view().side()) {
                agent.observe(&obs).expect("fits");
                let t = Instant::now();
                beliefs[i].observe(&obs).expect("fits");
                spent[i] += t.elapsed();
            }
        }
        if umpire.plies() != before {
            let ply = umpire.plies();
            if MARKS.contains(&ply) {
                for (i, b) in beliefs.iter().enumerate() {
                    rows.push(Row {
                        kind,
                        game,
                        side: b.side(),
                        ply,
                        millis: spent[i].as_secs_f64() * 1e3,
                        size: b.size(),
                        exact: b.is_exact(),
                    });
                }
            }
            if ply == sample_ply {
                kept = Some(beliefs[1].clone());
            }
            spent = [Duration::ZERO; 2];
        }
    }
    (rows, kept)
}

/// Plain rejection sampling: replays `transcript` (Black's, wild16: the opponent's rejections
/// are silent), the opponent's moves drawn uniformly, dropping a history at its first
/// mismatch; counts distinct positions found in `budget`.
fn rejection(transcript: &[Observation], budget: Duration, seed: u64) -> (u64, usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut found = HashSet::new();
    let mut tries = 0u64;
    let start = Instant::now();
    'outer: while start.elapsed() < budget {
        tries += 1;
        let mut umpire = Umpire::new(RuleSet::WILD16);
        for obs in transcript {
            let command = if obs.actor == Color::Black {
                obs.own.expect("own").command
            } else {
                let moves = umpire.legal_moves();
                let m = &moves[rng.random_range(0..moves.len())];
                Command::Attempt(Attempt::from_move(m).expect("a move"))
            };
            let out = umpire.submit(command);
            if out.observation(command, Color::Black).as_ref() != Some(obs) {
                continue 'outer;
            }
        }
        found.insert(Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string());
    }
    (tries, found.len())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map_or(3, |s| s.parse().expect("games"));
    let bound: usize = args.get(2).map_or(100_000, |s| s.parse().expect("bound"));
    let sample_ply: u32 = args.get(3).map_or(40, |s| s.parse().expect("ply"));
    println!("kind          game side  ply   update ms      set size  exact");
    let mut sample_beliefs = Vec::new();
    for kind in ["random", "guided-random"] {
        for game in 0..games {
            let (rows, kept) = play(kind, game, bound, sample_ply);
            for r in rows {
                println!(
                    "{:<13} {:>4} {:<5} {:>4} {:>11.1} {:>13} {}",
                    r.kind,
                    r.game,
                    if r.side == Color::White {
                        "white"
                    } else {
                        "black"
                    },
                    r.ply,
                    r.millis,
                    r.size,
                    if r.exact { "yes" } else { "no (estimate)" }
                );
            }
            sample_beliefs.extend(kept.map(|b| (kind, game, b)));
        }
    }
    println!();
    println!(
        "sampling at ply {sample_ply} (Black's belief; 1,000 distinct samples vs plain rejection sampling, 2 s)"
    );
    for (kind, game, belief) in &sample_beliefs {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(*game);
        let t = Instant::now();
        let picks = belief.sample(1000, &mut rng);
        let secs = t.elapsed().as_secs_f64();
        let distinct: HashSet<String> = picks
            .iter()
            .map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string())
            .collect();
        let (tries, found) = rejection(belief.transcript(), Duration::from_secs(2), *game);
        println!(
            "{kind:<13} game {game}: belief held {} ({}), {} distinct samples in {:.3} ms = {:.0}/s; rejection: {tries} histories tried, {found} distinct consistent found in 2 s = {:.1}/s",
            belief.held(),
            if belief.is_exact() {
                "exact"
            } else {
                "sampled"
            },
            distinct.len(),
            secs * 1e3,
            distinct.len() as f64 / secs.max(1e-9),
            found as f64 / 2.0
        );
    }
}
