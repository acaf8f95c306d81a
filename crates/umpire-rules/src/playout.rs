//! Random games: the mover picks uniformly among what it may still say on its own board
//! (attempts not yet rejected this turn, and "Any?" where allowed), rejected attempts included.

use rand::{Rng, RngExt};

use crate::{AttemptList, Command, Outcome, Umpire, Verdict};

/// Counts from one or more random games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Commands judged (attempts and "Any?" questions).
    pub attempts: u64,
    /// Moves played.
    pub plies: u64,
}

impl PlayoutStats {
    /// Adds another count.
    pub fn add(&mut self, other: PlayoutStats) {
        self.games += other.games;
        self.attempts += other.attempts;
        self.plies += other.plies;
    }
}

/// Plays random commands until the game ends or `max_plies` moves have been played, calling
/// `observe` after each command. Never allocates per attempt.
pub fn random_game<R: Rng>(
    umpire: &mut Umpire,
    rng: &mut R,
    max_plies: u32,
    mut observe: impl FnMut(Command, &Outcome),
) -> PlayoutStats {
    let mut stats = PlayoutStats { games: 1, ..PlayoutStats::default() };
    let mut options = AttemptList::new();
    let recompute_on_rejection = umpire.rules().has_any_question();
    while !umpire.is_over() && umpire.plies() < max_plies {
        options.clear();
        let mut may_ask = umpire.mover_options(&mut options);
        loop {
            let n = options.len() + usize::from(may_ask);
            if n == 0 {
                // Cannot happen in a legal position: some legal move is always on the own board.
                return stats;
            }
            let pick = rng.random_range(0..n);
            let command = if pick == options.len() {
                Command::AskAny
            } else {
                Command::Attempt(options[pick])
            };
            let outcome = umpire.submit(command);
            stats.attempts += 1;
            observe(command, &outcome);
            match outcome.verdict {
                Verdict::Accepted => {
                    stats.plies += 1;
                    break;
                }
                Verdict::GameOver => return stats,
                _ if recompute_on_rejection || command == Command::AskAny => {
                    options.clear();
                    may_ask = umpire.mover_options(&mut options);
                }
                _ => {
                    options.swap_remove(pick);
                }
            }
        }
    }
    stats
}
