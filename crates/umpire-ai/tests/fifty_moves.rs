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
//! game. Before session 10 the net played the recorded king step `Kf4-e5`; now, a lone heavy
//! piece's ending against men that may be pawns past 60 plies on the clock, the net hands the
//! decision to the search (`NetCloser::hands_over`), which counts the clock in its walks.

mod common;

use umpire_ai::{Agent, Budget};
use umpire_rules::Command;
use umpire_rules::shakmaty::Color;

/// The command `mcts` with `budget` chooses at the end of `text` (a record cut before a
/// decision of `side`), seated as `side` and asked at each of its decisions as in the game,
/// the clock as it counts it then, and the nodes its analysis names (the search's budget when
/// the search decided).
fn last_choice(text: &str, side: Color, budget: Budget) -> (Command, u32, u64) {
    let (_, mut agent) = common::replayed_to_cut(text, side, budget);
    let clock = agent.clock().plies();
    assert_eq!(
        clock,
        agent.inner().clock().plies(),
        "one count, two holders"
    );
    let chosen = agent.choose();
    let nodes = agent.analysis().map_or(0, |a| a.nodes);
    (chosen, clock, nodes)
}

#[test]
fn the_search_decides_the_lone_queen_ending_as_the_clock_runs() {
    let (chosen, clock, nodes) = last_choice(
        include_str!("data/fifty_queen_knight_vs_rook.json"),
        Color::White,
        Budget::Nodes(4000),
    );
    assert_eq!(clock, 72);
    assert_eq!(nodes, 4000, "the search decided ({chosen})");
    assert_ne!(chosen.to_string(), "f4e5", "the recorded king walk");
}
