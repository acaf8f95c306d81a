//! Issue 28 goal 3: no decision pays for loading or building an endgame table. In the
//! seventh session's D35 match (`mcts@4000` against `mcts@64000`, seed 28) one level-4 decision
//! took 4.3 s of CPU (85 s of wall time): game 34, Black's decision at move 157, the first in
//! the process to reach K+B+N against the lone king, built the KBNK table (its cache file was
//! missing) inside the decision. A match now loads the tables before its first game.
//!
//! One test in a binary of its own: the tables are loaded once per process, so no other test
//! may have loaded them first.

mod common;

use umpire_ai::endgame::{EndgameConfig, table_position, tables};
use umpire_ai::tournament::{MatchConfig, RunKey, run_match};
use umpire_ai::{Agent, AgentConfig, AgentSpec, Budget, play_observations};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, RuleSetId, Verdict};
use umpire_tablebase::Ending;

#[test]
fn a_match_loads_its_tables_before_the_first_decision_and_no_decision_loads_one() {
    // Nothing loaded the tables yet in this process.
    assert!(Ending::ALL.iter().all(|&e| !tables::is_built(e)));
    assert_eq!(tables::loaded_at_need(), 0);

    // A match of two table-playing agents, stopped long before any ending: the tables are in
    // memory all the same, and no decision loaded one.
    let spec: AgentSpec = "mcts@3".parse().unwrap();
    let cfg = MatchConfig {
        rules: RuleSetId::Wild16,
        games: 1,
        agent: AgentConfig {
            budget: Budget::Nodes(3),
            ..AgentConfig::default()
        },
        concurrency: 1,
        key: RunKey::from_seed(28),
        max_plies: 2,
        sprt: None,
        engine_timeout: None,
    };
    let summary = run_match(&spec, &spec, &cfg, |_| {}).unwrap();
    assert_eq!(summary.tally.games(), 1);
    for e in Ending::ALL {
        assert!(tables::is_built(e), "{} not loaded before play", e.as_str());
    }
    assert_eq!(tables::loaded_at_need(), 0);

    // D35's game 34 replayed into Black's `mcts` (a small node budget: the record, not its
    // choices, drives the game) through the decision that built KBNK: that decision reaches
    // the ending and looks the table up without loading anything.
    let text = include_str!("data/kbnk_first_need.json");
    let record = Record::from_json(text).unwrap();
    let (mut umpire, mut agent) = common::seated_mcts(*record.rules.rules(), Color::Black, 34, 50);
    let mut kbnk_decisions = 0;
    for entry in &record.entries {
        if entry.side == Color::Black {
            let ending = table_position(agent.view(), EndgameConfig::default()).map(|(e, _)| e);
            kbnk_decisions += usize::from(ending == Some(Ending::Kbnk));
            let _ = agent.choose();
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, Color::Black, entry.command, &outcome).unwrap();
        if outcome.verdict == Verdict::GameOver {
            break;
        }
    }
    assert!(kbnk_decisions > 0, "the record reaches K+B+N against K");
    assert_eq!(tables::loaded_at_need(), 0);
}
