//! [`random_command`]: seeded random commands of both players, good and bad, to drive games.

use rand::seq::IndexedRandom;
use rand::{Rng, RngExt};
use umpire_rules::shakmaty::{Color, Position, Square};
use umpire_rules::{Attempt, AttemptList, Command, Umpire};

/// A random command and who gives it: mostly attempts from the mover's own board (legal or
/// not), sometimes a legal move, garbage squares, "Any?", draw offers, answers to a draw offer
/// by either side (so also the offerer's own, refused), commands of the side not to move
/// (refused), and rarely a resignation. A legal en-passant capture, when there is one, is
/// taken whenever a legal move is drawn. Give it with `Umpire::submit_as`.
pub fn random_command<R: Rng>(umpire: &Umpire, rng: &mut R) -> (Color, Command) {
    let turn = umpire.turn();
    let roll: f64 = rng.random();
    let any_side = if rng.random_bool(0.5) { turn } else { !turn };
    if roll < 0.004 {
        return (any_side, Command::Resign);
    }
    if roll < 0.04 {
        return (turn, Command::AskAny);
    }
    if roll < 0.07 {
        return (turn, Command::OfferDraw);
    }
    if roll < 0.11 {
        let answer = if rng.random_bool(0.1) {
            Command::AcceptDraw
        } else {
            Command::DeclineDraw
        };
        return (any_side, answer);
    }
    if roll < 0.13 {
        return (!turn, Command::Attempt(garbage(rng)));
    }
    if roll < 0.16 {
        return (turn, Command::Attempt(garbage(rng)));
    }
    if roll < 0.45 {
        let legal = umpire.position().legal_moves();
        // En passant is open for one move only: take it when it is there, so that paired games
        // exercise it.
        if let Some(m) = legal.iter().find(|m| m.is_en_passant())
            && let Some(a) = Attempt::from_move(m)
        {
            return (turn, Command::Attempt(a));
        }
        if let Some(m) = legal.as_slice().choose(rng)
            && let Some(a) = Attempt::from_move(m)
        {
            return (turn, Command::Attempt(a));
        }
    }
    let mut options = AttemptList::new();
    let may_ask = umpire.mover_options(&mut options);
    match options.as_slice().choose(rng) {
        Some(&a) => (turn, Command::Attempt(a)),
        None if may_ask => (turn, Command::AskAny),
        None => (turn, Command::Attempt(garbage(rng))),
    }
}

/// An attempt between two random squares.
fn garbage<R: Rng>(rng: &mut R) -> Attempt {
    let from = Square::new(rng.random_range(0..64));
    let to = Square::new(rng.random_range(0..64));
    Attempt {
        from,
        to,
        promotion: None,
    }
}
