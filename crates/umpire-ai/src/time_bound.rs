//! Strict time: what an agent's belief may spend on one observation under a time budget, so that
//! a decision (the belief's updates since the last one included) stays within
//! `max(2T, T + 50 ms)` at `T` per decision.
//!
//! The expensive step outside the search is the belief's repair (a replay of the observations
//! with a larger sample when every held position is ruled out): with the belief crate's default
//! budget ([`umpire_belief::REPAIR_BUDGET`], 4–12 s at the most) one decision at 100 ms once took
//! 10.2 s. The agents give their beliefs [`repair_budget`] instead (in work units, under a time
//! or a node budget alike), and a belief whose repair fails within it is restarted from a guess
//! (cheap) or given up.
//!
//! A time budget also buys the belief's size: above a few thousand nodes more search plays
//! no better, a larger belief does (`docs/BENCHMARKS.md`, "Session 10: the node plateau"), so
//! [`belief_bound`] and [`repair_budget`] grow with `T` ([`TIME_BELIEFS`]); a node budget keeps
//! [`crate::mcts::MCTS_BELIEF_BOUND`] and its repair work as they were, so that the server's
//! house levels play their seeded games exactly as before.

use std::time::{Duration, Instant};

use crate::Budget;

/// [`umpire_belief::Belief::work`] units one millisecond of a time budget buys for a repair:
/// a unit costs about 1–3 µs of one core (`docs/BENCHMARKS.md`), so a repair at this rate takes
/// at most about 0.3–0.9 of the budget given to it.
pub const REPAIR_WORK_PER_MS: u64 = 300;

/// The share of a time budget under 100 ms a repair may take, `1 / REPAIR_SHARE` (the search
/// takes what is left); from 100 ms on, [`TIME_BELIEFS`] gives the whole budget's work.
pub const REPAIR_SHARE: u32 = 2;

/// The least time a search keeps for itself after the belief's updates, as a fraction
/// `1 / SEARCH_FLOOR_DIVISOR` of the budget.
pub const SEARCH_FLOOR_DIVISOR: u32 = 4;

/// Search nodes of a node budget per work unit of a repair: on a quiet machine the Monte Carlo
/// search runs about 300–350 nodes per millisecond (30,000 nodes take about 100 ms: the lead's
/// quiet row of issue 28, 25,589 nodes per decision at 74 ms a decision), and a time budget's
/// repair got [`REPAIR_WORK_PER_MS`] units per millisecond of half the budget, so `N` nodes
/// buy the repair work of the time they take: 30,000 nodes, 15,000 units (since session 11 a
/// time budget of 100 ms buys twice that, with a larger belief: [`TIME_BELIEFS`]). (It
/// was 20 units *per* node, from a node cost measured on a loaded machine: 600,000 units at
/// 30,000 nodes, 40 times a 100 ms decision's, a repair of 0.6–1.8 s.)
pub const NODES_PER_REPAIR_UNIT: u64 = 2;

/// The least repair budget (about 10–30 ms of work): below it a repair rarely succeeds.
pub const MIN_REPAIR_WORK: u64 = 10_000;

/// The most repair work an agent's belief does on one observation, whatever the budget: a
/// repair that needs more goes on at the next move (`docs/BELIEF.md`, "Repair and refresh"),
/// so the cap loses no repair; at 256 particles it kept the CPU p99 of a ply at 29–33 ms and the
/// slowest ply at 37 ms (issue 30's goal 3: under 50 ms; `docs/BENCHMARKS.md`). Node budgets
/// over 300,000 nodes would give more; long time budgets may ([`TIME_BELIEFS`]). Below the
/// belief crate's default ([`umpire_belief::REPAIR_BUDGET`]).
pub const MAX_REPAIR_WORK: u64 = 150_000;

const _: () = assert!(MAX_REPAIR_WORK < umpire_belief::REPAIR_BUDGET);

/// One step of the belief a time budget buys ([`TIME_BELIEFS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBelief {
    /// The least time per decision, in milliseconds, from which this step holds.
    pub from_ms: u64,
    /// The bound of the belief's positions.
    pub bound: usize,
    /// The repair work is that of `T / repair_share` at [`REPAIR_WORK_PER_MS`].
    pub repair_share: u32,
    /// The most repair work per observation, in work units.
    pub max_repair: u64,
}

/// The belief a time budget `T` buys: the last step whose `from_ms` is at most `T`; its
/// repair work is `T / repair_share` at [`REPAIR_WORK_PER_MS`], at least [`MIN_REPAIR_WORK`]
/// and at most the step's `max_repair` (below 100 ms as before: bound 256, half the budget's
/// work; 100 ms: 1,024 positions, 30,000 units; 1 s: 2,048 positions, 300,000 units).
///
/// Chosen by measurement (`docs/BENCHMARKS.md`, "Session 11: the belief a time budget buys"):
/// at 100 ms a belief of 1,024 with 10,000 nodes scored better against `raider` than 256 with
/// 30,000 (100 ms of search, 0.94 against 0.905), and at 1 s 2,048 positions with 100,000
/// nodes scored 0.86 against the old 100 ms agent (bound 256) but only 0.50 against the new
/// one (1,024; 14 games: the step from 1,024 to 2,048 buys less). The CPU of the belief's updates between two decisions (two plies), at their slowest
/// over four recorded game-sides, was 57 ms at 1,024 / 30,000, 170 ms at 2,048 / 150,000 and
/// 276 ms at 2,048 / 300,000: with the search's floor (`T /` [`SEARCH_FLOOR_DIVISOR`]) each
/// step's decision stays within `max(2T, T + 50 ms)` at the least `T` it covers.
pub const TIME_BELIEFS: [TimeBelief; 3] = [
    TimeBelief {
        from_ms: 0,
        bound: crate::mcts::MCTS_BELIEF_BOUND,
        repair_share: REPAIR_SHARE,
        max_repair: MAX_REPAIR_WORK,
    },
    TimeBelief {
        from_ms: 100,
        bound: 1_024,
        repair_share: 1,
        max_repair: MAX_REPAIR_WORK,
    },
    TimeBelief {
        from_ms: 500,
        bound: 2_048,
        repair_share: 1,
        max_repair: 300_000,
    },
];

const _: () = {
    let mut i = 1;
    while i < TIME_BELIEFS.len() {
        let (a, b) = (TIME_BELIEFS[i - 1], TIME_BELIEFS[i]);
        assert!(a.from_ms < b.from_ms && a.bound <= b.bound && a.max_repair <= b.max_repair);
        assert!(a.repair_share >= b.repair_share && b.repair_share > 0);
        i += 1;
    }
    assert!(TIME_BELIEFS[0].from_ms == 0 && TIME_BELIEFS[0].repair_share > 0);
    assert!(TIME_BELIEFS[TIME_BELIEFS.len() - 1].bound <= crate::tuning::MAX_TUNED_BOUND);
    assert!(TIME_BELIEFS[TIME_BELIEFS.len() - 1].max_repair < umpire_belief::REPAIR_BUDGET);
};

/// The step of [`TIME_BELIEFS`] a time budget `t` buys.
fn time_belief(t: Duration) -> TimeBelief {
    let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
    let mut step = TIME_BELIEFS[0];
    for s in TIME_BELIEFS {
        if s.from_ms <= ms {
            step = s;
        }
    }
    step
}

/// The bound of the belief of an `mcts` agent thinking with `budget` (unless its tuning sets
/// one): under a node budget [`crate::mcts::MCTS_BELIEF_BOUND`], under a time budget what
/// [`TIME_BELIEFS`] gives `T`.
pub fn belief_bound(budget: Budget) -> usize {
    match budget {
        Budget::Nodes(_) => crate::mcts::MCTS_BELIEF_BOUND,
        Budget::Time(t) => time_belief(t).bound,
    }
}

/// The repair work per observation of the belief of an `mcts` agent thinking with `budget`
/// (unless its tuning sets one): under a node budget [`repair_budget`]'s, under a time budget
/// `T` the work of `T / repair_share` at [`REPAIR_WORK_PER_MS`] for `T`'s step of
/// [`TIME_BELIEFS`], never less than [`MIN_REPAIR_WORK`] nor more than the step's
/// `max_repair`.
pub fn belief_repair(budget: Budget) -> u64 {
    match budget {
        Budget::Nodes(_) => repair_budget(budget),
        Budget::Time(t) => {
            let step = time_belief(t);
            let ms = u64::try_from((t / step.repair_share).as_millis()).unwrap_or(u64::MAX);
            ms.saturating_mul(REPAIR_WORK_PER_MS)
                .clamp(MIN_REPAIR_WORK, step.max_repair)
        }
    }
}

/// The repair budget of a belief kept by an agent thinking with `budget` (the agents other
/// than `mcts`, whose time budgets buy more: [`belief_repair`]): under a node budget `N` the
/// work of `N /` [`NODES_PER_REPAIR_UNIT`] units (counted in work units, not time, so that
/// seeded play stays the same on every machine; the server's house levels use node budgets),
/// under a time budget `T` the work of about `T / REPAIR_SHARE`; never less than
/// [`MIN_REPAIR_WORK`] nor more than [`MAX_REPAIR_WORK`].
pub fn repair_budget(budget: Budget) -> u64 {
    match budget {
        Budget::Nodes(n) => (n / NODES_PER_REPAIR_UNIT).clamp(MIN_REPAIR_WORK, MAX_REPAIR_WORK),
        Budget::Time(t) => {
            let ms = u64::try_from((t / REPAIR_SHARE).as_millis()).unwrap_or(u64::MAX);
            ms.saturating_mul(REPAIR_WORK_PER_MS)
                .clamp(MIN_REPAIR_WORK, MAX_REPAIR_WORK)
        }
    }
}

/// The deadline of a search that starts at `start` under the time `budget`, when `spent` was
/// already taken since the last decision by the belief's updates: the budget less what was
/// spent, but never less than a quarter of it.
pub fn search_deadline(start: Instant, budget: Duration, spent: Duration) -> Instant {
    let floor = budget / SEARCH_FLOOR_DIVISOR;
    start + budget.saturating_sub(spent).max(floor)
}

/// The belief configuration of an agent: `bound` positions, one thread, seeded, its repairs
/// within [`repair_budget`]`(budget)`.
pub fn belief_config(bound: usize, seed: u64, budget: Budget) -> umpire_belief::BeliefConfig {
    umpire_belief::BeliefConfig {
        bound: bound.max(1),
        particles: None,
        seed,
        // Agents play games side by side (matches, benches): one thread each.
        threads: 1,
        parallel_from: umpire_belief::PARALLEL_FROM,
        repair_budget: repair_budget(budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_budgets_bound_the_repairs() {
        assert_eq!(repair_budget(Budget::Nodes(400)), MIN_REPAIR_WORK);
        assert_eq!(repair_budget(Budget::Nodes(64_000)), 32_000);
        assert_eq!(repair_budget(Budget::Nodes(u64::MAX)), MAX_REPAIR_WORK);
        let at_100ms = repair_budget(Budget::Time(Duration::from_millis(100)));
        // 30,000 nodes take about 100 ms on a quiet machine: the same repair work.
        assert_eq!(repair_budget(Budget::Nodes(30_000)), at_100ms);
        assert_eq!(at_100ms, 50 * REPAIR_WORK_PER_MS);
        assert!(at_100ms < umpire_belief::REPAIR_BUDGET / 100);
        let at_1s = repair_budget(Budget::Time(Duration::from_secs(1)));
        assert!(at_1s > at_100ms);
        // Never above the cap (below the belief's own budget), never zero.
        assert_eq!(
            repair_budget(Budget::Time(Duration::from_secs(3600))),
            MAX_REPAIR_WORK
        );
        assert_eq!(
            repair_budget(Budget::Time(Duration::from_millis(1))),
            MIN_REPAIR_WORK
        );
    }

    fn ms(ms: u64) -> Budget {
        Budget::Time(Duration::from_millis(ms))
    }

    #[test]
    fn a_longer_time_buys_a_larger_belief() {
        let (b100, b1000) = (belief_bound(ms(100)), belief_bound(ms(1_000)));
        let (r100, r1000) = (belief_repair(ms(100)), belief_repair(ms(1_000)));
        // The documented steps: 100 ms, 1 s, and below 100 ms as before.
        assert_eq!((b100, r100), (1_024, 30_000));
        assert_eq!((b1000, r1000), (2_048, 300_000));
        assert_eq!(belief_bound(ms(99)), crate::mcts::MCTS_BELIEF_BOUND);
        assert!(b1000 > b100, "{b100} {b1000}");
        assert!(r1000 > r100, "{r100} {r1000}");
        // The other agents' repairs under a time budget stay as they were.
        assert_eq!(repair_budget(ms(100)), 15_000);
        assert!(r100 > repair_budget(ms(100)));
        // Past a few milliseconds the belief is larger than a node budget's.
        assert!(b100 > crate::mcts::MCTS_BELIEF_BOUND);
        assert!(belief_bound(ms(1)) >= crate::mcts::MCTS_BELIEF_BOUND);
        // Never shrinks as the time grows, and bounded whatever the time.
        let mut last = (0, 0);
        for t in [
            0, 1, 10, 50, 99, 100, 250, 499, 500, 999, 1_000, 2_000, 10_000,
        ] {
            let now = (belief_bound(ms(t)), belief_repair(ms(t)));
            assert!(
                now.0 >= last.0 && now.1 >= last.1,
                "{t} ms: {now:?} after {last:?}"
            );
            last = now;
        }
        let forever = Budget::Time(Duration::MAX);
        assert_eq!(
            belief_bound(forever),
            TIME_BELIEFS[TIME_BELIEFS.len() - 1].bound
        );
        assert!(belief_bound(forever) <= crate::tuning::MAX_TUNED_BOUND);
        assert_eq!(
            belief_repair(forever),
            TIME_BELIEFS[TIME_BELIEFS.len() - 1].max_repair
        );
        assert!(belief_repair(forever) < umpire_belief::REPAIR_BUDGET);
    }

    #[test]
    fn node_budgets_keep_their_belief() {
        for n in [
            1,
            20,
            400,
            1_000,
            4_000,
            16_000,
            64_000,
            1_000_000,
            u64::MAX,
        ] {
            assert_eq!(
                belief_bound(Budget::Nodes(n)),
                crate::mcts::MCTS_BELIEF_BOUND
            );
            assert_eq!(
                belief_repair(Budget::Nodes(n)),
                (n / NODES_PER_REPAIR_UNIT).clamp(MIN_REPAIR_WORK, MAX_REPAIR_WORK)
            );
            assert_eq!(
                belief_repair(Budget::Nodes(n)),
                repair_budget(Budget::Nodes(n))
            );
        }
    }

    #[test]
    fn the_search_gets_what_the_updates_left_but_at_least_a_quarter() {
        let start = Instant::now();
        let t = Duration::from_millis(100);
        assert_eq!(search_deadline(start, t, Duration::ZERO), start + t);
        assert_eq!(
            search_deadline(start, t, Duration::from_millis(30)),
            start + Duration::from_millis(70)
        );
        assert_eq!(
            search_deadline(start, t, Duration::from_secs(5)),
            start + Duration::from_millis(25)
        );
    }
}
