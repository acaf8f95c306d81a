//! The move policy inside determinizations (for the hidden opponent and for both sides in
//! playouts): it sees the determinized position whole. Mostly it takes the most valuable man
//! it can capture, else it plays a uniformly random legal move. Allocation-free.

use rand::{Rng, RngExt};
use umpire_rules::shakmaty::{Chess, Move, Position};

use crate::eval::material_value;

/// How often the policy takes its best capture when it has one.
pub const CAPTURE_PROBABILITY: f64 = 0.8;

/// A move for the side to move in `pos`, `None` if it has none.
pub fn policy_move<R: Rng>(pos: &Chess, rng: &mut R) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if rng.random_bool(CAPTURE_PROBABILITY) {
        let mut best: Option<&Move> = None;
        let mut best_gain = f64::NEG_INFINITY;
        for m in &moves {
            if let Some(victim) = m.capture() {
                // The most valuable victim; among equal victims, the cheapest attacker.
                let gain = 10.0 * material_value(victim) - material_value(m.role()) / 10.0;
                if gain > best_gain {
                    best_gain = gain;
                    best = Some(m);
                }
            }
        }
        if let Some(m) = best {
            return Some(*m);
        }
    }
    Some(moves[rng.random_range(0..moves.len())])
}
