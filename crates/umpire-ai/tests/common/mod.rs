//! What the replay tests share: `mcts` seated at a node budget.

#![allow(dead_code)]

use umpire_ai::endgame::Endgame;
use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, AgentConfig, Budget, Seat, play_observations};
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

/// `mcts` with `budget` (the agents' configuration, as `umpire match` builds it) seated as
/// `side` of the record `text` (cut before a decision of `side`), asked at each of its
/// decisions as in the game and told what it heard, with the umpire at the cut: the agent
/// stands where the game's did, its searches before the cut included.
pub fn replayed_to_cut(text: &str, side: Color, budget: Budget) -> (Umpire, Endgame<MctsAgent>) {
    let record = Record::from_json(text).unwrap();
    let config = AgentConfig {
        budget,
        ..AgentConfig::default()
    };
    let (mut umpire, mut agent) = Seat::of_record(&record, side)
        .unwrap()
        .take_mcts(MctsConfig::from_agent_config(&config));
    for entry in &record.entries {
        if entry.side == side {
            agent.choose();
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    assert_eq!(umpire.turn(), side);
    (umpire, agent)
}
