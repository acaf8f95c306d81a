//! [`Opponent`]: how the search chooses the hidden opponent's reply after the agent's accepted
//! command, and the adversarial bandit that does it by default.
//!
//! The bandit keeps one reply table per point where the opponent moves (the agent's node, its
//! command and what the agent heard of it), shared by every determinization that reaches it. A
//! table's arms are moves, named by their squares and promotion; in one determinization only
//! the moves legal there are available, so the choice is a subset-armed UCB1 (Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", 2012): an arm's exploration term
//! counts the visits in which it was available, not all the table's visits. The opponent
//! *minimises* the agent's mean value. New arms are let in by progressive widening, at most
//! `ceil(sqrt(visits))` tried moves among those available, the likeliest first by a prior
//! (captures of the most valuable man by the cheapest, promotions, direct checks; ties at
//! random): with few visits the opponent plays like the capture policy, with more it finds the
//! replies that hurt the agent most. Above a reference search a table learns from only one
//! visit in [`learning_stride`] and plays what it has learned as a mixed strategy on the
//! others. What the agent hears of the reply is all its next node is named by; the table's
//! statistics never reach the agent's choices except through values.
//!
//! Allocation-free apart from a table's first arms (the arm list grows, at most by one per
//! selection).

use std::time::Duration;

use rand::{Rng, RngExt};
use umpire_rules::shakmaty::{Bitboard, Chess, Move, Piece, Position, attacks};

use super::tree::{Arm, Replies};
use crate::Budget;
use crate::eval::material_value;

/// How the search models the hidden opponent's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// The playout policy ([`policy_move`](super::policy_move)): the best capture most of the
    /// time, else a uniformly random move. Deeper search then plans against a near-random
    /// opponent.
    Policy,
    /// A subset-armed UCB1 bandit per reply point (the agent's node, its command and what it
    /// heard of it), over the moves legal in each determinization, that minimises the agent's
    /// value; new moves are let in by progressive widening (at most `ceil(sqrt(visits))`
    /// tried), captures of the most valuable man first, then promotions, then direct checks.
    Bandit,
}

/// The key of a move: from square, to square and promotion.
fn move_key(m: &Move) -> u16 {
    let from = m.from().map_or(64, |s| s as u16);
    let promotion = m.promotion().map_or(0, |r| r as u16);
    from | (m.to() as u16) << 7 | promotion << 13
}

/// How likely the opponent is to try `m` first: captures (the most valuable victim, then the
/// cheapest attacker), promotions, direct checks of the agent's king; 0 for quiet moves.
fn prior(pos: &Chess, m: &Move) -> f64 {
    let board = pos.board();
    let mut p = 0.0;
    if let Some(victim) = m.capture() {
        p += 100.0 + 10.0 * material_value(victim) - material_value(m.role()) / 10.0;
    }
    let role = m.promotion().unwrap_or(m.role());
    if m.promotion().is_some() {
        p += 50.0 + material_value(role);
    }
    if let Some(king) = board.king_of(!pos.turn()) {
        let from = m.from().map_or(Bitboard::EMPTY, Bitboard::from_square);
        let occupied = (board.occupied() & !from) | Bitboard::from_square(m.to());
        let piece = Piece {
            color: pos.turn(),
            role,
        };
        if attacks::attacks(m.to(), piece, occupied).contains(king) {
            p += 40.0;
        }
    }
    p
}

/// The most legal moves a chess position has (218), rounded up.
const MAX_MOVES: usize = 256;

/// The search whose knowledge of the opponent a reply table is held to under a node budget:
/// the project's node stand-in for a [`REFERENCE_TIME`] search (`mcts@30000`, `docs/ENGINE.md`
/// "A node budget for a time"; a 100 ms search ran 19,000–30,000 nodes a decision in the
/// measured rows, `docs/BENCHMARKS.md` "Session 14: an opponent that knows no more than
/// 100 ms"), so that the node-budget agents the tests and benchmarks use for 100 ms play as a
/// 100 ms agent does.
pub const REFERENCE_NODES: u64 = 30_000;

/// The search whose knowledge of the opponent a reply table is held to under a time budget.
pub const REFERENCE_TIME: Duration = Duration::from_millis(100);

/// One visit in how many a reply table learns from under `budget`: 1 up to the reference
/// ([`REFERENCE_NODES`] or [`REFERENCE_TIME`]), `ceil(budget / reference)` above it.
///
/// Why: the bandit's opponent minimises the agent's value in the worlds the agent draws, and
/// those worlds know where the enemy's men are better than the enemy knows where the agent's
/// are. With a few thousand visits a table finds the reply that hurts most in those worlds,
/// a reply the real opponent, who cannot see, rarely plays: a larger search then plans
/// against a clairvoyant opponent, turns timid and gains nothing from its time (1 s against
/// 100 ms scored 0.577 over 130 games before this). Held to a reference search's learning,
/// and playing what it learned as a mixed strategy on the other visits, the tables of a larger
/// search stay as well informed as the reference's while the agent's own tree grows.
pub fn learning_stride(budget: Budget) -> u32 {
    let (budget, reference) = match budget {
        Budget::Nodes(n) => (u128::from(n), u128::from(REFERENCE_NODES)),
        Budget::Time(t) => (t.as_nanos(), REFERENCE_TIME.as_nanos()),
    };
    u32::try_from(budget.div_ceil(reference).max(1)).unwrap_or(u32::MAX)
}

/// The opponent's reply in `pos` from `table`: the move, its arm and whether the table learns
/// from this visit (its value is then added to the arm at the backup); `None` if the side to
/// move has no legal move. `exploration` is the UCB1 constant.
///
/// With `stride` 1 every visit learns. With a larger `stride` ([`learning_stride`]) the table
/// learns from its first visit and then one in `stride`, and from any visit at which no tried
/// move legal here has been visited yet; only those visits count, widen and choose by UCB1.
/// On the others the opponent plays its mixed strategy as learned so far: a tried move legal
/// here, drawn in proportion to its visits.
pub(crate) fn bandit_reply<R: Rng>(
    table: &mut Replies,
    pos: &Chess,
    rng: &mut R,
    exploration: f64,
    stride: u32,
) -> Option<(Move, u32, bool)> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let count = moves.len().min(MAX_MOVES);
    table.seen = table.seen.saturating_add(1);
    let mut arm_of = [u32::MAX; MAX_MOVES];
    let mut tried = 0usize;
    for (i, m) in moves.iter().enumerate().take(count) {
        let key = move_key(m);
        if let Some(j) = table.arms.iter().position(|a| a.key == key) {
            arm_of[i] = j as u32;
            tried += 1;
        }
    }
    // A visit between lessons with nothing learned to play here learns instead.
    let lesson = stride <= 1 || (table.seen - 1).is_multiple_of(stride);
    if !lesson && let Some(pick) = learned_mix(table, &moves, &arm_of[..count], rng) {
        return Some(pick);
    }
    table.visits += 1;
    for &j in &arm_of[..count] {
        if j != u32::MAX {
            table.arms[j as usize].available += 1;
        }
    }
    let allowed = f64::from(table.visits).sqrt().ceil() as usize;
    if tried < allowed && tried < moves.len() {
        // Widen: the untried move with the highest prior, ties uniformly.
        let mut pick = None;
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0u32;
        for (i, m) in moves.iter().enumerate().take(count) {
            if arm_of[i] != u32::MAX {
                continue;
            }
            let p = prior(pos, m);
            if p > best {
                best = p;
                pick = Some(i);
                ties = 1;
            } else if p == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    pick = Some(i);
                }
            }
        }
        if let Some(i) = pick {
            let m = moves[i];
            table.arms.push(Arm {
                key: move_key(&m),
                visits: 0,
                available: 1,
                total: 0.0,
            });
            return Some((m, table.arms.len() as u32 - 1, true));
        }
    }
    // Exploit and explore among the tried moves available here: the opponent's UCB1 on the
    // negated value.
    let mut pick = None;
    let mut best = f64::NEG_INFINITY;
    for (i, &j) in arm_of.iter().enumerate().take(count) {
        if j == u32::MAX {
            continue;
        }
        let arm = &table.arms[j as usize];
        let score = if arm.visits == 0 {
            f64::INFINITY
        } else {
            -arm.mean()
                + exploration * (f64::from(arm.available).ln() / f64::from(arm.visits)).sqrt()
        };
        if score > best {
            best = score;
            pick = Some((moves[i], j, true));
        }
    }
    pick
}

/// A tried move legal here (`arm_of[i]` is move `i`'s arm, `u32::MAX` if untried), drawn in
/// proportion to its arm's visits; `None` if no tried move legal here has been visited. Counts
/// nothing.
fn learned_mix<R: Rng>(
    table: &Replies,
    moves: &[Move],
    arm_of: &[u32],
    rng: &mut R,
) -> Option<(Move, u32, bool)> {
    let visits = |j: u32| (j != u32::MAX).then(|| u64::from(table.arms[j as usize].visits));
    let total: u64 = arm_of.iter().filter_map(|&j| visits(j)).sum();
    if total == 0 {
        return None;
    }
    let mut r = rng.random_range(0..total);
    for (i, &j) in arm_of.iter().enumerate() {
        let Some(v) = visits(j) else { continue };
        if r < v {
            return Some((moves[i], j, false));
        }
        r -= v;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use umpire_testkit::pos;

    #[test]
    fn the_first_reply_is_the_best_capture_then_the_worst_for_the_agent_wins() {
        // Black to move: Nxg2 is the only capture; Ne2+ and Nh3+ check.
        let p = pos("6k1/5ppp/8/8/3Q1n2/8/5PPP/6K1 b - - 0 1");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut table = Replies::default();
        let (first, arm, _) = bandit_reply(&mut table, &p, &mut rng, 0.5, 1).unwrap();
        assert_eq!(first.to().to_string(), "g2");
        // The agent's values: the capture is good for the agent here (Kxg2 follows), every
        // other reply bad; the opponent must come to prefer the others.
        table.arms[arm as usize].visits = 1;
        table.arms[arm as usize].total = 0.9;
        let mut others = 0;
        for _ in 0..200 {
            let (m, arm, _) = bandit_reply(&mut table, &p, &mut rng, 0.5, 1).unwrap();
            let v = if m.to().to_string() == "d4" {
                0.9
            } else {
                -0.5
            };
            if v < 0.0 {
                others += 1;
            }
            let a = &mut table.arms[arm as usize];
            a.visits += 1;
            a.total += v;
        }
        assert!(others > 150, "{others}");
        // Widening keeps the arms few: at most ceil(sqrt(visits)).
        assert!(table.arms.len() <= 15, "{}", table.arms.len());
        assert!(table.arms.len() >= 2);
    }

    #[test]
    fn checks_come_before_quiet_moves() {
        let p = pos("6k1/8/8/8/8/8/8/K3n3 b - - 0 1");
        // Black's knight on e1 has Nc2+ (check of the king on a1) and quiet moves.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut table = Replies::default();
        let (m, _, _) = bandit_reply(&mut table, &p, &mut rng, 0.5, 1).unwrap();
        assert_eq!(m.to().to_string(), "c2");
    }

    #[test]
    fn the_stride_is_one_up_to_the_reference_and_the_budgets_ratio_above_it() {
        use std::time::Duration;
        assert_eq!(learning_stride(Budget::Nodes(1)), 1);
        assert_eq!(learning_stride(Budget::Nodes(REFERENCE_NODES)), 1);
        assert_eq!(learning_stride(Budget::Nodes(REFERENCE_NODES + 1)), 2);
        assert_eq!(learning_stride(Budget::Nodes(64_000)), 3);
        assert_eq!(learning_stride(Budget::Nodes(u64::MAX)), u32::MAX);
        assert_eq!(learning_stride(Budget::Time(Duration::ZERO)), 1);
        assert_eq!(learning_stride(Budget::Time(REFERENCE_TIME)), 1);
        assert_eq!(learning_stride(Budget::Time(Duration::from_millis(101))), 2);
        assert_eq!(learning_stride(Budget::Time(Duration::from_secs(1))), 10);
        assert_eq!(learning_stride(Budget::Time(Duration::MAX)), u32::MAX);
    }

    #[test]
    fn at_a_stride_the_table_learns_from_one_visit_in_stride() {
        let p = pos("6k1/5ppp/8/8/3Q1n2/8/5PPP/6K1 b - - 0 1");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut table = Replies::default();
        let mut learned = 0;
        for _ in 0..400 {
            let (_, arm, learns) = bandit_reply(&mut table, &p, &mut rng, 0.5, 4).unwrap();
            if learns {
                learned += 1;
                let a = &mut table.arms[arm as usize];
                a.visits += 1;
                a.total -= 0.1;
            }
        }
        assert_eq!(table.seen, 400);
        assert_eq!(learned, 100);
        assert_eq!(table.visits, 100);
        // Widening follows the visits learned from: at most ceil(sqrt(100)) arms, each legal
        // here at every visit learned from.
        assert!(table.arms.len() <= 10, "{}", table.arms.len());
        assert!(table.arms.iter().all(|a| a.available <= 100));
        let visits: u32 = table.arms.iter().map(|a| a.visits).sum();
        assert_eq!(visits, 100);
    }

    #[test]
    fn between_its_lessons_the_opponent_plays_its_learned_mix() {
        // Black to move; the table has learned Nxg2 (30 visits), Ne2+ (10) and Nh3+ (0), and
        // Kf8, never tried.
        let p = pos("6k1/5ppp/8/8/3Q1n2/8/5PPP/6K1 b - - 0 1");
        let moves = p.legal_moves();
        let key = |to: &str| {
            let m = moves.iter().find(|m| m.to().to_string() == to).unwrap();
            move_key(m)
        };
        let arm = |to: &str, visits: u32| Arm {
            key: key(to),
            visits,
            available: 40,
            total: -0.1 * f64::from(visits),
        };
        let mut table = Replies {
            visits: 40,
            seen: 40,
            arms: vec![arm("g2", 30), arm("e2", 10), arm("h3", 0)],
        };
        let before = table.clone();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut g2, mut e2, mut learned) = (0u32, 0u32, 0u32);
        for _ in 0..4_000 {
            let (m, arm, learns) = bandit_reply(&mut table, &p, &mut rng, 0.5, 1_000).unwrap();
            if learns {
                learned += 1;
                continue;
            }
            assert_eq!(move_key(&m), table.arms[arm as usize].key);
            match m.to().to_string().as_str() {
                "g2" => g2 += 1,
                "e2" => e2 += 1,
                other => panic!("played {other}, which the table has not learned"),
            }
        }
        // One visit in 1,000 learns: the 41st, 1,041st, 2,041st and 3,041st.
        assert_eq!(learned, 4);
        assert_eq!(table.seen, 4_040);
        assert_eq!(table.visits, before.visits + 4);
        // Three to one, as learned (binomial: 3,996 draws at 3/4, the sd is 27).
        assert!((2_850..=3_150).contains(&g2), "{g2} against {e2}");
        // Nothing is counted on the visits that do not learn: the learned arms were available
        // at the four lessons only, each of which also let one new move in (never played in
        // the mix until it has been visited).
        assert!(table.arms[..3].iter().all(|a| a.available == 44));
        assert_eq!(table.arms.len(), 7);
    }
}
