//! Fifty-move draws thrown away far ahead (issue 28, session 10): the node-budget row
//! `mcts@4000` against `raider` (seed 28, 40 games) at the session's start drew game 5 by the
//! fifty-move rule with `mcts` (White) a queen and a knight against a rook, 7 ahead. The
//! enemy's last man had given checks along ranks, but the metaposition had lost track of
//! whether it was a pawn that promoted, so the mating net (`darkboard/net.rs`, through the
//! `Endgame` wrapper) was in charge, and it walked the king and shuffled the knight for the
//! last hundred plies (the last capture at the 198th accepted move, the draw at the 298th).
//!
//! The record, cut 72 plies after that capture (White to move; the clock as White counts it at
//! 72), is replayed into `mcts@4000` seated as in the game and asked at every decision as in the
//! game. Without the net's capture tries as the clock runs (`darkboard/capture_tries.rs`) it
//! plays the recorded king step `Kf4-e5`; with them, a move onto a square where the metaposition
//! lets an enemy pawn stand.

use umpire_ai::mcts::MctsConfig;
use umpire_ai::{Agent, AgentConfig, Budget, Seat, play_observations};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, Record};

/// The command `mcts` with `budget` chooses at the end of `text` (a record cut before a
/// decision of `side`), seated as `side` and asked at each of its decisions as in the game,
/// and the clock as it counts it then.
fn last_choice(text: &str, side: Color, budget: Budget) -> (Command, u32) {
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
    let clock = agent.clock().plies();
    assert_eq!(
        clock,
        agent.inner().clock().plies(),
        "one count, two holders"
    );
    (agent.choose(), clock)
}

#[test]
fn the_net_tries_for_a_pawn_rather_than_walk_the_king_as_the_clock_runs() {
    let (chosen, clock) = last_choice(
        include_str!("data/fifty_queen_knight_vs_rook.json"),
        Color::White,
        Budget::Nodes(4000),
    );
    assert_eq!(clock, 72);
    assert_ne!(chosen.to_string(), "f4e5", "the recorded king walk");
    let Command::Attempt(a) = chosen else {
        panic!("{chosen}: an attempt expected");
    };
    // Onto a square an enemy pawn may stand on: not the first or last rank, not a square our
    // own men hold.
    assert!(
        !matches!(
            a.to.rank(),
            umpire_rules::shakmaty::Rank::First | umpire_rules::shakmaty::Rank::Eighth
        ),
        "{chosen}"
    );
}
