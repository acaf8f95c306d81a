//! Prints, per ply of one random game, the belief update time and the set size of both
//! players; with a fifth argument SMALL, also the size estimate of a belief bounded by SMALL
//! fed the same observations, and its ratio to the exact size while that is known.
//! `cargo run --release -p umpire-belief --example belief_plies -- [RULES] [SEED] [PLIES] [BOUND] [SMALL]`
//!
//! Beside the wall-clock seconds, the CPU seconds of this thread (Linux: `/proc/thread-self/stat`,
//! 10 ms ticks; `-` elsewhere), which a loaded machine inflates much less.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, Command, RuleSetId, Umpire};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = *args
        .get(1)
        .map_or(RuleSetId::Wild16, |s| s.parse().expect("a rule set"))
        .rules();
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let plies: u32 = args.get(3).map_or(20, |s| s.parse().expect("plies"));
    let bound: usize = args.get(4).map_or(1_000_000, |s| s.parse().expect("bound"));
    let small: Option<usize> = args.get(5).map(|s| s.parse().expect("small bound"));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut umpire = Umpire::new(rules);
    let config = BeliefConfig { bound, seed };
    let mut beliefs = [Color::White, Color::Black]
        .map(|side| Belief::new(rules, Chess::default(), side, config).expect("live"));
    let mut smalls = small.map(|bound| {
        let config = BeliefConfig { bound, seed };
        [Color::White, Color::Black]
            .map(|side| Belief::new(rules, Chess::default(), side, config).expect("live"))
    });
    let mut list = AttemptList::new();
    let mut time = [0f64; 2];
    let mut cpu = [0f64; 2];
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
        for (i, b) in beliefs.iter_mut().enumerate() {
            if let Some(obs) = outcome.observation(command, b.side()) {
                let t = Instant::now();
                let c = cpu_seconds();
                b.observe(&obs).expect("fits");
                time[i] += t.elapsed().as_secs_f64();
                cpu[i] += cpu_seconds() - c;
                if let Some(sm) = smalls.as_mut() {
                    sm[i].observe(&obs).expect("fits");
                }
            }
        }
        if umpire.plies() != before {
            println!(
                "ply {:3}  white {:>9} {} {:8.3}s (cpu {:6.2}s)  black {:>9} {} {:8.3}s (cpu {:6.2}s)",
                umpire.plies(),
                beliefs[0].size(),
                if beliefs[0].is_exact() {
                    "exact "
                } else {
                    "approx"
                },
                time[0],
                cpu[0],
                beliefs[1].size(),
                if beliefs[1].is_exact() {
                    "exact "
                } else {
                    "approx"
                },
                time[1],
                cpu[1]
            );
            if let Some(sm) = &smalls {
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
                        small.unwrap_or(0),
                        if e.exact { "exact" } else { "estimate" },
                        e.value,
                        e.relative_error,
                        e.lower_bound
                    );
                }
            }
            time = [0.0; 2];
            cpu = [0.0; 2];
        }
    }
}

/// CPU seconds (user and system) of this thread so far; NaN where unknown.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
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
