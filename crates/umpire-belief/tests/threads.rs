//! One thread or several: the same set, in the same order, with the same witnesses, estimates
//! and samples, under every rule set, exact and beyond the bound.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, RuleSet, Umpire};

/// A belief of `side` with `threads` threads, parallel from the smallest sets on.
fn belief(rules: RuleSet, side: Color, bound: usize, seed: u64, threads: usize) -> Belief {
    let config = BeliefConfig {
        bound,
        particles: None,
        seed,
        threads,
        parallel_from: 1,
        ..BeliefConfig::default()
    };
    Belief::new(rules, Chess::default(), side, config).expect("a live start")
}

/// Asserts that two beliefs hold the same hypotheses in the same order, with the same
/// witnesses, exactness, size estimate and samples.
fn assert_same(a: &Belief, b: &Belief, context: &str) {
    assert_eq!(a.hypotheses(), b.hypotheses(), "{context}");
    assert_eq!(a.held(), b.held(), "{context}");
    assert_eq!(a.is_exact(), b.is_exact(), "{context}");
    assert_eq!(a.size_estimate(), b.size_estimate(), "{context}");
    assert_eq!(a.repairs(), b.repairs(), "{context}");
    for i in 0..a.hypotheses() {
        assert_eq!(a.position(i), b.position(i), "{context}: hypothesis {i}");
        assert_eq!(
            a.opponent_moves(i),
            b.opponent_moves(i),
            "{context}: witness {i}"
        );
    }
    let mut ra = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut rb = Xoshiro256PlusPlus::seed_from_u64(7);
    assert_eq!(
        a.sample_indices(50, &mut ra),
        b.sample_indices(50, &mut rb),
        "{context}: samples"
    );
}

/// Plays a random game and feeds every observation to a one-thread and a `threads`-thread
/// belief of each side, comparing them after each; returns the largest set compared and
/// whether some belief went past the bound.
fn compare_game(
    rules: RuleSet,
    seed: u64,
    plies: u32,
    bound: usize,
    threads: usize,
) -> (usize, bool) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut umpire = Umpire::new(rules);
    let sides = [Color::White, Color::Black];
    let mut one = sides.map(|side| belief(rules, side, bound, seed, 1));
    let mut many = sides.map(|side| belief(rules, side, bound, seed, threads));
    let mut list = AttemptList::new();
    let (mut largest, mut sampled) = (0, false);
    while !umpire.is_over() && umpire.plies() < plies {
        let command = common::random_command(&umpire, &mut rng, &mut list);
        let outcome = umpire.submit(command);
        for i in 0..2 {
            if let Some(obs) = outcome.observation(command, sides[i]) {
                one[i].observe(&obs).expect("fits");
                many[i].observe(&obs).expect("fits");
                let context = format!(
                    "{rules:?} seed {seed} ply {} {:?} {threads} threads",
                    umpire.plies(),
                    sides[i]
                );
                assert_same(&one[i], &many[i], &context);
                largest = largest.max(one[i].hypotheses());
                sampled |= !one[i].is_exact();
            }
        }
    }
    (largest, sampled)
}

#[test]
fn one_and_two_threads_hold_the_same_sets_under_every_rule_set() {
    let (mut largest, mut sampled) = (0, false);
    for (k, rules) in common::all_rules().enumerate() {
        for seed in 0..3 {
            // A small bound, so that some games pass it (reservoir, estimates, repairs).
            let (l, s) = compare_game(rules, 10 * k as u64 + seed, 10, 2_000, 2);
            largest = largest.max(l);
            sampled |= s;
        }
    }
    // The comparison covered sets large enough to be split and sets beyond the bound.
    assert!(largest >= 1_000, "largest set {largest}");
    assert!(sampled, "no game passed the bound");
}

#[test]
fn three_threads_hold_the_same_exact_sets_as_one() {
    let mut largest = 0;
    for (k, rules) in common::all_rules().enumerate() {
        let (l, _) = compare_game(rules, 100 + k as u64, 9, 200_000, 3);
        largest = largest.max(l);
    }
    assert!(largest >= 10_000, "largest set {largest}");
}

/// A recorded game read at a ply (`umpire belief --ply`: the lookahead, a share of every
/// parent's moves, the parents' count, the rejuvenation and its history moves) holds the same
/// with one, two or three threads, at every ply up to the one read.
#[test]
fn a_record_read_at_a_ply_is_the_same_whatever_the_threads() {
    use umpire_belief::review::PlyStream;
    use umpire_rules::record::Record;
    let record = Record::from_json(include_str!("data/dying_game.json")).expect("a record");
    let read = |threads: usize| {
        let config = BeliefConfig {
            bound: 4_000,
            particles: Some(1_000),
            seed: 5,
            threads,
            parallel_from: 1,
            ..BeliefConfig::default()
        };
        let mut stream = PlyStream::of_record(&record, Color::White, config)
            .expect("replays")
            .read_at_ply(40);
        let mut beliefs = Vec::new();
        while let Some(b) = stream.next_ply() {
            let b = b.expect("fits");
            beliefs.push(b.clone());
            if b.plies() >= 40 {
                break;
            }
        }
        beliefs
    };
    let one = read(1);
    assert_eq!(one.last().map(Belief::plies), Some(40));
    assert!(
        one.iter().any(|b| !b.is_exact()),
        "the set was never sampled"
    );
    for threads in [2, 3] {
        let many = read(threads);
        assert_eq!(one.len(), many.len());
        for (a, b) in one.iter().zip(&many) {
            assert_same(a, b, &format!("ply {} {threads} threads", a.plies()));
        }
    }
}
