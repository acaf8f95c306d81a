//! Random games: the mover picks uniformly among what it may still say on its own board
//! (attempts not yet rejected this turn, and "Any?" where allowed), rejected attempts included.

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};
use shakmaty::{Bitboard, Role, Square};

use crate::{Attempt, AttemptList, Command, Outcome, PROMOTION_PIECES, Umpire, Verdict};

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

/// What the mover may still try this turn, kept compactly: a destination set per man, and
/// promotions (one attempt per piece) listed apart.
struct Menu {
    men: ArrayVec<(Square, Bitboard), 16>,
    /// At most 8 pawns on the 7th rank, 3 destinations each, 4 pieces: 96 attempts.
    promotions: ArrayVec<Attempt, 96>,
    may_ask: bool,
    size: usize,
}

impl Menu {
    fn new() -> Menu {
        Menu {
            men: ArrayVec::new(),
            promotions: ArrayVec::new(),
            may_ask: false,
            size: 0,
        }
    }

    /// The whole own board at the start of a turn (nothing rejected, nothing asked yet).
    fn start_of_turn(&mut self, umpire: &Umpire) {
        self.men.clear();
        self.promotions.clear();
        let own = umpire.own_board();
        let queen_only = umpire.rules().promotion_always_queen;
        let mut size = 0;
        own.for_each_man(|from, role, targets| {
            if role == Role::Pawn && own.promotes_from(from) {
                for to in targets {
                    if queen_only {
                        self.promotions
                            .push(Attempt::promoting(from, to, Role::Queen));
                    } else {
                        for piece in PROMOTION_PIECES {
                            self.promotions.push(Attempt::promoting(from, to, piece));
                        }
                    }
                }
            } else {
                size += targets.count();
                self.men.push((from, targets));
            }
        });
        self.may_ask = umpire.rules().has_any_question();
        self.size = size + self.promotions.len() + usize::from(self.may_ask);
    }

    /// Whatever the umpire says the mover may still say (after "Any?" or a rejection that
    /// changes the obligations).
    fn refill(&mut self, umpire: &Umpire, scratch: &mut AttemptList) {
        self.men.clear();
        self.promotions.clear();
        scratch.clear();
        self.may_ask = umpire.mover_options(scratch);
        let mut size = 0;
        for a in scratch.iter() {
            if a.promotion.is_some() {
                self.promotions.push(*a);
            } else {
                match self.men.iter_mut().find(|(from, _)| *from == a.from) {
                    Some((_, targets)) => targets.add(a.to),
                    None => self.men.push((a.from, Bitboard::from_square(a.to))),
                }
            }
            size += 1;
        }
        self.size = size + usize::from(self.may_ask);
    }

    fn pick<R: Rng>(&self, rng: &mut R) -> Option<Command> {
        if self.size == 0 {
            return None;
        }
        let mut r = rng.random_range(0..self.size);
        for &(from, targets) in &self.men {
            let n = targets.count();
            if r < n {
                let to = targets.into_iter().nth(r)?;
                return Some(Command::Attempt(Attempt::new(from, to)));
            }
            r -= n;
        }
        if r < self.promotions.len() {
            return Some(Command::Attempt(self.promotions[r]));
        }
        self.may_ask.then_some(Command::AskAny)
    }

    fn remove(&mut self, command: Command) {
        match command {
            Command::AskAny => self.may_ask = false,
            Command::Attempt(a) if a.promotion.is_some() => {
                if let Some(i) = self.promotions.iter().position(|p| *p == a) {
                    self.promotions.swap_remove(i);
                }
            }
            Command::Attempt(a) => {
                if let Some((_, targets)) = self.men.iter_mut().find(|(from, _)| *from == a.from) {
                    targets.discard(a.to);
                }
            }
            _ => return,
        }
        self.size -= 1;
    }
}

/// Plays random commands until the game ends or `max_plies` moves have been played, calling
/// `observe` after each command. Never allocates.
pub fn random_game<R: Rng>(
    umpire: &mut Umpire,
    rng: &mut R,
    max_plies: u32,
    mut observe: impl FnMut(Command, &Outcome),
) -> PlayoutStats {
    let mut stats = PlayoutStats {
        games: 1,
        ..PlayoutStats::default()
    };
    let mut menu = Menu::new();
    let mut scratch = AttemptList::new();
    while !umpire.is_over() && umpire.plies() < max_plies {
        menu.start_of_turn(umpire);
        loop {
            let Some(command) = menu.pick(rng) else {
                // Cannot happen in a legal position: some legal move is always on the own board.
                return stats;
            };
            let obliged = umpire.must_try_pawn_capture();
            let outcome = umpire.submit(command);
            stats.attempts += 1;
            observe(command, &outcome);
            match outcome.verdict {
                Verdict::Accepted => {
                    stats.plies += 1;
                    break;
                }
                Verdict::GameOver => return stats,
                _ if command == Command::AskAny || obliged != umpire.must_try_pawn_capture() => {
                    menu.refill(umpire, &mut scratch);
                }
                _ => menu.remove(command),
            }
        }
    }
    stats
}
