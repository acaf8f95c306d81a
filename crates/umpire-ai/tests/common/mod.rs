//! What the replay tests share: `mcts` seated at a node budget.

#![allow(dead_code)]

use umpire_ai::endgame::Endgame;
use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Budget, Seat};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, RuleSet, Umpire};

/// `mcts` at `nodes` playing `side` from the standard start under `rules`, seeded `seed`, with
/// the umpire of its game; the opening announcements heard.
pub fn seated_mcts(
    rules: RuleSet,
    side: Color,
    seed: u64,
    nodes: u64,
) -> (Umpire, Endgame<MctsAgent>) {
    Seat::new(Umpire::new(rules), side, seed).take_mcts(at_nodes(nodes))
}

/// `mcts` at `nodes` seated as `side` of `record`, with the record's seat seed.
pub fn record_mcts(record: &Record, side: Color, nodes: u64) -> (Umpire, Endgame<MctsAgent>) {
    Seat::of_record(record, side)
        .unwrap()
        .take_mcts(at_nodes(nodes))
}

/// `mcts`'s default configuration at a budget of `nodes`.
pub fn at_nodes(nodes: u64) -> MctsConfig {
    MctsConfig {
        budget: Budget::Nodes(nodes),
        ..MctsConfig::default()
    }
}
