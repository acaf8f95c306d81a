//! [`OwnConfigs`]: the configurations the player's own men have stood in that they may still
//! return to, bounded.
//!
//! A configuration is the own men (where they stand, castling and en passant rights), kept as
//! a hash. Some changes can never be undone: a pawn of ours moving (pawns only go forward and
//! none is ever added), a man of ours lost (the count never grows) and a castling right given
//! up. Every configuration from before such a change differs from every one after it in the
//! pawns, the count of men or the rights, so it can never be stood in again, and forgetting it
//! changes no count [`OwnConfigs::count`] gives. What is kept is then only the configurations
//! since the last irreversible change, and of those at most the latest [`MAX_CONFIGS`]: the
//! fifty-move rule ends a game long before that many own moves without a pawn move or a loss,
//! so a count changes only in a game of a rule set without it, and there only for a
//! configuration last stood in more than [`MAX_CONFIGS`] own moves ago.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

use umpire_rules::OwnBoard;
use umpire_rules::shakmaty::{Bitboard, CastlingSide};

/// The most configurations kept (the oldest is forgotten first).
pub(crate) const MAX_CONFIGS: usize = 256;

/// What only changes irreversibly: the own pawns, the number of own men, the castling rights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Irreversible {
    pawns: Bitboard,
    men: usize,
    castling: [bool; 2],
}

impl Irreversible {
    fn of(own: &OwnBoard) -> Irreversible {
        let board = own.board();
        Irreversible {
            pawns: board.pawns(),
            men: board.occupied().count(),
            castling: [
                own.can_castle(CastlingSide::KingSide),
                own.can_castle(CastlingSide::QueenSide),
            ],
        }
    }
}

/// A hash of the own men (where they stand, castling and en passant rights).
pub(crate) fn own_hash(own: &OwnBoard) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    own.hash(&mut h);
    h.finish()
}

/// The own configurations that may still recur, oldest first (at most [`MAX_CONFIGS`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct OwnConfigs {
    /// The hashes, oldest first.
    hashes: VecDeque<u64>,
    /// What the latest configuration cannot undo (`None` before the first).
    since: Option<Irreversible>,
}

impl OwnConfigs {
    /// The own men stand in `own` now: keep it, forgetting what it can never return to.
    pub(crate) fn push(&mut self, own: &OwnBoard) {
        let now = Irreversible::of(own);
        if self.since != Some(now) {
            self.hashes.clear();
            self.since = Some(now);
        }
        if self.hashes.len() == MAX_CONFIGS {
            self.hashes.pop_front();
        }
        self.hashes.push_back(own_hash(own));
    }

    /// How many times the configuration hashed `hash` was stood in (of those kept).
    pub(crate) fn count(&self, hash: u64) -> usize {
        self.hashes.iter().filter(|&&s| s == hash).count()
    }

    /// How many configurations are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.hashes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::Attempt;
    use umpire_rules::shakmaty::{Color, Square};
    use umpire_testkit::pos;

    fn own(fen: &str) -> OwnBoard {
        OwnBoard::of(&pos(fen), Color::White)
    }

    #[test]
    fn a_pawn_move_a_loss_or_a_lost_right_forgets_what_cannot_recur() {
        let mut configs = OwnConfigs::default();
        let mut board = own("4k3/8/8/8/8/8/4P3/RN2K2R w KQ - 0 1");
        let start = own_hash(&board);
        configs.push(&board);
        configs.push(&board);
        assert_eq!(configs.count(start), 2);
        // A knight's move and back keeps every configuration (a repetition may follow).
        board.play(Attempt::from_uci("b1c3").unwrap());
        configs.push(&board);
        board.play(Attempt::from_uci("c3b1").unwrap());
        configs.push(&board);
        assert_eq!((configs.len(), configs.count(start)), (4, 3));
        // Giving up a castling right: the configurations with it cannot recur.
        board.play(Attempt::from_uci("a1a2").unwrap());
        assert!(!board.can_castle(CastlingSide::QueenSide));
        configs.push(&board);
        assert_eq!((configs.len(), configs.count(start)), (1, 0));
        // A pawn move: forgotten again.
        board.play(Attempt::from_uci("e2e4").unwrap());
        configs.push(&board);
        assert_eq!(configs.len(), 1);
        // A man lost (neither a pawn nor a rook: only the count of men changes).
        configs.push(&board);
        assert_eq!(configs.len(), 2);
        board.lose_man(Square::B1);
        configs.push(&board);
        assert_eq!(configs.len(), 1);
        assert_eq!(configs.count(own_hash(&board)), 1);
    }

    #[test]
    fn at_most_max_configs_are_kept() {
        let mut configs = OwnConfigs::default();
        let home = own("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut away = home.clone();
        away.play(Attempt::from_uci("a1a2").unwrap());
        configs.push(&home);
        for _ in 0..MAX_CONFIGS {
            configs.push(&away);
        }
        assert_eq!(configs.len(), MAX_CONFIGS);
        // The first configuration was the oldest: forgotten.
        assert_eq!(configs.count(own_hash(&home)), 0);
        assert_eq!(configs.count(own_hash(&away)), MAX_CONFIGS);
    }
}
