use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_py::state::{GameConfig, KriegspielState};
fn main() {
    let games_wanted: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let config = GameConfig::new("wild16", None, false).unwrap();
    let fresh = KriegspielState::new(config).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let t = std::time::Instant::now();
    let mut steps = 0u64;
    let mut games = 0u64;
    while games < games_wanted {
        let mut s = fresh.clone();
        while !s.is_terminal() {
            let a = s.mover_actions();
            let x = a[rng.random_range(0..a.len())];
            s.apply_action(x as i64).unwrap();
            steps += 1;
        }
        games += 1;
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{} steps/s {} games/s {} steps/game",
        steps as f64 / e,
        games as f64 / e,
        steps as f64 / games as f64
    );
}
