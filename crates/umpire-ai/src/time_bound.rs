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

use std::time::{Duration, Instant};

use crate::Budget;

/// [`umpire_belief::Belief::work`] units one millisecond of a time budget buys for a repair:
/// a unit costs about 1–3 µs of one core (`docs/BENCHMARKS.md`), so a repair at this rate takes
/// at most about 0.3–0.9 of the budget given to it.
pub const REPAIR_WORK_PER_MS: u64 = 300;

/// The share of the time budget a repair may take (the search takes what is left).
pub const REPAIR_SHARE: u32 = 2;

/// The least time a search keeps for itself after the belief's updates, as a fraction
/// `1 / SEARCH_FLOOR_DIVISOR` of the budget.
pub const SEARCH_FLOOR_DIVISOR: u32 = 4;

/// Search nodes of a node budget per work unit of a repair: on a quiet machine the Monte Carlo
/// search runs about 300–350 nodes per millisecond (30,000 nodes take about 100 ms: the lead's
/// quiet row of issue 28, 25,589 nodes per decision at 74 ms a decision), and a time budget's
/// repair gets [`REPAIR_WORK_PER_MS`] units per millisecond of half the budget, so `N` nodes
/// buy the repair work of the time they take: 30,000 nodes, like 100 ms, 15,000 units. (It
/// was 20 units *per* node, from a node cost measured on a loaded machine: 600,000 units at
/// 30,000 nodes, 40 times a 100 ms decision's, a repair of 0.6–1.8 s.)
pub const NODES_PER_REPAIR_UNIT: u64 = 2;

/// The least repair budget (about 10–30 ms of work): below it a repair rarely succeeds.
pub const MIN_REPAIR_WORK: u64 = 10_000;

/// The most repair work an agent's belief does on one observation, whatever the budget: a
/// repair that needs more goes on at the next move (`docs/BELIEF.md`, "Repair and refresh"),
/// so the cap loses no repair; at 256 particles it kept the CPU p99 of a ply at 29–33 ms and the
/// slowest ply at 37 ms (issue 30's goal 3: under 50 ms; `docs/BENCHMARKS.md`). Time budgets
/// over 1 s, or node budgets over 300,000 nodes, would give more. Below the belief crate's
/// default ([`umpire_belief::REPAIR_BUDGET`]).
pub const MAX_REPAIR_WORK: u64 = 150_000;

const _: () = assert!(MAX_REPAIR_WORK < umpire_belief::REPAIR_BUDGET);

/// The repair budget of a belief kept by an agent thinking with `budget`: under a node budget
/// `N` the work of `N /` [`NODES_PER_REPAIR_UNIT`] units (counted in work units, not time, so
/// that seeded play stays the same on every machine; the server's house levels use node
/// budgets), under a time budget `T` the work of about `T / REPAIR_SHARE`; never less than
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
