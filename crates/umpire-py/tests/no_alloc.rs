//! The step's hot parts allocate nothing: working out the mover's legal actions (into a list
//! with room) and resetting a played game to the start (`clone_from`, as `VectorEnv` resets an
//! ended game), counted by a global allocator that tallies allocations made on this thread.
//! A whole game stepped again after a reset allocates nothing either (but for an entry of more
//! announcements than `umpire_rules::record::INLINE_HEARD`): a record entry holds its
//! announcements inline, and the record and the views' transcripts keep their room across
//! resets (what a step may still allocate is that history growing beyond any earlier game's).

use umpire_testkit::counting_alloc::{Counting, allocations};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_py::legal::legal_actions_of;
use umpire_py::state::{GameConfig, KriegspielState};
use umpire_rules::RuleSetId;
use umpire_rules::shakmaty::Color;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn legal_actions_and_resets_never_allocate() {
    let before_any = allocations();
    let probe = vec![1u8; 16];
    assert!(
        allocations() > before_any,
        "the counter must see allocations"
    );
    drop(probe);

    let mut out = Vec::with_capacity(1024);
    for id in RuleSetId::ALL {
        for guided in [false, true] {
            let config = GameConfig::new(id.as_str(), None, guided).unwrap();
            let fresh = KriegspielState::new(config).unwrap();
            let mut s = fresh.clone();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            for _ in 0..3 {
                let mut steps = 0;
                while !s.is_terminal() && steps < 2_000 {
                    for side in [Color::White, Color::Black] {
                        out.clear();
                        let before = allocations();
                        legal_actions_of(s.view(side), guided, &mut out);
                        assert_eq!(allocations(), before, "{id}: legal actions allocated");
                    }
                    let k = rng.random_range(0..s.mover_count());
                    let a = s.mover_set().nth(k).unwrap();
                    s.apply_action(i64::from(a)).unwrap();
                    steps += 1;
                }
                assert!(steps > 10, "{id}: a game of {steps} steps");
                let before = allocations();
                s.clone_from(&fresh);
                assert_eq!(allocations(), before, "{id}: the reset allocated");
            }
        }
    }
}

#[test]
fn a_game_replayed_after_a_reset_allocates_nothing() {
    for id in RuleSetId::ALL {
        let config = GameConfig::new(id.as_str(), None, false).unwrap();
        let fresh = KriegspielState::new(config).unwrap();
        let mut s = fresh.clone();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut played = Vec::new();
        while !s.is_terminal() && played.len() < 2_000 {
            let k = rng.random_range(0..s.mover_count());
            let a = i64::from(s.mover_set().nth(k).unwrap());
            s.apply_action(a).unwrap();
            played.push(a);
        }
        assert!(played.len() > 10, "{id}: a game of {} steps", played.len());
        let first = s.serialize();
        s.clone_from(&fresh);
        let before = allocations();
        for &a in &played {
            s.apply_action(a).unwrap();
        }
        let spilled = s
            .game()
            .record()
            .entries
            .iter()
            .filter(|e| e.announcements.is_spilled())
            .count();
        // One allocation per entry of more announcements than an entry holds inline (rare:
        // none in most of these games), none otherwise.
        assert_eq!(
            allocations() - before,
            spilled as u64,
            "{id}: {} steps replayed allocated",
            played.len()
        );
        // The same game again, to the last announcement.
        assert_eq!(s.serialize(), first, "{id}");
    }
}
