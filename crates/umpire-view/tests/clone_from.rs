//! `PlayerView::clone_from` (which keeps the target's transcript buffer) copies exactly what
//! `clone` copies, in both directions: a view deep into a game into a fresh one and back.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{AttemptList, Command, RuleSetId};
use umpire_view::PlayerView;

/// The views of both players after `commands` random commands.
fn views(id: RuleSetId, seed: u64, commands: usize) -> [PlayerView; 2] {
    let mut game = Game::new(*id.rules());
    let start = |side| {
        let filtered = game.record().player_view(side).unwrap();
        PlayerView::at_start_of(&filtered)
    };
    let mut views = [start(Color::White), start(Color::Black)];
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
        let outcome = game.submit(command);
        for (view, side) in views.iter_mut().zip([Color::White, Color::Black]) {
            if let Some(obs) = outcome.observation(command, side) {
                view.observe(&obs).unwrap();
            }
        }
    }
    views
}

#[test]
fn clone_from_copies_views_both_ways() {
    for id in RuleSetId::ALL {
        let fresh = views(id, 1, 0);
        let long = views(id, 5, 400);
        let short = views(id, 9, 40);
        for side in 0..2 {
            assert!(long[side].transcript().len() > short[side].transcript().len());
            for (target, source) in [
                (&fresh[side], &long[side]),
                (&long[side], &fresh[side]),
                (&long[side], &short[side]),
                (&short[side], &long[side]),
            ] {
                let mut copy = target.clone();
                copy.clone_from(source);
                assert_eq!(&copy, source, "{id}");
            }
        }
    }
}
