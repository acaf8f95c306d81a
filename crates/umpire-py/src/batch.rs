//! Batched calls that run whole games in Rust: [`play_random_games`] (the playouts of
//! `umpire bench`) and [`match_games`] (built-in agents against each other).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_ai::{AgentConfig, AgentKind, play_match, setup_view};
use umpire_rules::playout::{PlayoutStats, random_game};
use umpire_rules::shakmaty::Color;
use umpire_rules::{RuleSet, Umpire};

/// The most worker threads a batched call starts.
pub const MAX_THREADS: usize = 64;

/// Counts from a batch of random games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomBatch {
    /// Commands judged, moves played, games.
    pub stats: PlayoutStats,
    /// Games won by White, by Black, drawn (or stopped at the ply limit).
    pub results: [u64; 3],
}

fn tally(umpire: &Umpire, results: &mut [u64; 3]) {
    match umpire.result().and_then(|r| r.winner) {
        Some(Color::White) => results[0] += 1,
        Some(Color::Black) => results[1] += 1,
        None => results[2] += 1,
    }
}

/// Plays `games` random games (uniform over each mover's own-board options, as
/// `umpire bench`) under `rules`, from `seed`, on `threads` threads (at least 1, at most
/// [`MAX_THREADS`]); each thread's games come from its own seed, so a run replays exactly for
/// the same `seed` and `threads`.
pub fn play_random_games(
    rules: RuleSet,
    games: u64,
    seed: u64,
    max_plies: u32,
    threads: usize,
) -> RandomBatch {
    let threads = threads.clamp(1, MAX_THREADS);
    let fresh = Umpire::new(rules);
    let run = |share: u64, thread_seed: u64| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(thread_seed);
        let mut batch = RandomBatch::default();
        for _ in 0..share {
            let mut umpire = fresh.clone();
            batch
                .stats
                .add(random_game(&mut umpire, &mut rng, max_plies, |_, _| {}));
            tally(&umpire, &mut batch.results);
        }
        batch
    };
    let n = threads as u64;
    let share = |i: u64| games / n + u64::from(i < games % n);
    if threads == 1 {
        return run(games, seed);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let thread_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i);
                scope.spawn(move || run(share(i), thread_seed))
            })
            .collect();
        let mut total = RandomBatch::default();
        for h in handles {
            if let Ok(b) = h.join() {
                total.stats.add(b.stats);
                for (t, r) in total.results.iter_mut().zip(b.results) {
                    *t += r;
                }
            }
        }
        total
    })
}

/// The score of a match between two agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games played.
    pub games: u64,
    /// Games won by the first agent, by the second, drawn.
    pub wins: [u64; 3],
    /// Commands judged in all.
    pub attempts: u64,
    /// Moves played in all.
    pub plies: u64,
}

/// Plays `games` games between agents `a` and `b` (colours alternating, `a` White first)
/// under `rules` from the standard start, each agent seeded from `seed` and the game number.
/// Errors carry the match runner's message.
pub fn match_games(
    a: AgentKind,
    b: AgentKind,
    rules: RuleSet,
    games: u64,
    seed: u64,
    max_plies: u32,
) -> Result<MatchScore, String> {
    let config = AgentConfig::default();
    let mut score = MatchScore::default();
    for g in 0..games {
        let mut umpire = Umpire::new(rules);
        let a_white = g % 2 == 0;
        let (white_kind, black_kind) = if a_white { (a, b) } else { (b, a) };
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let mut white = white_kind.build(
            setup_view(rules, umpire.position(), Color::White),
            game_seed.wrapping_mul(2),
            &config,
        );
        let mut black = black_kind.build(
            setup_view(rules, umpire.position(), Color::Black),
            game_seed.wrapping_mul(2).wrapping_add(1),
            &config,
        );
        let stats = play_match(
            &mut umpire,
            [white.as_mut(), black.as_mut()],
            max_plies,
            &mut (),
        )
        .map_err(|e| e.to_string())?;
        score.games += 1;
        score.attempts += stats.attempts;
        score.plies += stats.plies;
        match (umpire.result().and_then(|r| r.winner), a_white) {
            (Some(Color::White), true) | (Some(Color::Black), false) => score.wins[0] += 1,
            (Some(_), _) => score.wins[1] += 1,
            (None, _) => score.wins[2] += 1,
        }
    }
    Ok(score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSetId;

    #[test]
    fn batches_count_every_game_and_replay() {
        let rules = *RuleSetId::Wild16.rules();
        let one = play_random_games(rules, 9, 3, 10_000, 1);
        assert_eq!(one.stats.games, 9);
        assert_eq!(one.results.iter().sum::<u64>(), 9);
        assert!(one.stats.attempts >= one.stats.plies && one.stats.plies > 9);
        assert_eq!(play_random_games(rules, 9, 3, 10_000, 1), one);
        let three = play_random_games(rules, 10, 3, 10_000, 3);
        assert_eq!(three.stats.games, 10);
        assert_eq!(play_random_games(rules, 10, 3, 10_000, 3), three);
    }

    #[test]
    fn a_match_scores_every_game() {
        let rules = *RuleSetId::Wild16.rules();
        let s = match_games(AgentKind::Random, AgentKind::GuidedRandom, rules, 4, 1, 400).unwrap();
        assert_eq!(s.games, 4);
        assert_eq!(s.wins.iter().sum::<u64>(), 4);
    }
}
