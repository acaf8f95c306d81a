//! [`BudgetScaling`]: whether and how the search's depth limit and exploration constant follow
//! a node budget above [`SCALE_FROM`] nodes ([`scaled`]).
//!
//! Issue 28: `mcts` at 4,000 nodes scores about even against 64,000 nodes. Two causes were
//! named (`docs/BENCHMARKS.md`, "Session 8: the node plateau"): the depth limit of 4 agent
//! moves stops 8 % of the 64,000-node walks, and the evaluation gives a pawn about 0.05
//! (`tanh(x / 20)`) against an exploration constant of 0.5, so UCB1 spends about `c² ln N / Δ²`
//! visits (over a thousand at 64,000 nodes) on every edge a pawn worse, and the nodes below the
//! root are walked almost uniformly. [`BudgetScaling::Deeper`] raises the depth limit with the
//! budget; [`BudgetScaling::DeeperNarrower`] also lowers the constant below the root (the
//! root's stays: every command there is weighed, and the final checks need searched
//! alternatives). Neither is on by default: session 10 measured the narrower search weaker
//! ("Session 10: the node plateau, scaled searches").

use crate::Budget;

/// How a node budget above [`SCALE_FROM`] changes the search ([`scaled`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BudgetScaling {
    /// Every budget searches with the configured depth limit and exploration constant.
    #[default]
    Off,
    /// The depth limit grows by one agent move per [`DEEPEN_FACTOR`] times [`SCALE_FROM`].
    Deeper,
    /// As [`BudgetScaling::Deeper`], and below the root (the agent's later choices and the
    /// hidden opponent's) the exploration constant is divided by `(nodes / SCALE_FROM)` to the
    /// power [`EXPLORATION_EXPONENT`].
    DeeperNarrower,
}

/// The node budget up to which the search keeps its configured depth limit and exploration
/// constant (the house levels 1–4 search as before whatever the scaling).
pub const SCALE_FROM: u64 = 4_000;

/// Above [`SCALE_FROM`] nodes [`BudgetScaling::DeeperNarrower`] divides the exploration
/// constant below the root by `(nodes / SCALE_FROM)` to this power: halved at 16,000 nodes,
/// quartered at 64,000.
pub const EXPLORATION_EXPONENT: f64 = 0.5;

/// The depth limit grows by one agent move each time the budget is this many times larger than
/// [`SCALE_FROM`]: 5 at 16,000 nodes, 6 at 64,000 (from the default 4).
pub const DEEPEN_FACTOR: u64 = 4;

/// The most the depth limit grows (a bound for absurd budgets).
pub const MAX_EXTRA_DEPTH: u32 = 4;

/// The search parameters of one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scaling {
    /// The UCB1 exploration constant at the root (never scaled).
    pub root_exploration: f64,
    /// The UCB1 exploration constant below the root (the agent's later choices and the hidden
    /// opponent's replies).
    pub exploration: f64,
    /// The deepest tree level, in the agent's moves.
    pub max_depth: u32,
}

impl Scaling {
    /// The configured parameters, unscaled.
    pub fn of(config: &super::MctsConfig) -> Scaling {
        Scaling {
            root_exploration: config.exploration,
            exploration: config.exploration,
            max_depth: config.max_depth,
        }
    }
}

/// The parameters for `budget` under `mode`, from the configured `base`: unchanged for a time
/// budget, up to [`SCALE_FROM`] nodes and with [`BudgetScaling::Off`]; above, the depth limit
/// plus one per [`DEEPEN_FACTOR`] times the nodes (at most [`MAX_EXTRA_DEPTH`] more) and, with
/// [`BudgetScaling::DeeperNarrower`], the constant below the root times
/// `(nodes / SCALE_FROM)^-`[`EXPLORATION_EXPONENT`].
pub fn scaled(mode: BudgetScaling, budget: Budget, base: Scaling) -> Scaling {
    let Budget::Nodes(n) = budget else {
        return base;
    };
    if n <= SCALE_FROM || mode == BudgetScaling::Off {
        return base;
    }
    let mut extra = 0u32;
    let mut step = SCALE_FROM.saturating_mul(DEEPEN_FACTOR);
    while step <= n && extra < MAX_EXTRA_DEPTH {
        extra += 1;
        step = step.saturating_mul(DEEPEN_FACTOR);
    }
    let exploration = if mode == BudgetScaling::DeeperNarrower {
        let r = n as f64 / SCALE_FROM as f64;
        base.exploration * r.powf(-EXPLORATION_EXPONENT)
    } else {
        base.exploration
    };
    Scaling {
        exploration,
        max_depth: base.max_depth.saturating_add(extra),
        ..base
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    const BASE: Scaling = Scaling {
        root_exploration: 0.5,
        exploration: 0.5,
        max_depth: 4,
    };

    const MODES: [BudgetScaling; 3] = [
        BudgetScaling::Off,
        BudgetScaling::Deeper,
        BudgetScaling::DeeperNarrower,
    ];

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn small_budgets_time_budgets_and_off_search_as_configured() {
        for mode in MODES {
            for n in [1, 3, 20, 400, 1_000, 4_000] {
                assert_eq!(scaled(mode, Budget::Nodes(n), BASE), BASE, "{mode:?} {n}");
            }
            let t = Budget::Time(Duration::from_secs(1));
            assert_eq!(scaled(mode, t, BASE), BASE, "{mode:?}");
        }
        for n in [16_000, 64_000, u64::MAX] {
            assert_eq!(scaled(BudgetScaling::Off, Budget::Nodes(n), BASE), BASE);
        }
    }

    #[test]
    fn deeper_grows_the_depth_limit_with_the_budget() {
        for (n, depth) in [
            (8_000, 4),
            (16_000, 5),
            (63_999, 5),
            (64_000, 6),
            (256_000, 7),
        ] {
            let s = scaled(BudgetScaling::Deeper, Budget::Nodes(n), BASE);
            assert_eq!(s.max_depth, depth, "{n}");
            assert!(near(s.exploration, 0.5) && near(s.root_exploration, 0.5));
        }
    }

    #[test]
    fn narrower_lowers_the_constant_below_the_root_only() {
        let s = scaled(BudgetScaling::DeeperNarrower, Budget::Nodes(16_000), BASE);
        assert!(near(s.exploration, 0.25), "{s:?}");
        assert!(near(s.root_exploration, 0.5), "{s:?}");
        assert_eq!(s.max_depth, 5);
        let s = scaled(BudgetScaling::DeeperNarrower, Budget::Nodes(64_000), BASE);
        assert!(near(s.exploration, 0.125), "{s:?}");
        assert_eq!(s.max_depth, 6);
    }

    #[test]
    fn the_depth_limit_is_bounded() {
        for mode in [BudgetScaling::Deeper, BudgetScaling::DeeperNarrower] {
            let s = scaled(mode, Budget::Nodes(u64::MAX), BASE);
            assert_eq!(s.max_depth, 4 + MAX_EXTRA_DEPTH);
            assert!(s.exploration > 0.0 && s.exploration.is_finite());
        }
    }
}
