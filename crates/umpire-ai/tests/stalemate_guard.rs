//! Stalemates thrown away far ahead (issue 28, session 8's quiet `mcts` vs `raider` row at
//! 100 ms, seed 28): the mating net beyond the tables dropped the enemy king's true square, or
//! called it checked, through a square where the enemy pawn stood, and stalemated.
//!
//! - game 52 (`mcts` Black, KQRRNN vs KP, 24 ahead, its belief dead): `Rb5-h5` blocked the
//!   pawn on h4 and "checked" the king on h2 through it; `Ra1-h1` mates;
//! - game 5 (`mcts` White, KQRN vs KP, 16 ahead): `Qh4-g3` blocked the pawn on g4 with the
//!   king on e4, a square the net had dropped (the queen "attacked" it through g4).
//!
//! Each record, cut before the stalemating move, is replayed into `mcts` seated as in the game
//! (the record's seat seed, node budgets: game 52 at 2,000, its belief dead as in the game;
//! game 5 at 30,000, about the game's 100 ms, its belief a restarted guess without the king's
//! square as in the game) and asked at every decision as in the game; both play the recorded
//! stalemate without the guard (`endgame/stalemate_guard.rs`), and must now play another move.

mod common;

use umpire_ai::{Agent, Budget};
use umpire_rules::Command;
use umpire_rules::shakmaty::Color;

/// The command `mcts` with `budget` chooses at the end of `text` (the record cut before the
/// stalemating move), seated as `side` and asked at each of its decisions as in the game.
fn last_choice(text: &str, side: Color, budget: Budget) -> Command {
    let (_, mut agent) = common::replayed_to_cut(text, side, budget);
    agent.choose()
}

#[test]
fn the_rook_does_not_stalemate_the_king_behind_the_pawn() {
    let chosen = last_choice(
        include_str!("data/stalemate_rook_on_pawn.json"),
        Color::Black,
        Budget::Nodes(2000),
    );
    assert_ne!(chosen.to_string(), "b5h5");
}

#[test]
fn the_queen_does_not_stalemate_the_king_the_net_had_dropped() {
    let chosen = last_choice(
        include_str!("data/stalemate_queen_on_pawn.json"),
        Color::White,
        Budget::Nodes(30_000),
    );
    assert_ne!(chosen.to_string(), "h4g3");
}
