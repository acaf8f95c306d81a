//! Planning over every kept guess while the belief is empty (issue 28, session 10).
//!
//! While `mcts`'s belief is under repair it plans from a fallback restarted from one guess. In
//! two 100-game rows of `mcts@4000` against `raider` (seeds 28 and 29), 57 % of the moves of
//! the games it did not win that lost 3 pawns or more in the true position were planned from
//! that single guessed world. [`Safeguards::guess_worlds`] plans from the other kept guesses
//! as well, and weighs them in the root's material veto.
//!
//! Each case replays a recorded game of the seed-29 row, cut after the blunder, into a fresh
//! `mcts@4000` seated as `mcts` was, with the game's seat seed; at the decision the belief is
//! empty (under repair). The move chosen is weighed in the **true** position with
//! [`exchange_delta`]: it must not lose [`BLUNDER_PAWNS`] or more. With the safeguard off the
//! agent plays the game's blunder again (checked too, so the case stays one that needs it).

mod common;

use umpire_ai::mcts::{MctsConfig, Safeguards};
use umpire_ai::safety::{BLUNDER_PAWNS, exchange_delta};
use umpire_ai::{Agent, Seat, play_observations};
use umpire_rules::shakmaty::Chess;
use umpire_rules::{Command, Record};

/// Replays `text` up to entry `at` into `mcts@4000` with `safeguards`, seated as that entry's
/// side with the record's seat seed; returns the true position, the agent's choice, and how
/// many positions its belief held at the decision.
fn choice_at(text: &str, at: usize, safeguards: Safeguards) -> (Chess, Command, usize) {
    let record = Record::from_json(text).unwrap();
    let side = record.entries[at].side;
    let config = MctsConfig {
        safeguards,
        ..common::at_nodes(4_000)
    };
    let (mut umpire, mut agent) = Seat::of_record(&record, side).unwrap().take_mcts(config);
    for entry in &record.entries[..at] {
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    let chosen = agent.choose();
    let held = agent.inner().belief().map_or(0, |b| b.held());
    (umpire.position().clone(), chosen, held)
}

/// The material `command` keeps in the true position `truth` (see [`exchange_delta`]).
fn kept(truth: &Chess, command: Command) -> f64 {
    let Command::Attempt(a) = command else {
        panic!("{command:?} is not a move");
    };
    exchange_delta(std::slice::from_ref(truth), a).expect("the move is legal")
}

/// Requires the choice at entry `at` of `text` to keep its men with every safeguard on, and to
/// be the game's `blunder` with [`Safeguards::guess_worlds`] off.
fn planned_over_the_guesses(text: &str, at: usize, blunder: &str) {
    let (truth, chosen, held) = choice_at(text, at, Safeguards::ALL);
    assert_eq!(held, 0, "the belief is under repair at this decision");
    let answer = kept(&truth, chosen);
    assert!(
        answer > -BLUNDER_PAWNS,
        "{chosen} keeps {answer} in the true position"
    );
    let one_world = Safeguards::ALL.without("worlds").unwrap();
    let (_, before, _) = choice_at(text, at, one_world);
    assert_eq!(
        before.to_string(),
        blunder,
        "the case no longer needs the change"
    );
    assert!(kept(&truth, before) <= -BLUNDER_PAWNS);
}

/// Game 15 (`mcts@4000` White): a black knight took the rook on a1 (`Nc2xa1`, a piece taken on
/// a1 announced) while the belief was empty; planning from one guess, the game's agent played
/// `Qd1–b3`, into the knight's reach (`Na1xb3`, −9.3).
#[test]
fn the_queen_stays_out_of_reach_of_the_knight_that_took_on_a1() {
    planned_over_the_guesses(include_str!("data/fallback_queen_b3.json"), 32, "d1b3");
}

/// Game 17 (`mcts@4000` White): with the belief empty, the game's agent played `Bd2–h6`, where
/// the pawn on g7 and the knight on g8 take it (−3.55); the one guess it planned from had
/// neither there.
#[test]
fn the_bishop_is_not_put_where_the_home_men_take_it() {
    planned_over_the_guesses(include_str!("data/fallback_bishop_h6.json"), 26, "d2h6");
}
