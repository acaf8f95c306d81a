//! Prints, per ply of one random game, the belief update time and the set size of both
//! players; with a fifth argument SMALL, also the size estimate of a belief bounded by SMALL
//! fed the same observations, and its ratio to the exact size while that is known.
//!
//! ```text
//! cargo run --profile mutants -p umpire-belief --example belief_plies -- \
//!     [RULES] [SEED] [PLIES] [BOUND] [SMALL] [--updates] [--search N] [--threads T]
//! ```
//!
//! - `--updates`: also one line per observation taken in (each `Belief::observe` call): what it
//!   was, the hypotheses before and after, whether the set is exact, wall and CPU seconds. This
//!   is the per-update measurement of `docs/BENCHMARKS.md` (wild16, seed 1, 12 plies: an exact set
//!   of 1,766,076 hypotheses, 972,742 positions, with a bound of 2·10⁶).
//! - `--search N`: plays the games of seeds SEED to SEED+N−1 instead (no timing) and prints,
//!   per game, the largest exact set either belief held (hypotheses and positions) and where;
//!   to find games whose exact sets come near a bound.
//! - `--threads T`: the threads each update may use (`BeliefConfig::threads`; default 1, the
//!   single-threaded path).
//!
//! Beside the wall-clock seconds, the CPU seconds of the process (Linux: `/proc/self/stat`,
//! 10 ms ticks; `-` elsewhere), which a loaded machine inflates much less.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, Command, Observation, RuleSet, RuleSetId, Umpire};

/// What the command line asks for.
struct Args {
    rules: RuleSet,
    seed: u64,
    plies: u32,
    bound: usize,
    small: Option<usize>,
    updates: bool,
    search: Option<u64>,
    threads: usize,
}

fn parse() -> Args {
    let mut positional = Vec::new();
    let mut updates = false;
    let mut search = None;
    let mut threads = 1;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--updates" => updates = true,
            "--search" => {
                search = Some(
                    it.next()
                        .and_then(|s| s.parse().ok())
                        .expect("--search N: a number of games"),
                );
            }
            "--threads" => {
                threads = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--threads T: a number of threads");
            }
            _ => positional.push(a),
        }
    }
    let rules = *positional
        .first()
        .map_or(RuleSetId::Wild16, |s| s.parse().expect("a rule set"))
        .rules();
    Args {
        rules,
        seed: positional.get(1).map_or(1, |s| s.parse().expect("a seed")),
        plies: positional.get(2).map_or(20, |s| s.parse().expect("plies")),
        bound: positional
            .get(3)
            .map_or(1_000_000, |s| s.parse().expect("bound")),
        small: positional.get(4).map(|s| s.parse().expect("small bound")),
        updates,
        search,
        threads,
    }
}

/// The random game of `seed`: calls `each` with the umpire and every observation, in order.
fn play(
    rules: RuleSet,
    seed: u64,
    plies: u32,
    mut each: impl FnMut(&Umpire, Observation),
    mut after_ply: impl FnMut(&Umpire),
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut umpire = Umpire::new(rules);
    let mut list = AttemptList::new();
    while !umpire.is_over() && umpire.plies() < plies {
        list.clear();
        let may_ask = umpire.mover_options(&mut list);
        let n = list.len() + usize::from(may_ask);
        let pick = rng.random_range(0..n);
        let command = if pick == list.len() {
            Command::AskAny
        } else {
            Command::Attempt(list[pick])
        };
        let before = umpire.plies();
        let outcome = umpire.submit(command);
        for side in [Color::White, Color::Black] {
            if let Some(obs) = outcome.observation(command, side) {
                each(&umpire, obs);
            }
        }
        if umpire.plies() != before {
            after_ply(&umpire);
        }
    }
}

fn main() {
    let args = parse();
    if let Some(games) = args.search {
        search(&args, games);
        return;
    }
    let (rules, seed, bound) = (args.rules, args.seed, args.bound);
    let config = BeliefConfig {
        bound,
        particles: None,
        seed,
        threads: args.threads,
        ..BeliefConfig::default()
    };
    let beliefs = std::cell::RefCell::new(
        [Color::White, Color::Black]
            .map(|side| Belief::new(rules, Chess::default(), side, config).expect("live")),
    );
    let smalls = std::cell::RefCell::new(args.small.map(|bound| {
        let config = BeliefConfig {
            bound,
            particles: None,
            seed,
            ..config
        };
        [Color::White, Color::Black]
            .map(|side| Belief::new(rules, Chess::default(), side, config).expect("live"))
    }));
    let times = std::cell::RefCell::new(([0f64; 2], [0f64; 2]));
    play(
        rules,
        seed,
        args.plies,
        |umpire, obs| {
            let i = usize::from(obs.player == Color::Black);
            let b = &mut beliefs.borrow_mut()[i];
            let before = b.hypotheses();
            let t = Instant::now();
            let c = cpu_seconds();
            b.observe(&obs).expect("fits");
            let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
            let mut tm = times.borrow_mut();
            tm.0[i] += wall;
            tm.1[i] += cpu;
            if args.updates {
                println!(
                    "  update ply {:3} {:5} {:<22} hypotheses {:>9} -> {:>9} {} wall {:7.3}s cpu {:6.2}s",
                    umpire.plies(),
                    if i == 0 { "white" } else { "black" },
                    describe(&obs),
                    before,
                    b.hypotheses(),
                    if b.is_exact() { "exact " } else { "approx" },
                    wall,
                    cpu
                );
            }
            if let Some(sm) = smalls.borrow_mut().as_mut() {
                sm[i].observe(&obs).expect("fits");
            }
        },
        |umpire| {
            let beliefs = beliefs.borrow();
            let mut tm = times.borrow_mut();
            println!(
                "ply {:3}  white {:>9} {} {:8.3}s (cpu {:6.2}s)  black {:>9} {} {:8.3}s (cpu {:6.2}s)",
                umpire.plies(),
                beliefs[0].size(),
                exactness(&beliefs[0]),
                tm.0[0],
                tm.1[0],
                beliefs[1].size(),
                exactness(&beliefs[1]),
                tm.0[1],
                tm.1[1]
            );
            if let Some(sm) = smalls.borrow().as_ref() {
                for (b, s) in beliefs.iter().zip(sm) {
                    let e = s.size_estimate();
                    let truth = if b.is_exact() {
                        format!("ratio to the exact size {:.2}", e.value / b.size() as f64)
                    } else {
                        "exact size unknown".to_owned()
                    };
                    println!(
                        "          {:?} with bound {}: {} {:.4e} (relative error {:.2}, at least {}), {truth}",
                        s.side(),
                        args.small.unwrap_or(0),
                        if e.exact { "exact" } else { "estimate" },
                        e.value,
                        e.relative_error,
                        e.lower_bound
                    );
                }
            }
            *tm = ([0.0; 2], [0.0; 2]);
        },
    );
}

/// `--search N`: the largest exact set of each game.
fn search(args: &Args, games: u64) {
    for seed in args.seed..args.seed.saturating_add(games) {
        let config = BeliefConfig {
            bound: args.bound,
            particles: None,
            seed,
            threads: args.threads,
            ..BeliefConfig::default()
        };
        let mut beliefs = [Color::White, Color::Black]
            .map(|side| Belief::new(args.rules, Chess::default(), side, config).expect("live"));
        // (hypotheses, positions, ply, side)
        let mut best = (0usize, 0usize, 0u32, Color::White);
        play(
            args.rules,
            seed,
            args.plies,
            |umpire, obs| {
                let b = &mut beliefs[usize::from(obs.player == Color::Black)];
                if !b.is_exact() {
                    return;
                }
                b.observe(&obs).expect("fits");
                if b.is_exact() && b.hypotheses() > best.0 {
                    best = (b.hypotheses(), b.held(), umpire.plies(), b.side());
                }
            },
            |_| {},
        );
        println!(
            "seed {seed:4}: largest exact set {:>9} hypotheses ({:>9} positions) at ply {:3}, {:?}",
            best.0, best.1, best.2, best.3
        );
    }
}

/// "exact " or "approx".
fn exactness(b: &Belief) -> &'static str {
    if b.is_exact() { "exact " } else { "approx" }
}

/// A short description of an observation: whose command, and what it was.
fn describe(obs: &Observation) -> String {
    match obs.own {
        Some(own) => {
            let command = match own.command {
                Command::Attempt(a) => a.to_string(),
                Command::AskAny => "Any?".to_owned(),
                other => format!("{other:?}"),
            };
            format!("own {command} {:?}", own.verdict).to_lowercase()
        }
        None if obs.moved => "opponent move".to_owned(),
        None => "opponent command".to_owned(),
    }
}

/// CPU seconds (user and system) of the whole process so far (every thread); NaN where unknown.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}
