//! `clone_from` of a game, its record and its tags (which keep the target's buffers) copies
//! exactly what `clone` copies, in both directions: a played game into a fresh one and back.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::record::{Game, Tags};
use umpire_rules::{AttemptList, Command, RuleSetId};

fn played(id: RuleSetId, seed: u64, commands: usize) -> Game {
    let mut game = Game::new(*id.rules());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut list = AttemptList::new();
    for _ in 0..commands {
        if game.umpire().is_over() {
            break;
        }
        list.clear();
        let may_ask = game.umpire().mover_options(&mut list);
        let command = if may_ask && rng.random_range(0..8) == 0 || list.is_empty() {
            Command::AskAny
        } else {
            Command::Attempt(list[rng.random_range(0..list.len())])
        };
        game.submit(command);
    }
    game
}

#[test]
fn clone_from_copies_games_both_ways() {
    for id in RuleSetId::ALL {
        let fresh = Game::new(*id.rules());
        let long = played(id, 5, 400);
        let short = played(id, 9, 40);
        assert!(long.record().entries.len() > short.record().entries.len());
        for (target, source) in [
            (&fresh, &long),
            (&long, &fresh),
            (&long, &short),
            (&short, &long),
        ] {
            let mut copy = target.clone();
            copy.clone_from(source);
            assert_eq!(copy.record(), source.record(), "{id}");
            assert_eq!(copy.umpire().position(), source.umpire().position(), "{id}");
            assert_eq!(copy.umpire().plies(), source.umpire().plies(), "{id}");
            assert_eq!(copy.umpire().is_over(), source.umpire().is_over(), "{id}");
            // The copy plays on as the source does.
            let (mut a, mut b) = (copy.clone(), source.clone());
            let mut list = AttemptList::new();
            if !a.umpire().is_over() {
                a.umpire().mover_options(&mut list);
                if let Some(&first) = list.first() {
                    let (oa, ob) = (
                        a.submit(Command::Attempt(first)),
                        b.submit(Command::Attempt(first)),
                    );
                    assert_eq!(oa, ob, "{id}");
                    assert_eq!(a.record(), b.record(), "{id}");
                }
            }
        }
    }
}

#[test]
fn clone_from_copies_tags() {
    let few = Tags::new();
    let many = Tags::from_pairs([("Annotator", "me"), ("White", "Ann"), ("ECO", "C20")]).unwrap();
    for (target, source) in [(&few, &many), (&many, &few), (&many, &many)] {
        let mut copy = target.clone();
        copy.clone_from(source);
        assert_eq!(&copy, source);
    }
}
