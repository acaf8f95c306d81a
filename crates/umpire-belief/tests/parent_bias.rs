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
/// after `PLY - 1` (each parent's children found by a belief started from it).
fn exact_children_with_parents() -> HashMap<String, u32> {
    let record = Record::from_json(GAME).unwrap();
    let (before, _) = record.observations_until(SIDE, Some(PLY - 1));
    let (after, _) = record.observations_until(SIDE, Some(PLY));
    let big = config(1 << 22, None, 0);
    let parents = follow(&Chess::default(), &before, big);
    assert!(parents.is_exact());
    let mut k = HashMap::new();
    for p in parents.positions() {
        let children = follow(p, &after[before.len()..], big);
        for c in children.positions() {
            *k.entry(fen(c)).or_insert(0) += 1;
        }
    }
    let exact = follow(&Chess::default(), &after, big);
    assert!(exact.is_exact());
    assert_eq!(
        exact.held(),
        k.len(),
        "the children of every parent are the set"
    );
    k
}

/// Over `runs` seeds at `bound` and `particles`: for each number of parents `k` (1, 2, 3 and
/// more), the children of that `k`, and the mean times one of them was held against the mean
/// over every child (1 everywhere for a uniform sampler).
fn frequency_by_parents(
    k: &HashMap<String, u32>,
    bound: usize,
    particles: usize,
    runs: u64,
) -> Vec<(u32, usize, f64)> {
    let record = Record::from_json(GAME).unwrap();
    let (after, _) = record.observations_until(SIDE, Some(PLY));
    let mut held: HashMap<&str, u32> = HashMap::new();
    let mut total = 0u64;
    for seed in 0..runs {
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

/// The fast path in the turn that first passes the bound draws a position in proportion to
/// (nearly) its number of consistent parents, not uniformly: a position reachable from several
/// parents is over-weighted. Fails today (the bias of issue 30's goal 4); run with
/// `-- --ignored --nocapture` to print the figures.
#[test]
#[ignore = "fails today: the fast path's many-parents bias (docs/BELIEF.md, issue 30)"]
fn the_first_sampled_turn_is_uniform_over_the_exact_children() {
    let k = exact_children_with_parents();
    let rows = frequency_by_parents(&k, 10_000, 1_000, 200);
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

/// The mechanism of the bias, as it is today: a position's chance to be drawn grows with its
/// parents while the turn expands a small share of the parents (the fast path's 1,000
/// particles: the turn stops after about 10,000 of the 55,430 children), and less so
/// where the turn expands most of them (particles equal to the bound of 10,000: it stops after
/// 40,000 distinct children, most of the 55,430), since a position is kept at most once however
/// many of its parents were expanded. So the bias shrinks with the particles of one run and
/// pooling runs does not remove it (`docs/BENCHMARKS.md`, "Fifth round"). Wild16 has the
/// repetition draw, so a position reached from `k` parents also arrived with up to `k`
/// repetition histories, which a reservoir over hypotheses drew `k` times as often: fixed (the
/// reservoir is over positions), which the bound on the old path's lean checks.
#[test]
fn positions_with_more_parents_are_drawn_more_often_the_fewer_parents_are_expanded() {
    let k = exact_children_with_parents();
    let fast = frequency_by_parents(&k, 10_000, 1_000, 60);
    let old = frequency_by_parents(&k, 10_000, 10_000, 60);
    print_rows("1,000 particles", &fast);
    print_rows("10,000 particles", &old);
    let lean = |rows: &[(u32, usize, f64)]| rows[2].2 / rows[0].2;
    assert!(lean(&fast) > 2.0, "fast path: {:.2}", lean(&fast));
    assert!(lean(&old) > 1.05, "old path: {:.2}", lean(&old));
    // The part of the lean that came from repetition histories (a reservoir over hypotheses,
    // not positions: 2.53 at 10,000 particles before the reservoir was made one of positions,
    // 1.88 after; the union of the children of about 60 % of the parents alone gives about 1.6).
    assert!(lean(&old) < 2.2, "old path: {:.2}", lean(&old));
    assert!(
        lean(&old) < lean(&fast) * 0.75,
        "fast {:.2}, old {:.2}",
        lean(&fast),
        lean(&old)
    );
}
