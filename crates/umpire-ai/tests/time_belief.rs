//! The belief a time budget buys (issue 28, session 11): `mcts` at 1000 ms per decision keeps
//! a larger belief than at 100 ms, and both larger than under a node budget; a tuning's
//! explicit bound wins over the budget's.
//!
//! Black's agent hears White play three moves (Black answers each with a pawn move of its
//! own): after that it cannot tell apart thousands of White positions, so what it holds is
//! its bound. No decision is asked for, so no test here depends on the machine's speed.

use std::time::Duration;

use umpire_ai::mcts::{MCTS_BELIEF_BOUND, MctsAgent, MctsConfig};
use umpire_ai::time_bound::belief_bound;
use umpire_ai::{Agent, AgentConfig, Budget, Tuning, opening_heard, play_observations};
use umpire_rules::shakmaty::{Chess, Color, Square};
use umpire_rules::{Attempt, Command, RuleSet, Umpire};
use umpire_view::PlayerView;

/// Black's agent with `config` after 1. e4 a6 2. d4 h6 3. Nf3: the number of positions its
/// belief holds.
fn held_after_three_moves(config: MctsConfig) -> usize {
    let rules = RuleSet::WILD16;
    let mut umpire = Umpire::new(rules);
    let mut black = MctsAgent::new(
        PlayerView::standard(rules, Color::Black),
        11,
        Some(Chess::default()),
        config,
    );
    black.hear_opening(&opening_heard(&umpire));
    let moves = [
        (Square::E2, Square::E4),
        (Square::A7, Square::A6),
        (Square::D2, Square::D4),
        (Square::H7, Square::H6),
        (Square::G1, Square::F3),
    ];
    for (from, to) in moves {
        let command = Command::Attempt(Attempt::new(from, to));
        let outcome = umpire.submit(command);
        play_observations(&mut black, Color::Black, command, &outcome).unwrap();
    }
    black.belief().map_or(0, |b| b.held())
}

fn config(budget: Budget) -> MctsConfig {
    MctsConfig::from_agent_config(&AgentConfig {
        budget,
        ..AgentConfig::default()
    })
}

#[test]
fn a_second_per_decision_holds_a_larger_belief_than_100_ms() {
    let ms = |t| Budget::Time(Duration::from_millis(t));
    let at_100ms = held_after_three_moves(config(ms(100)));
    let at_1s = held_after_three_moves(config(ms(1_000)));
    let nodes = held_after_three_moves(config(Budget::Nodes(30_000)));
    assert_eq!(nodes, MCTS_BELIEF_BOUND, "a node budget keeps its bound");
    // A bounded belief holds a sample of its bound's size (a few fewer where the sample
    // drew a position twice).
    assert!(at_100ms <= belief_bound(ms(100)) && at_100ms >= nodes);
    assert!(at_1s <= belief_bound(ms(1_000)));
    assert!(
        at_1s > belief_bound(ms(100)),
        "{at_1s} at 1 s, {at_100ms} at 100 ms"
    );
    // The agent built by name with a time budget gets the same.
    let named = Tuning::parse("1000ms")
        .unwrap()
        .mcts_config(&AgentConfig::default());
    assert_eq!(named.belief_bound, belief_bound(ms(1_000)));
}

#[test]
fn an_explicit_bound_wins_over_the_time_budget() {
    let tuned = Tuning::parse("1000ms/bound=128/repair=12000")
        .unwrap()
        .mcts_config(&AgentConfig::default());
    assert_eq!(tuned.belief_bound, 128);
    assert_eq!(held_after_three_moves(tuned), 128);
    let view = PlayerView::standard(RuleSet::WILD16, Color::White);
    let agent = MctsAgent::new(view, 1, Some(Chess::default()), tuned);
    assert_eq!(agent.repair_budget(), 12_000);
    // Without it, the time budget's.
    let plain = MctsAgent::new(
        PlayerView::standard(RuleSet::WILD16, Color::White),
        1,
        Some(Chess::default()),
        config(Budget::Time(Duration::from_secs(1))),
    );
    assert_eq!(
        plain.repair_budget(),
        umpire_ai::time_bound::belief_repair(Budget::Time(Duration::from_secs(1)))
    );
    assert!(
        plain.repair_budget()
            > umpire_ai::time_bound::repair_budget(Budget::Time(Duration::from_secs(1)))
    );
}
