//! The cost of one environment step in Rust alone: random playouts through
//! [`KriegspielState`] (legal actions from the mover's view, `apply_action`, both views fed),
//! as the Python loop and `VectorEnv` drive it, without Python. Prints steps per second.
//!
//! ```text
//! cargo run --profile ci -p umpire-py --example step_bench -- 300   # games
//! valgrind --tool=callgrind target/ci/examples/step_bench 30        # instructions per step
//! ```

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_py::state::{GameConfig, KriegspielState};

fn main() -> Result<(), String> {
    let wanted: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let config = GameConfig::new("wild16", None, false).map_err(|e| e.to_string())?;
    let fresh = KriegspielState::new(config).map_err(|e| e.to_string())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let start = std::time::Instant::now();
    let (mut steps, mut games) = (0u64, 0u64);
    // Reset as `VectorEnv` resets an ended game: into the buffers the last game left.
    let mut s = fresh.clone();
    while games < wanted {
        s.clone_from(&fresh);
        while !s.is_terminal() {
            let k = rng.random_range(0..s.mover_count());
            let a = s.mover_set().nth(k).ok_or("no action of that rank")?;
            s.apply_action(a as i64).map_err(|e| e.to_string())?;
            steps += 1;
        }
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {steps} steps: {:.0} steps/s, {:.1} steps/game",
        steps as f64 / secs,
        steps as f64 / games as f64
    );
    Ok(())
}
