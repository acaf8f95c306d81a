//! The size beyond the bound: a certain lower bound that never exceeds the true size, an
//! estimate never below it, labelled as an estimate, and equal to the true size on the turn
//! the bound is first passed (every parent is expanded then, and the distinct children are
//! counted exactly).

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, RuleSet, Umpire};

#[test]
fn estimates_beyond_the_bound_are_bounded_below_and_exact_when_first_passed() {
    let mut first_passes = 0;
    for seed in 0..6u64 {
        let rules = RuleSet::WILD16;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(rules);
        let side = if seed % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        // The reference: a bound no set of these games reaches in 9 plies.
        let mut exact = Belief::new(
            rules,
            Chess::default(),
            side,
            BeliefConfig {
                bound: 1_000_000,
                particles: None,
                ..BeliefConfig::default()
            },
        )
        .unwrap();
        let bound = 300;
        let mut small = Belief::new(
            rules,
            Chess::default(),
            side,
            BeliefConfig {
                bound,
                particles: None,
                seed,
                ..BeliefConfig::default()
            },
        )
        .unwrap();
        let mut list = AttemptList::new();
        let mut was_exact = true;
        while umpire.plies() < 9 && !umpire.is_over() {
            let command = common::random_command(&umpire, &mut rng, &mut list);
            let out = umpire.submit(command);
            let Some(obs) = out.observation(command, side) else {
                continue;
            };
            exact.observe(&obs).unwrap();
            small.observe(&obs).unwrap();
            assert!(exact.is_exact(), "the reference set must stay exact");
            let truth = exact.size();
            let e = small.size_estimate();
            assert_eq!(e.exact, small.is_exact());
            if e.exact {
                assert_eq!(e.value as u64, truth);
                continue;
            }
            assert_eq!(e.lower_bound, small.held() as u64);
            assert!(
                e.lower_bound <= truth,
                "seed {seed}: lower bound above the truth"
            );
            assert!(e.value >= e.lower_bound as f64);
            assert!(e.relative_error.is_finite());
            if was_exact && obs.moved && obs.actor != side && truth < 2 * bound as u64 {
                // The turn the bound was first passed: every parent expanded (the expansion
                // stops early only past 4 times the bound of hypotheses).
                assert_eq!(small.size(), truth, "seed {seed}");
                first_passes += 1;
            }
            was_exact = false;
        }
    }
    assert!(
        first_passes > 0,
        "no game passed the bound on an opponent's move"
    );
}
