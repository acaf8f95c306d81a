//! Fewer particles than the bound ([`BeliefConfig::particles`], the fast path of issue 30):
//! every sample stays fully consistent, the sample holds at most the particles, and particles
//! equal to the bound change nothing.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::{Belief, BeliefConfig};
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
