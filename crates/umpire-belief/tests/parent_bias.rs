//! The fast path's sampling against an exact set (issue 30, goal 4): in the opponent turn where
//! the set first passes the bound, the parents are the exact set, so every child's number of
//! consistent parents `k` is known, and the sampled turn's frequencies can be compared, over
//! many seeds, with the belief's target: uniform over the consistent positions.

use std::collections::HashMap;

use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::Observation;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{Chess, Color, EnPassantMode};

/// Game 3 of the benchmarks (`docs/BENCHMARKS.md`), White: exact sets of 4,319 positions after
/// ply 9 and 55,430 after ply 10.
const GAME: &str = include_str!("data/dying_game.json");
const SIDE: Color = Color::White;
const PLY: u32 = 10;

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn config(bound: usize, particles: Option<usize>, seed: u64) -> BeliefConfig {
    BeliefConfig {
        bound,
        particles,
        seed,
        threads: 1,
        ..BeliefConfig::default()
    }
}

fn follow(start: &Chess, observations: &[Observation], config: BeliefConfig) -> Belief {
    let record = Record::from_json(GAME).unwrap();
    let rules = *record.rules.rules();
    let mut belief = Belief::new(rules, start.clone(), SIDE, config).unwrap();
    for o in observations {
        belief.observe(o).unwrap();
    }
    belief
}

/// Every position of the exact set after `PLY`, with its number of parents in the exact set
/// after `PLY - 1`.
fn exact_children_with_parents() -> HashMap<String, u32> {
    let k = exact_children_at(PLY);
    let record = Record::from_json(GAME).unwrap();
    let (after, _) = record.observations_until(SIDE, Some(PLY));
    let exact = follow(&Chess::default(), &after, config(1 << 22, None, 0));
    assert!(exact.is_exact());
    assert_eq!(
        exact.held(),
        k.len(),
        "the children of every parent are the set"
    );
    k
}

/// Over the `seeds` at `bound` and `particles`: for each number of parents `k` (1, 2, 3 and
/// more), the children of that `k`, and the mean times one of them was held against the mean
/// over every child (1 everywhere for a uniform sampler).
fn frequency_by_parents(
    k: &HashMap<String, u32>,
    bound: usize,
    particles: usize,
    seeds: std::ops::Range<u64>,
) -> Vec<(u32, usize, f64)> {
    let record = Record::from_json(GAME).unwrap();
    let (after, _) = record.observations_until(SIDE, Some(PLY));
    let mut held: HashMap<&str, u32> = HashMap::new();
    let mut total = 0u64;
    for seed in seeds {
        let b = follow(
            &Chess::default(),
            &after,
            config(bound, Some(particles), seed),
        );
        assert!(!b.is_exact());
        for p in b.positions() {
            let f = fen(p);
            let (key, _) = k
                .get_key_value(f.as_str())
                .expect("every sample consistent");
            *held.entry(key.as_str()).or_insert(0) += 1;
            total += 1;
        }
    }
    by_parents(k, &held, total)
}

/// For `k` = 1, 2, 3+ consistent parents (`k` of every child): the children of that `k`, and
/// the mean times one of them was `held` (of `total` held) against the mean over every child.
fn by_parents(
    k: &HashMap<String, u32>,
    held: &HashMap<&str, u32>,
    total: u64,
) -> Vec<(u32, usize, f64)> {
    let mean = total as f64 / k.len() as f64;
    (1..=3)
        .map(|group| {
            let members: Vec<&str> = k
                .iter()
                .filter(|&(_, &n)| n.min(3) == group)
                .map(|(f, _)| f.as_str())
                .collect();
            let sum: u64 = members
                .iter()
                .map(|f| u64::from(held.get(f).copied().unwrap_or(0)))
                .sum();
            let ratio = sum as f64 / members.len().max(1) as f64 / mean;
            (group, members.len(), ratio)
        })
        .collect()
}

/// The fast path in the turn that first passes the bound draws every consistent position
/// equally often, whatever its number of consistent parents (before the fix a position of 3 or
/// more parents was held 3.16 times as often as one of a single parent; issue 30, goal 4). Run
/// with `-- --nocapture` to print the figures.
#[test]
fn the_first_sampled_turn_is_uniform_over_the_exact_children() {
    let k = exact_children_with_parents();
    let rows = frequency_by_parents(&k, 10_000, 1_000, 0..200);
    for &(group, members, ratio) in &rows {
        println!(
            "parents {group}{}: {members} children, held {ratio:.3} times the mean",
            if group == 3 { "+" } else { "" }
        );
    }
    let one = rows[0].2;
    let many = rows[2].2;
    assert!(
        (0.85..1.18).contains(&(many / one)),
        "children of 3+ parents held {:.2} times as often as those of one",
        many / one
    );
}

fn print_rows(what: &str, rows: &[(u32, usize, f64)]) {
    for &(group, members, ratio) in rows {
        let plus = if group == 3 { "+" } else { "" };
        println!(
            "{what}: parents {group}{plus}: {members} children, held {ratio:.3} times the mean"
        );
    }
}

/// The lean came from expanding a share of the parents and keeping a child if any of its
/// parents was expanded (about `k` times as likely for `k` parents while the share is small: the
/// fast path's 1,000 particles expand about 12 % of them, a 3.16 lean of 3+ parents over one
/// before the fix; 10,000 particles about 60 %, 1.88). Each kept child is now kept with the
/// share of parents expanded over its chance to be offered (`belief/parent_count.rs`): other
/// seeds than the test above's, at both particle counts, hold every `k` equally often.
#[test]
fn children_of_many_parents_are_not_favoured_at_either_particle_count() {
    let k = exact_children_with_parents();
    let fast = frequency_by_parents(&k, 10_000, 1_000, 1_000..1_060);
    let old = frequency_by_parents(&k, 10_000, 10_000, 2_000..2_030);
    print_rows("1,000 particles", &fast);
    print_rows("10,000 particles", &old);
    for (what, rows) in [("fast", &fast), ("10,000", &old)] {
        let lean = rows[2].2 / rows[0].2;
        assert!((0.85..1.18).contains(&lean), "{what}: lean {lean:.2}");
        let two = rows[1].2 / rows[0].2;
        assert!((0.9..1.11).contains(&two), "{what}: k = 2 {two:.2}");
    }
}

/// Every position of the exact set after `ply`, with its number of parents in the exact set
/// after `ply - 1` (each parent's children found by a belief started from it).
fn exact_children_at(ply: u32) -> HashMap<String, u32> {
    let record = Record::from_json(GAME).unwrap();
    let (before, _) = record.observations_until(SIDE, Some(ply - 1));
    let (after, _) = record.observations_until(SIDE, Some(ply));
    let big = config(1 << 24, None, 0);
    let parents = follow(&Chess::default(), &before, big);
    assert!(parents.is_exact());
    let mut k = HashMap::new();
    for p in parents.positions() {
        let children = follow(p, &after[before.len()..], big);
        for c in children.positions() {
            *k.entry(fen(c)).or_insert(0) += 1;
        }
    }
    k
}

/// Which distribution the fast path targets beyond its first sampled turn (issue 30, session 9;
/// `docs/BELIEF.md`, "What limits the quality"). At ply 12 of the same game (the second sampled
/// turn at a bound of 10,000: its parents are a sample of 1,000 of the 54,975 consistent ones)
/// a child of `k` consistent parents is held about `k` times as often as a child of one: the
/// correction of `belief/parent_count.rs` sees only the parents held, and a child with `k`
/// consistent parents has about `k` times the chance of having one among them. So from the
/// second sampled turn on the sample leans towards positions with many hidden histories, not
/// uniform over positions (measured: 0.456 / 0.876 / 1.328 / 2.234 times the mean for `k` = 1,
/// 2, 3, 4+ over seeds 0–99). Ignored for its cost (the exact set of 550,289 children, one
/// belief per parent: about a minute of CPU); `-- --ignored --nocapture` prints the figures.
/// It fails the day that lean is corrected: then turn it into the test of the correction.
#[test]
#[ignore]
fn later_sampled_turns_lean_towards_children_of_many_parents() {
    let ply = 12;
    let k = exact_children_at(ply);
    assert_eq!(k.len(), 550_289, "the exact set after ply {ply}");
    let record = Record::from_json(GAME).unwrap();
    let (after, _) = record.observations_until(SIDE, Some(ply));
    let mut held: HashMap<&str, u32> = HashMap::new();
    let mut total = 0u64;
    for seed in 0..100 {
        let b = follow(&Chess::default(), &after, config(10_000, Some(1_000), seed));
        assert!(!b.is_exact());
        for p in b.positions() {
            let f = fen(p);
            let (key, _) = k
                .get_key_value(f.as_str())
                .expect("every sample consistent");
            *held.entry(key.as_str()).or_insert(0) += 1;
            total += 1;
        }
    }
    let mean = total as f64 / k.len() as f64;
    let ratio = |group: u32| {
        let members: Vec<&str> = k
            .iter()
            .filter(|&(_, &n)| n.min(4) == group)
            .map(|(f, _)| f.as_str())
            .collect();
        let sum: u64 = members
            .iter()
            .map(|f| u64::from(held.get(f).copied().unwrap_or(0)))
            .sum();
        let r = sum as f64 / members.len().max(1) as f64 / mean;
        println!(
            "parents {group}{}: {} children, held {r:.3} times the mean",
            if group == 4 { "+" } else { "" },
            members.len()
        );
        r
    };
    let rows: Vec<f64> = (1..=4).map(ratio).collect();
    // Held about in proportion to the consistent parents (k = 2: 1.92, k = 3: 2.91 times k = 1
    // measured), far from the 1 a uniform sampler would give.
    assert!(
        (1.6..2.2).contains(&(rows[1] / rows[0])),
        "k = 2: {:.2}",
        rows[1] / rows[0]
    );
    assert!(
        (2.4..3.4).contains(&(rows[2] / rows[0])),
        "k = 3: {:.2}",
        rows[2] / rows[0]
    );
}

/// Over `seeds` at a bound of 1,000 and `particles`, with the count of parents beyond the held
/// ones on or off: for `k` = 1, 2, 3+ consistent parents (`k` of every child after `PLY`), the
/// mean times a child was held against the mean over every child.
fn second_turn_by_parents(
    k: &HashMap<String, u32>,
    particles: usize,
    grandparents: bool,
    seeds: std::ops::Range<u64>,
) -> Vec<f64> {
    let record = Record::from_json(GAME).unwrap();
    let rules = *record.rules.rules();
    let (after, _) = record.observations_until(SIDE, Some(PLY));
    let mut held: HashMap<&str, u32> = HashMap::new();
    let mut total = 0u64;
    for seed in seeds {
        let config = config(1_000, Some(particles), seed);
        let mut b = Belief::new(rules, Chess::default(), SIDE, config).unwrap();
        b.count_grandparents(grandparents);
        for o in &after {
            b.observe(o).unwrap();
        }
        assert!(!b.is_exact());
        for p in b.positions() {
            let (key, _) = k
                .get_key_value(fen(p).as_str())
                .expect("every sample consistent");
            *held.entry(key.as_str()).or_insert(0) += 1;
            total += 1;
        }
    }
    by_parents(k, &held, total)
        .into_iter()
        .map(|(_, _, ratio)| ratio)
        .collect()
}

/// The second sampled turn counts its children's parents beyond the held ones
/// ([`Belief::count_grandparents`], `belief/grandparents.rs`). At a bound of 1,000 the set first
/// passes it at ply 8 (6,320 children of 396 parents), so ply 10 is the second sampled turn:
/// its held parents are 250 of the 4,319 consistent ones after ply 9, and without the count a
/// child of `k` consistent parents is held about `k` times as often as a child of one (the lean
/// of `later_sampled_turns_lean_towards_children_of_many_parents`, at a cheaper ply). With it,
/// the grandparents being the last exact set, the lean of 3+ parents over one is gone and that
/// of two parents over one is halved.
#[test]
fn counting_the_grandparents_children_undoes_the_second_turns_lean() {
    let k = exact_children_with_parents();
    let on = second_turn_by_parents(&k, 250, true, 0..120);
    let off = second_turn_by_parents(&k, 250, false, 0..120);
    for (what, rows) in [("counted", &on), ("held parents only", &off)] {
        println!(
            "{what}: k = 1 / 2 / 3+ held {:.3} / {:.3} / {:.3} times the mean",
            rows[0], rows[1], rows[2]
        );
    }
    // Measured: without the count 0.545 / 1.358 / 1.865 (3+ over 1: 3.42, 2 over 1: 2.49); with
    // it 0.913 / 1.141 / 0.954 (1.05 and 1.25). Children of two parents stay about a quarter
    // ahead with the count: they are about a quarter ahead of `k` times those of one without it
    // too (2.49 against 2), a lean this count does not see (not explained here).
    let ratio = |rows: &[f64], k: usize| rows[k] / rows[0];
    assert!(
        ratio(&off, 2) > 2.4,
        "3+ without the count: {:.2}",
        ratio(&off, 2)
    );
    assert!(
        ratio(&off, 1) > 1.9,
        "2 without the count: {:.2}",
        ratio(&off, 1)
    );
    assert!(
        (0.85..1.25).contains(&ratio(&on, 2)),
        "3+ with the count: {:.2}",
        ratio(&on, 2)
    );
    assert!(
        (0.9..1.45).contains(&ratio(&on, 1)),
        "2 with the count: {:.2}",
        ratio(&on, 1)
    );
}
