//! A view fed with `observe_unkept` knows what a view fed with `observe` knows, except the
//! transcript it does not keep.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::playout::random_game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{AttemptList, Command, RuleSetId, Umpire};
use umpire_view::PlayerView;

#[test]
fn an_unkept_view_knows_what_a_kept_one_knows_under_every_rule_set() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for seed in 0..6u64 {
            let mut umpire = Umpire::new(rules);
            let start = [
                PlayerView::standard(rules, Color::White),
                PlayerView::standard(rules, Color::Black),
            ];
            let (mut kept, mut lean) = (start.clone(), start);
            let mut driver = umpire.clone();
            let mut log: Vec<Command> = Vec::new();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            random_game(&mut driver, &mut rng, 300, |command, _| log.push(command));
            let mut heard = 0;
            for command in log {
                let outcome = umpire.submit(command);
                for i in 0..2 {
                    let side = kept[i].side();
                    if let Some(seen) = outcome.observation(command, side) {
                        kept[i].observe(&seen).unwrap();
                        lean[i].observe_unkept(&seen).unwrap();
                        heard += 1;
                    }
                    let (k, l) = (&kept[i], &lean[i]);
                    let ctx = format!("{id} seed {seed} after {command}");
                    assert_eq!(l.own_board(), k.own_board(), "{ctx}");
                    assert_eq!(l.turn(), k.turn(), "{ctx}");
                    assert_eq!(l.enemy(), k.enemy(), "{ctx}");
                    assert_eq!(l.result(), k.result(), "{ctx}");
                    assert_eq!(l.to_move(), k.to_move(), "{ctx}");
                    assert_eq!(l.plies(), k.plies(), "{ctx}");
                    let (mut ko, mut lo) = (AttemptList::new(), AttemptList::new());
                    assert_eq!(l.options(&mut lo), k.options(&mut ko), "{ctx}");
                    assert_eq!(lo, ko, "{ctx}");
                    assert!(l.transcript().is_empty(), "{ctx}: a transcript kept");
                }
            }
            assert!(heard > 0);
            assert!(!kept[0].transcript().is_empty());
        }
    }
}
