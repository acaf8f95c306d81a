//! The umpire's hot path never allocates: random games under every rule set, counted by a
//! global allocator that tallies allocations made on this thread.

use umpire_testkit::counting_alloc::{Counting, allocations};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::playout::random_game;
use umpire_rules::{RuleSetId, Umpire};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn judging_attempts_never_allocates() {
    let before_any = allocations();
    let probe = vec![1u8; 16];
    assert!(
        allocations() > before_any,
        "the counter must see allocations"
    );
    drop(probe);

    for id in RuleSetId::ALL {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut judged = 0u64;
        for _ in 0..20 {
            let mut umpire = Umpire::new(*id.rules());
            let before = allocations();
            let stats = random_game(&mut umpire, &mut rng, 2000, |_, _| {});
            assert_eq!(allocations(), before, "{id}: a random game allocated");
            judged += stats.attempts;
        }
        assert!(judged > 1000, "{id}: only {judged} attempts judged");
    }
}

#[test]
fn clone_from_into_a_kept_umpire_never_allocates_and_copies_everything() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut scratch = Umpire::new(*RuleSetId::Wild16.rules());
    for id in RuleSetId::ALL {
        let mut umpire = Umpire::new(*id.rules());
        random_game(&mut umpire, &mut rng, 60, |_, _| {});
        // A kept umpire whose repetition history has room: copying into it allocates nothing.
        let before = allocations();
        scratch.clone_from(&umpire);
        assert_eq!(allocations(), before, "{id}: clone_from allocated");
        // Every field is copied: the copy answers like the original from here on.
        assert_eq!(format!("{scratch:?}"), format!("{umpire:?}"), "{id}");
        assert_eq!(
            format!("{:?}", umpire.clone()),
            format!("{umpire:?}"),
            "{id}"
        );
    }
}

#[test]
fn reset_to_builds_what_from_position_builds_without_allocating() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut kept = Umpire::new(*RuleSetId::Wild16.rules());
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for plies in [0, 7, 40, 400] {
            let mut game = Umpire::new(rules);
            random_game(&mut game, &mut rng, plies, |_, _| {});
            let pos = game.position().clone();
            let before = allocations();
            let reset = kept.reset_to(rules, &pos);
            assert_eq!(allocations(), before, "{id}: reset_to allocated");
            match Umpire::from_position(rules, pos) {
                Ok(fresh) => {
                    assert!(reset.is_ok(), "{id}");
                    assert_eq!(
                        format!("{kept:?}"),
                        format!("{fresh:?}"),
                        "{id} after {plies}"
                    );
                }
                Err(e) => {
                    assert_eq!(reset.map_err(|r| r.to_string()), Err(e.to_string()), "{id}");
                }
            }
        }
    }
    // A mate: no legal move, the same error as `from_position`.
    let mate: umpire_rules::shakmaty::fen::Fen =
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse()
            .unwrap();
    let mate: umpire_rules::shakmaty::Chess = mate
        .into_position(umpire_rules::shakmaty::CastlingMode::Standard)
        .unwrap();
    let rules = *RuleSetId::Wild16.rules();
    assert!(Umpire::from_position(rules, mate.clone()).is_err());
    assert!(kept.reset_to(rules, &mate).is_err());
    // And the kept umpire is usable again after a reset to a live position.
    kept.reset_to(rules, &umpire_rules::shakmaty::Chess::default())
        .unwrap();
    assert_eq!(format!("{kept:?}"), format!("{:?}", Umpire::new(rules)));
}

#[test]
fn reset_to_from_the_middle_of_a_turn_forgets_the_turn() {
    use umpire_rules::{AttemptList, Command, Verdict};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for plies in [0, 9, 60] {
            // A kept umpire in the middle of a turn: a draw offered, "Any?" asked, every
            // attempt that would be rejected submitted (several rejections held).
            let mut kept = Umpire::new(rules);
            random_game(&mut kept, &mut rng, plies, |_, _| {});
            let _ = kept.submit(Command::OfferDraw);
            let _ = kept.submit(Command::AskAny);
            let mut options = AttemptList::new();
            kept.mover_options(&mut options);
            let mut rejected = 0;
            for &a in &options {
                let mut probe = kept.clone();
                if probe.submit(Command::Attempt(a)).verdict != Verdict::Accepted {
                    let _ = kept.submit(Command::Attempt(a));
                    rejected += 1;
                }
            }
            let mut game = Umpire::new(rules);
            random_game(&mut game, &mut rng, plies + 5, |_, _| {});
            let pos = game.position().clone();
            let reset = kept.reset_to(rules, &pos);
            match Umpire::from_position(rules, pos) {
                Ok(fresh) => {
                    assert!(reset.is_ok(), "{id}");
                    assert_eq!(
                        format!("{kept:?}"),
                        format!("{fresh:?}"),
                        "{id} after {plies} ({rejected} rejected before the reset)"
                    );
                }
                Err(e) => {
                    assert_eq!(reset.map_err(|r| r.to_string()), Err(e.to_string()), "{id}");
                }
            }
        }
    }
}
