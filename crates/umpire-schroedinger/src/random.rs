//! A random player that attempts only legal moves.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::backend::Backend;
use crate::mv::Move;
use crate::umpire::Umpire;

/// Picks uniformly among the legal moves of the side to move, from a seeded generator.
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
    moves: Vec<Move>,
}

impl RandomPlayer {
    /// A player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            moves: Vec::with_capacity(128),
        }
    }

    /// A legal move for the side to move, or `None` when there is none (the game is over).
    pub fn choose<B: Backend>(&mut self, umpire: &mut Umpire<B>) -> Option<Move> {
        self.moves.clear();
        umpire.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..self.moves.len());
        Some(self.moves[i])
    }
}
