//! [`SearchStats`]: where one decision's nodes went — how many iterations ran against the
//! budget, why the search stopped, how deep the tree grew and how the root's visits spread.
//! For measuring the search (issue 28's node plateau); the agent keeps the last decision's.

/// Why a decision's search loop ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// No search ran (a single command, or no position to plan from).
    #[default]
    NotSearched,
    /// The node budget was spent.
    Budget,
    /// The time budget's deadline passed.
    Deadline,
    /// The belief gave no determinization.
    NoPosition,
    /// Too many drawn determinizations could not be searched (not the agent's turn in them,
    /// or the umpire refused them).
    Unsearchable,
}

/// What one decision's search did with its nodes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// The iterations the budget allowed (`u64::MAX` under a time budget).
    pub budget: u64,
    /// Iterations run (the nodes reported).
    pub iterations: u64,
    /// Determinizations drawn, searched or not.
    pub tries: u64,
    /// Why the loop ended.
    pub stop: StopReason,
    /// Nodes in the tree at the end (the root included).
    pub tree_nodes: usize,
    /// Reply tables of the hidden opponent at the end.
    pub reply_tables: usize,
    /// The most agent moves any iteration walked below the root.
    pub deepest: u32,
    /// Iterations stopped by the depth limit (scored by the evaluation, no node created).
    pub at_depth_limit: u64,
    /// Iterations that created no node for another reason (a game's end, a node with no
    /// command left).
    pub no_expansion: u64,
    /// Iterations scored as a draw by the fifty-move rule: their walk took the agent's count of
    /// the clock to the limit.
    pub fifty_draws: u64,
    /// Root edges searched.
    pub root_edges: usize,
    /// The root's visits per edge, most visited first.
    pub root_visits: Vec<u32>,
    /// The positions the belief held when the search began.
    pub held: usize,
    /// The worlds drawn beside them (a restart's spares, the fallback's other guesses).
    pub beside: usize,
    /// The depth limit used, in agent moves.
    pub max_depth: u32,
}

impl SearchStats {
    /// The share of the root's visits on its most visited edge (0 without visits).
    pub fn top_share(&self) -> f64 {
        let total: u64 = self.root_visits.iter().map(|&v| u64::from(v)).sum();
        match self.root_visits.first() {
            Some(&v) if total > 0 => f64::from(v) / total as f64,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::{Chess, Color};
    use umpire_view::PlayerView;

    use super::StopReason;
    use crate::mcts::{MctsAgent, MctsConfig};
    use crate::{Agent, Budget, play_observations};

    /// Black's search after White's e4 with `config`: its stats.
    fn after_e4(config: MctsConfig) -> super::SearchStats {
        let rules = RuleSet::WILD16;
        let mut umpire = umpire_rules::Umpire::new(rules);
        let mut black = MctsAgent::new(
            PlayerView::standard(rules, Color::Black),
            5,
            Some(Chess::default()),
            config,
        );
        black.hear_opening(&crate::opening_heard(&umpire));
        let e4 = umpire_rules::Command::Attempt(umpire_rules::Attempt::new(
            umpire_rules::shakmaty::Square::E2,
            umpire_rules::shakmaty::Square::E4,
        ));
        let outcome = umpire.submit(e4);
        play_observations(&mut black, Color::Black, e4, &outcome).unwrap();
        black.choose();
        black.stats().clone()
    }

    /// A node budget of 4,000 runs 4,000 iterations (none is lost to an early stop) and each
    /// creates at most one node; the root's visits add up to the iterations.
    #[test]
    fn a_budget_of_4000_nodes_runs_4000_iterations() {
        // After White's e4 Black's belief holds every White first move that sounds alike.
        let stats = &after_e4(MctsConfig {
            budget: Budget::Nodes(4_000),
            ..MctsConfig::default()
        });
        assert_eq!(stats.budget, 4_000);
        assert_eq!(stats.iterations, 4_000);
        assert_eq!(stats.stop, StopReason::Budget);
        assert!(stats.held > 1, "{}", stats.held);
        assert!(stats.tree_nodes <= 4_001);
        assert!(stats.tree_nodes > 3_000, "{}", stats.tree_nodes);
        assert_eq!(
            stats.root_visits.iter().map(|&v| u64::from(v)).sum::<u64>(),
            4_000
        );
        assert!(stats.deepest >= 2);
    }
}
