//! Raids (issue 28): a `raider` piece walks into `mcts`'s camp and takes the men still on their
//! home squares one after another. Right after such a capture the agent must answer it: take the
//! raider, or move the man it attacks next.
//!
//! Each case replays a recorded game of the third session's `mcts@30000` against `raider` row
//! (seed 28; the records cut after the raid) into a fresh `mcts` seated as the raided side: it
//! hears exactly what that side heard up to the decision after the capture. The agent's
//! attempts are then judged by the game's umpire (an illegal one is heard as illegal and the
//! agent tries again, as in a game) and the move accepted is weighed in the **true** position
//! with [`exchange_delta`] (the material the move keeps after the captures that may follow): it
//! must not lose [`BLUNDER_PAWNS`] or more, and must keep at least that much more than the
//! move the game's agent played there. The belief is the agent's own (not the true position),
//! so the test asks what a player hearing only its announcements can do.

mod common;

use umpire_ai::safety::{BLUNDER_PAWNS, exchange_delta};
use umpire_ai::{Agent, play_observations};
use umpire_rules::shakmaty::{Chess, Color, Position, Square};
use umpire_rules::{Command, Record, Verdict};

/// The most attempts the agent gets in the judged turn.
const TRIES: usize = 16;

/// Replays `record` up to entry `at` (the raided side's first command after the capture) into
/// `mcts` at `nodes` seated as that side, seeded `seed`; returns the true position there, the
/// move the agent had accepted, and the move the game's agent had accepted.
fn replay(text: &str, at: usize, seed: u64, nodes: u64) -> (Chess, Command, Command) {
    let record = Record::from_json(text).unwrap();
    let rules = *record.rules.rules();
    let side = record.entries[at].side;
    let (mut umpire, mut agent) = common::seated_mcts(rules, side, seed, nodes);
    for entry in &record.entries[..at] {
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    let recorded = record.entries[at..]
        .iter()
        .find(|e| e.side == side && e.verdict == Verdict::Accepted)
        .expect("the record goes on to the side's move")
        .command;
    let truth = umpire.position().clone();
    for _ in 0..TRIES {
        let command = agent.choose();
        let outcome = umpire.submit(command);
        if outcome.verdict == Verdict::Accepted {
            return (truth, command, recorded);
        }
        // Rejected, or "Any?" answered: heard, and the agent chooses again.
        play_observations(&mut agent, side, command, &outcome).unwrap();
    }
    panic!("seed {seed}: no accepted move in {TRIES} attempts");
}

/// The material `command` keeps in the true position `truth` (see [`exchange_delta`]).
fn kept(truth: &Chess, command: Command) -> f64 {
    let Command::Attempt(a) = command else {
        panic!("{command:?} is not a move");
    };
    exchange_delta(std::slice::from_ref(truth), a).expect("an accepted move is legal")
}

/// Requires the agent's answer to the raid at entry `at` of `text` to keep its men (see the
/// module documentation), over two seeds.
fn answers_the_raid(text: &str, at: usize, context: &str) {
    for seed in 0..2 {
        let (truth, chosen, recorded) = replay(text, at, seed, 30_000);
        let played = kept(&truth, recorded);
        assert!(
            played <= -BLUNDER_PAWNS,
            "{context}: the recorded {recorded} lost only {played}"
        );
        let answer = kept(&truth, chosen);
        assert!(
            answer > -BLUNDER_PAWNS && answer >= played + BLUNDER_PAWNS,
            "{context}, seed {seed}: {chosen} keeps {answer}, the recorded {recorded} {played}"
        );
    }
}

/// Game 4 (`mcts` Black): a white bishop took the bishop on g7 (`Bh6xg7`) and attacked the rook
/// on h8; the game's agent shuffled its queen (`Qa5–a8`) and lost the rook, the knight on g8
/// and the queen to the same bishop in the next moves.
#[test]
fn the_rook_in_the_corner_escapes_the_bishop_that_took_on_g7() {
    answers_the_raid(
        include_str!("data/raid_bishop_camp.json"),
        50,
        "game 4, after Bh6xg7",
    );
}

/// Game 14 (`mcts` Black): a white rook took the rook on a8 (`Rd8xa8`), attacking the queen on
/// e8 along the back rank; the game's agent moved its king (`Ke6–d7`), and the rook went on to
/// take a pawn, a knight, a rook and the queen.
#[test]
fn the_rook_that_took_on_a8_is_taken_back() {
    answers_the_raid(
        include_str!("data/raid_rook_back_rank.json"),
        53,
        "game 14, after Rd8xa8",
    );
}

/// Game 13 (`mcts` White): a black bishop came down the long diagonal (`Bg7xb2`), then took the
/// rook on a1 (`Bb2xa1`); the game's agent answered with `f2–f4` before taking it back a move
/// later. A missed recapture loses nothing [`exchange_delta`] counts (the rook is gone either
/// way), so here the answer must be the recapture itself: a move to a1, the announced square.
#[test]
fn the_bishop_that_took_on_a1_is_taken_back() {
    let text = include_str!("data/raid_long_diagonal.json");
    for seed in 0..2 {
        let (_, chosen, recorded) = replay(text, 21, seed, 30_000);
        let Command::Attempt(a) = chosen else {
            panic!("seed {seed}: {chosen:?}");
        };
        assert_eq!(
            a.to,
            Square::A1,
            "seed {seed}: {a} instead of taking back on a1 (the game's agent: {recorded})"
        );
    }
}

/// Replays `record` up to entry `at` into `mcts` at 30,000 nodes seated as that entry's side
/// with the game's seat seed (with it the belief is empty at that decision, under repair), and
/// asks for its choice; returns the true position, the choice and the positions the agent
/// planned from (the fallback).
fn planned_while_empty(text: &str, at: usize) -> (Chess, Command, Vec<Chess>) {
    let record = Record::from_json(text).unwrap();
    let side = record.entries[at].side;
    let (mut umpire, mut agent) = common::record_mcts(&record, side, 30_000);
    for entry in &record.entries[..at] {
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    let chosen = agent.choose();
    let mcts = agent.inner();
    assert_eq!(
        mcts.belief().map(|b| b.held()),
        Some(0),
        "the belief is under repair here"
    );
    let planning = mcts.planning_belief().expect("a fallback to plan from");
    assert!(planning.held() > 0);
    (
        umpire.position().clone(),
        chosen,
        planning.positions().cloned().collect(),
    )
}

/// Game 15 of the session-6 quiet row (`mcts` White at 100 ms, seed 6): a black pawn took a
/// pawn on e4, then the bishop on d3 (`e4xd3`), and stood next to the rook on c2 while `mcts`'s
/// belief was empty (under repair) and it planned from the fallback restarted from the last
/// turn's guesses, which had no black man on d3. The game's agent moved a knight (`Ng1–e2`);
/// the pawn took the rook on c2, then the knight on b1 with promotion. The positions the agent
/// plans from must have the taker on the announced square
/// ([`umpire_ai::restart::place_taker`]); with them the answer keeps the men.
#[test]
fn the_pawn_that_took_on_d3_while_the_belief_was_empty_is_planned_around() {
    let (truth, chosen, planned) =
        planned_while_empty(include_str!("data/raid_pawn_while_empty.json"), 38);
    for p in &planned {
        assert_eq!(
            p.board().color_at(Square::D3),
            Some(Color::Black),
            "a planned position without the taker on d3"
        );
    }
    let answer = kept(&truth, chosen);
    assert!(answer > -BLUNDER_PAWNS, "{chosen} keeps {answer}");
}

/// Game 26 of build D's row (`mcts@30000` Black, fifth session): 7.75 ahead, its king on d6
/// and queen on e7, `raider`'s bishop checked from c5 (a short-diagonal check) while the belief
/// was empty; the fallback had no checker (a stale guess's men that attack the king are taken
/// off), and the game's agent played `Kd6–d7`, uncovering the queen to `Bc5xe7`. The positions
/// planned from must hold the announced check ([`umpire_ai::restart::place_checkers`]), and the
/// answer must keep the queen.
#[test]
fn a_check_heard_while_the_belief_was_empty_is_planned_around() {
    let (truth, chosen, planned) =
        planned_while_empty(include_str!("data/check_while_empty.json"), 78);
    for p in &planned {
        assert!(p.is_check(), "a planned position without the check");
    }
    let answer = kept(&truth, chosen);
    assert!(answer > -BLUNDER_PAWNS, "{chosen} keeps {answer}");
}
