//! A whole game's belief ply by ply ([`umpire_belief::review`]): one belief per move, equal to
//! a belief fed the same side's observations up to that move; both sides streamed at once.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::review::{PlyStream, whole_game};
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, RuleSet};

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

fn config() -> BeliefConfig {
    BeliefConfig {
        bound: 500,
        particles: Some(100),
        seed: 3,
        threads: 1,
        ..BeliefConfig::default()
    }
}

#[test]
fn each_ply_equals_a_belief_fed_up_to_that_ply() {
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY] {
        let record = random_record(rules, 7, 14);
        for side in [Color::White, Color::Black] {
            let mut stream = PlyStream::of_record(&record, side, config()).unwrap();
            let mut plies = Vec::new();
            while let Some(step) = stream.next_ply() {
                let belief = step.unwrap();
                let ply = belief.plies();
                plies.push(ply);
                let mut alone = Belief::new(rules, Chess::default(), side, config()).unwrap();
                for obs in record.observations_until(side, Some(ply)).0 {
                    alone.observe(&obs).unwrap();
                }
                assert_eq!(
                    alone.transcript(),
                    belief.transcript(),
                    "{side:?} ply {ply}"
                );
                assert_eq!(alone.size_estimate(), belief.size_estimate());
                assert_eq!(
                    alone.positions().collect::<Vec<_>>(),
                    belief.positions().collect::<Vec<_>>()
                );
            }
            let total = record.plies() as u32;
            assert_eq!(plies, (1..=total).collect::<Vec<_>>(), "{side:?}");
        }
    }
}

#[test]
fn whole_game_streams_every_ply_of_both_sides_in_order() {
    let record = random_record(RuleSet::WILD16, 9, 16);
    let total = record.plies() as u32;
    let mut seen = [Vec::new(), Vec::new()];
    whole_game(
        &record,
        config(),
        |b: &Belief| b.held(),
        |side, ply, held| {
            assert!(held > 0);
            seen[usize::from(side == Color::Black)].push(ply);
            true
        },
    )
    .unwrap();
    for plies in &seen {
        assert_eq!(*plies, (1..=total).collect::<Vec<_>>());
    }
    // Stopping after the first summary: no more are handed over.
    let mut calls = 0;
    whole_game(
        &record,
        config(),
        |b: &Belief| b.plies(),
        |_, _, _| {
            calls += 1;
            false
        },
    )
    .unwrap();
    assert_eq!(calls, 1);
}
