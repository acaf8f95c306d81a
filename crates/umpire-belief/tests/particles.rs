//! Fewer particles than the bound ([`BeliefConfig::particles`], the fast path of issue 30):
//! every sample stays fully consistent, the sample holds at most the particles, particles equal
//! to the bound change nothing, and the marginals stay within a stated distance of a run with
//! ten times the bound's particles.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::review::PlyStream;
use umpire_belief::{Belief, BeliefConfig, Marginals};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::{Color, Position};
use umpire_rules::{AttemptList, RuleSet};

/// A random game record of at most `plies` moves.
fn random_record(rules: RuleSet, seed: u64, plies: u32) -> Record {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(rules);
    let mut list = AttemptList::new();
    while !game.umpire().is_over() && game.umpire().plies() < plies {
        let command = common::random_command(game.umpire(), &mut rng, &mut list);
        game.submit(command);
    }
    game.into_record()
}

fn config(bound: usize, particles: Option<usize>, seed: u64) -> BeliefConfig {
    BeliefConfig {
        bound,
        particles,
        seed,
        threads: 2,
        parallel_from: 64,
        ..BeliefConfig::default()
    }
}

fn belief_of(record: &Record, side: Color, config: BeliefConfig) -> Belief {
    let start = umpire_rules::shakmaty::Chess::default();
    let mut belief = Belief::new(*record.rules.rules(), start, side, config).unwrap();
    for obs in record.player_view(side).unwrap().observations {
        belief.observe(&obs).unwrap();
    }
    belief
}

#[test]
fn fewer_particles_than_the_bound_keep_every_sample_fully_consistent() {
    let mut sampled = 0;
    for (k, rules) in common::all_rules().enumerate() {
        let record = random_record(rules, 40 + k as u64, 12);
        for side in [Color::White, Color::Black] {
            let belief = belief_of(&record, side, config(300, Some(40), 5));
            if belief.is_exact() {
                assert!(belief.held() <= 300, "{}", rules.id);
            } else {
                sampled += 1;
                assert!(
                    belief.hypotheses() <= 40,
                    "{}: {}",
                    rules.id,
                    belief.hypotheses()
                );
            }
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
            for i in belief.sample_indices(8, &mut rng) {
                let sample = sample_record(&belief, i, &record.tags).unwrap();
                sample.replay().expect("a sampled record replays");
                let got = sample.player_view(side).unwrap().observations;
                assert_eq!(got, belief.transcript(), "{}: sample {i}", rules.id);
            }
        }
    }
    assert!(sampled >= 4, "too few beliefs passed the bound: {sampled}");
}

#[test]
fn particles_equal_to_the_bound_change_nothing() {
    let record = random_record(RuleSet::WILD16, 11, 14);
    let boards = |particles| {
        let belief = belief_of(&record, Color::Black, config(300, particles, 2));
        assert!(!belief.is_exact());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        (
            belief.size_estimate(),
            belief
                .sample(30, &mut rng)
                .iter()
                .map(|p| format!("{:?}", p.board()))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(boards(None), boards(Some(300)));
    assert_ne!(boards(None).1, boards(Some(100)).1);
}

#[test]
fn one_thread_and_two_hold_the_same_sample_with_fewer_particles() {
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY] {
        let record = random_record(rules, 17, 14);
        let run = |threads| {
            let config = BeliefConfig {
                threads,
                ..config(400, Some(60), 8)
            };
            let belief = belief_of(&record, Color::White, config);
            assert!(
                !belief.is_exact(),
                "{}: the bound should be passed",
                rules.id
            );
            (
                belief.size_estimate(),
                belief
                    .positions()
                    .map(|p| format!("{:?}", p.board()))
                    .collect::<Vec<_>>(),
                (0..belief.hypotheses())
                    .map(|i| belief.opponent_moves(i))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(run(1), run(2), "{}", rules.id);
    }
}

/// The stated bounds of issue 30's goal 4 at the test's scale: with a bound of 2,000 and 500
/// particles, the mean over the squares of the total variation distance between the marginals
/// and those of a run keeping 20,000 (ten times the bound's particles) stays under 0.12 at
/// plies 10, 20 and 40 of random wild16 games, and on average over those plies, sides and games
/// under twice the distance of a run keeping the bound's 2,000 (measured 0.016–0.120, average
/// 0.058, against 0.043 for the bound's particles; the largest, 0.1198, is White's ply 20 of
/// the second game, where a command left one position: close to the bound, but the runs are
/// seeded, so the figure is the same every time).
#[test]
fn the_marginals_stay_close_to_a_run_with_ten_times_the_particles() {
    const STATED: f64 = 0.12;
    let (mut fast_sum, mut today_sum) = (0.0, 0.0);
    let plies = [10, 20, 40];
    for seed in [1u64, 2] {
        let record = random_record(RuleSet::WILD16, seed, 40);
        for side in [Color::White, Color::Black] {
            let marginals = |particles| {
                let mut stream =
                    PlyStream::of_record(&record, side, config(2_000, Some(particles), seed))
                        .unwrap();
                let mut at = Vec::new();
                while let Some(step) = stream.next_ply() {
                    let belief = step.unwrap();
                    if plies.contains(&belief.plies()) {
                        at.push(Marginals::of(belief));
                    }
                }
                at
            };
            let (fast, today, reference) = (marginals(500), marginals(2_000), marginals(20_000));
            assert_eq!(fast.len(), reference.len());
            for (k, (f, r)) in fast.iter().zip(&reference).enumerate() {
                let (mean, max) = f.total_variation(r);
                let (today_mean, _) = today[k].total_variation(r);
                eprintln!(
                    "seed {seed} {side:?} ply {}: TV/square mean {mean:.4} max {max:.4} (bound's particles: {today_mean:.4}), held {} vs {}",
                    plies[k], f.positions, r.positions
                );
                fast_sum += mean;
                today_sum += today_mean;
                assert!(
                    mean < STATED,
                    "seed {seed} {side:?} ply {}: {mean}",
                    plies[k]
                );
            }
        }
    }
    assert!(
        fast_sum < 2.0 * today_sum,
        "the fast path drifts: {fast_sum} against {today_sum}"
    );
}

#[test]
fn total_variation_is_zero_for_equal_marginals_and_one_for_disjoint_ones() {
    let record = random_record(RuleSet::WILD16, 3, 6);
    let white = Marginals::of(&belief_of(&record, Color::White, config(1_000, None, 1)));
    assert_eq!(white.total_variation(&white), (0.0, 0.0));
    let (mut empty, mut pawns) = (white.clone(), white.clone());
    for (e, p) in empty.p.iter_mut().zip(&mut pawns.p) {
        *e = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        *p = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    }
    assert_eq!(empty.total_variation(&pawns), (1.0, 1.0));
    let (mean, max) = white.total_variation(&empty);
    assert!(mean > 0.0 && mean < max && max <= 1.0, "{mean} {max}");
}
