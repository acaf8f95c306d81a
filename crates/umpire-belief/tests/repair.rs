//! A repair (every sampled hypothesis ruled out; replay from the last exact set with a larger
//! sample) stays within its budget of work, and what it rebuilds is still fully consistent:
//! sampled hidden histories replay to the player's own observations.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::record::Game;
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, RuleSet, RuleSetId};

/// Children of one parent a budget check may let through (the check runs after each parent):
/// far above the legal moves of any position times the branches of a turn seen in practice.
const ONE_PARENT: u64 = 2_000;

#[test]
fn repairs_stay_within_their_budget_and_rebuild_consistent_samples() {
    let (mut repairs, mut rebuilt, mut checked, mut dead) = (0, 0, 0, 0);
    for id in RuleSetId::ALL {
        let rules: RuleSet = *id.rules();
        for seed in 0..4 {
            let bound = 4 + 8 * seed as usize;
            // Repairs of these games do about 40 to 2,000 times the bound of work (measured):
            // this budget lets some finish and stops others.
            let budget = 400 * bound as u64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut game = Game::new(rules);
            let mut list = AttemptList::new();
            let mut beliefs = [Color::White, Color::Black].map(|side| {
                let config = BeliefConfig {
                    bound,
                    particles: None,
                    seed,
                    repair_budget: budget,
                    ..BeliefConfig::default()
                };
                Belief::new(rules, Chess::default(), side, config).expect("a live start")
            });
            while !game.umpire().is_over() && game.umpire().plies() < 30 {
                let command = common::random_command(game.umpire(), &mut rng, &mut list);
                let outcome = game.submit(command);
                for b in &mut beliefs {
                    let Some(obs) = outcome.observation(command, b.side()) else {
                        continue;
                    };
                    let before = b.repairs();
                    b.observe(&obs).expect("fits");
                    if b.repairs() == before {
                        continue;
                    }
                    repairs += 1;
                    assert!(
                        b.last_repair_work() <= budget + ONE_PARENT,
                        "{id:?} seed {seed}: a repair did {} work, budget {budget}",
                        b.last_repair_work(),
                    );
                    if b.held() == 0 {
                        // Failed (or out of budget): empty, not exact, and never repaired again.
                        assert!(!b.is_exact());
                        dead += 1;
                        continue;
                    }
                    rebuilt += 1;
                    // The rebuilt hypotheses are fully consistent: their hidden histories give
                    // the player exactly what it heard.
                    let record = game.clone().into_record();
                    let want = record.player_view(b.side()).unwrap().observations;
                    let mut pick = Xoshiro256PlusPlus::seed_from_u64(seed);
                    for i in b.sample_indices(2, &mut pick) {
                        let sample = sample_record(b, i, &record.tags).expect("a hidden history");
                        assert_eq!(
                            sample.player_view(b.side()).unwrap().observations,
                            want,
                            "{id:?} seed {seed}: sample {i} after a repair"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    // Not vacuous: repairs happened, some rebuilt a set, and its samples were checked.
    assert!(
        repairs >= 5 && dead >= 1,
        "{repairs} repairs, {dead} failed"
    );
    assert!(
        rebuilt >= 1 && checked >= 1,
        "{rebuilt} rebuilt, {checked} checked"
    );
}
