//! The cost of a `VectorEnv` step in Rust alone: `n` games stepped together with random legal
//! actions, as the Python loop drives `umpire.VectorEnv`, without Python. Prints steps per
//! second of wall time.
//!
//! ```text
//! cargo run --profile ci -p umpire-py --example vector_bench -- 1000000 256         # steps, games
//! cargo run --profile ci -p umpire-py --example vector_bench -- 1000000 256 index   # by rank
//! ```
//!
//! By default each step lists every game's sorted legal actions (`legal_actions`) and plays one
//! drawn from each list (`step`); with `index` it reads only the counts and plays the drawn
//! rank (`counts`, `step_index`). Both draw the same ranks, so they play the same games.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_py::state::GameConfig;
use umpire_py::vector::{StepReport, VectorEnv};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let wanted: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(256);
    let by_index = args.next().as_deref() == Some("index");
    let config = GameConfig::new("wild16", None, false).map_err(|e| e.to_string())?;
    let mut env = VectorEnv::new(config, n).map_err(|e| e.to_string())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mut actions, mut offsets, mut chosen) = (Vec::new(), Vec::new(), vec![0i64; n]);
    let mut report = StepReport::default();
    let start = std::time::Instant::now();
    let mut steps = 0u64;
    while steps < wanted {
        if by_index {
            for (c, &count) in chosen.iter_mut().zip(env.counts()) {
                // Below 4,673: fits in an i64.
                *c = rng.random_range(0..usize::from(count)) as i64;
            }
            env.step_index(&chosen, &mut report)
                .map_err(|e| e.to_string())?;
        } else {
            env.legal_actions(&mut actions, &mut offsets);
            for (i, c) in chosen.iter_mut().enumerate() {
                let row = &actions[offsets[i] as usize..offsets[i + 1] as usize];
                *c = i64::from(row[rng.random_range(0..row.len())]);
            }
            env.step(&chosen, &mut report).map_err(|e| e.to_string())?;
        }
        steps += n as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{steps} steps in {n} games: {:.0} steps/s (wall), {} games done",
        steps as f64 / secs,
        env.games_done()
    );
    Ok(())
}
