//! A repair (every sampled hypothesis ruled out; regrowth from the most recent checkpoint with
//! consistent descendants, back to the last exact set) stays within its budget of work per
//! move, and what it rebuilds is still fully consistent: sampled hidden histories replay to the
//! player's own observations. And last session's dying game keeps a belief at every ply.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::review::PlyStream;
use umpire_belief::{Belief, BeliefConfig, FAST_PARTICLES};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, RuleSet, RuleSetId};

/// Children of one parent a budget check may let through (the check runs after each parent):
/// far above the legal moves of any position times the branches of a turn seen in practice.
const ONE_PARENT: u64 = 2_000;

#[test]
fn repairs_stay_within_their_budget_per_move_and_rebuild_consistent_samples() {
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
                    let (before, held_before) = (b.repairs(), b.held());
                    b.observe(&obs).expect("fits");
                    if b.last_repair_work() == 0 && b.repairs() == before {
                        continue;
                    }
                    repairs += 1;
                    // The budget of this observation, plus the one observation of a replay (at
                    // four times the bound) that passed it.
                    let one_update = 4 * 40 * bound as u64 + 8 * 4 * bound as u64 + ONE_PARENT;
                    assert!(
                        b.last_repair_work() <= budget + one_update,
                        "{id:?} seed {seed}: a repair did {} work in one observation, budget {budget}",
                        b.last_repair_work(),
                    );
                    if b.held() == 0 {
                        // Under way (it goes on at the next move) or failed: empty, not exact;
                        // a failed one is never repaired again.
                        assert!(!b.is_exact());
                        dead += usize::from(b.is_dead());
                        continue;
                    }
                    if held_before > 0 {
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
    eprintln!("{repairs} repair steps, {dead} failed, {rebuilt} rebuilt, {checked} checked");
    assert!(repairs >= 5, "{repairs} repairs, {dead} failed");
    assert!(
        rebuilt >= 1 && checked >= 1,
        "{rebuilt} rebuilt, {checked} checked"
    );
}

/// Last session's dying game (`docs/BENCHMARKS.md`, "Goals 3 and 4, second round": game 3 of
/// `umpire selfplay --games 3 --seed 30`, White, 10,000 particles): the belief of the fast path
/// was empty from about ply 53 on in 3 or 4 of 6 seeds, its repair from the last exact set out
/// of budget. Refreshed and regrown from recent checkpoints with the lookahead, it holds
/// positions at every ply up to 150 (the plies measured then), for several seeds, and what it
/// holds after a repair or a refresh replays to White's observations. (Checked by hand: a build
/// that kept the last four turns' checkpoints but neither refreshed nor thinned them left seed
/// 3 empty from ply 61 on. Later in this game, at ply 197, White's knight takes a pawn on e3 that no held position
/// has; the sample dies there and is regrown from the last exact set over many plies:
/// `docs/BELIEF.md`, "Repair and refresh".)
#[test]
fn the_dying_game_keeps_a_belief_at_every_ply() {
    let record = Record::from_json(include_str!("data/dying_game.json")).expect("a record");
    let want = record.player_view(Color::White).unwrap().observations;
    let mut checked = 0;
    for seed in 1..=3 {
        let config = BeliefConfig {
            particles: Some(FAST_PARTICLES),
            seed,
            threads: 1,
            ..BeliefConfig::default()
        };
        let mut stream = PlyStream::of_record(&record, Color::White, config).expect("replays");
        let (mut repairs, mut refreshes) = (0, 0);
        while let Some(b) = stream.next_ply() {
            let b = b.expect("fits");
            if b.plies() > 150 {
                break;
            }
            assert!(b.held() > 0, "seed {seed}: empty at ply {}", b.plies());
            assert!(!b.is_dead());
            if (b.repairs(), b.refreshes()) == (repairs, refreshes) {
                continue;
            }
            (repairs, refreshes) = (b.repairs(), b.refreshes());
            // After a repair or a refresh: sampled hidden histories replay to White's
            // observations so far.
            let taken = b.transcript().len();
            let mut pick = Xoshiro256PlusPlus::seed_from_u64(seed);
            for i in b.sample_indices(3, &mut pick) {
                let sample = sample_record(b, i, &record.tags).expect("a hidden history");
                let got = sample.player_view(Color::White).unwrap().observations;
                assert_eq!(
                    got.as_slice(),
                    &want[..taken],
                    "seed {seed} ply {}",
                    b.plies()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 3, "{checked} checked");
}
