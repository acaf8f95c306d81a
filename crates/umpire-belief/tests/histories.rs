//! Sampled hidden histories, written out as game records and replayed through the umpire, give
//! the player exactly the observations (and the Kriegspiel PGN view) of the real game — also
//! beyond the bound, where the set is sampled. Same seed, same samples.

mod common;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::{Color, Position};
use umpire_rules::{AttemptList, Command, RuleSet};

/// A random game record of `plies` moves, with draw offers now and then.
fn random_record(rules: RuleSet, seed: u64, plies: u32) -> Record {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(rules);
    game.set_tag("White", "Ann").unwrap();
    let mut list = AttemptList::new();
    while !game.umpire().is_over() && game.umpire().plies() < plies {
        let command = if rules.draw_offers && rng.random_range(0..25) == 0 {
            Command::OfferDraw
        } else {
            common::random_command(game.umpire(), &mut rng, &mut list)
        };
        let out = game.submit(command);
        if command == Command::OfferDraw
            && out.verdict == umpire_rules::Verdict::Answered
            && rng.random_range(0..2) == 0
        {
            game.submit(Command::DeclineDraw);
        }
    }
    game.into_record()
}

fn belief_of(record: &Record, side: Color, bound: usize, seed: u64) -> Belief {
    let rules = *record.rules.rules();
    let mut belief = Belief::new(
        rules,
        umpire_rules::shakmaty::Chess::default(),
        side,
        BeliefConfig {
            bound,
            particles: None,
            seed,
            ..BeliefConfig::default()
        },
    )
    .unwrap();
    for obs in record.player_view(side).unwrap().observations {
        belief.observe(&obs).unwrap();
    }
    belief
}

fn check_samples(record: &Record, side: Color, bound: usize) -> usize {
    let belief = belief_of(record, side, bound, 3);
    let want = record.player_pgn(side).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let picks = belief.sample_indices(6, &mut rng);
    for &i in &picks {
        let sample = sample_record(&belief, i, &record.tags).unwrap();
        sample.replay().expect("a sampled record replays");
        assert_eq!(
            sample.player_view(side).unwrap().observations,
            record.player_view(side).unwrap().observations,
            "{}: sample {i}",
            record.rules
        );
        assert_eq!(
            sample.player_pgn(side).unwrap(),
            want,
            "{}: sample {i}",
            record.rules
        );
    }
    picks.len()
}

#[test]
fn sampled_histories_replay_to_the_same_view_under_every_rule_set() {
    for (k, rules) in common::all_rules().enumerate() {
        for seed in 0..2u64 {
            let record = random_record(rules, seed * 10 + k as u64, 7);
            for side in [Color::White, Color::Black] {
                assert!(check_samples(&record, side, 1_000_000) > 0);
            }
        }
    }
}

#[test]
fn beyond_the_bound_samples_are_still_fully_consistent() {
    for rules in [RuleSet::WILD16, RuleSet::ENGLISH, RuleSet::UMPIRE1965] {
        let record = random_record(rules, 5, 8);
        for side in [Color::White, Color::Black] {
            let belief = belief_of(&record, side, 200, 3);
            assert!(
                !belief.is_exact(),
                "{}: the bound of 200 should be passed",
                rules.id
            );
            assert!(belief.size() > 200);
            assert!(check_samples(&record, side, 200) > 0);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_samples() {
    let record = random_record(RuleSet::WILD16, 11, 9);
    let run = |seed| {
        let belief = belief_of(&record, Color::Black, 300, seed);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        belief
            .sample(20, &mut rng)
            .iter()
            .map(|p| format!("{:?}", p.board()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2), "different seeds should sample differently");
}

#[test]
fn histories_ending_by_a_declared_end_replay_to_the_same_view() {
    // A flag fall, an abandonment (after 7 plies) and an abort (after 1), each declared for
    // the side to move, as a server does: both players' beliefs explain it.
    for (end, plies) in [
        (Command::FlagFall, 7),
        (Command::Abandon, 7),
        (Command::Abort, 1),
    ] {
        let mut record = random_record(RuleSet::WILD16, 21, plies);
        assert!(record.result.is_none(), "the random game ended early");
        let mut replayed = record.replay().unwrap();
        let turn = replayed.umpire().turn();
        let out = replayed.submit_as(turn, end);
        assert_eq!(out.verdict, umpire_rules::Verdict::Answered, "{end}");
        record = replayed.into_record();
        assert!(record.result.is_some());
        for side in [Color::White, Color::Black] {
            assert!(
                check_samples(&record, side, 1_000_000) > 0,
                "{end} {side:?}"
            );
        }
    }
}
