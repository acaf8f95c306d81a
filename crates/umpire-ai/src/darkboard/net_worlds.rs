//! [`KingWorlds`]: the squares where the enemy king may stand, kept for the mating method
//! ([`super::net`]) alongside the metaposition.
//!
//! The metaposition spreads the king by one step after every enemy move, also onto squares
//! our men attack, and so lets it pass through a rook's line in two moves. A king never
//! stands in check when we are to move, so this set drops the squares our men attack after
//! each enemy move; the worlds of a decision are its squares that the metaposition (which
//! heard the checks and our rejected attempts) also allows.

use umpire_belief::Metaposition;
use umpire_rules::OwnBoard;
use umpire_rules::shakmaty::Bitboard;

use super::net::{attacked_by, king_spread};

/// The squares where the enemy king may stand, while the mating method is in charge.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KingWorlds {
    /// `None`: not kept (the metaposition alone decides).
    set: Option<Bitboard>,
}

/// The squares our men attack on `own` (the enemy king transparent, enemy men ignored).
fn attacked(own: &OwnBoard) -> Bitboard {
    let board = own.board();
    attacked_by(board, own.side(), board.by_color(own.side())).0
}

impl KingWorlds {
    /// Stops keeping the set.
    pub(crate) fn forget(&mut self) {
        self.set = None;
    }

    /// The enemy moved (we hold `own` now; `others`: it has men besides the king, one of
    /// which may have moved instead): the king stepped to a square we do not attack and that
    /// none of our men stands on (a capture empties its square), or stayed.
    pub(crate) fn opponent_moved(&mut self, own: &OwnBoard, others: bool) {
        let Some(set) = self.set else { return };
        let free = !attacked(own) & !own.board().by_color(own.side());
        let mut next = king_spread(set) & free;
        if others {
            next |= set & free;
        }
        self.set = Some(next);
    }

    /// The worlds of a decision in `meta`: the kept squares the metaposition allows and our
    /// men do not attack; where none is left (or nothing is kept yet), the metaposition's
    /// squares we do not attack (all of them if we attack every one). The set is kept from
    /// here on.
    pub(crate) fn worlds(&mut self, meta: &Metaposition) -> Bitboard {
        let possible = match meta.possible(5) & !attacked(meta.own()) {
            p if p.any() => p,
            _ => meta.possible(5),
        };
        let set = match self.set {
            Some(s) if (s & possible).any() => s & possible,
            _ => possible,
        };
        self.set = Some(set);
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Square};

    fn own(fen: &str) -> OwnBoard {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        OwnBoard::of(&pos, Color::White)
    }

    fn squares(list: &[Square]) -> Bitboard {
        list.iter()
            .fold(Bitboard::EMPTY, |b, &s| b | Bitboard::from_square(s))
    }

    #[test]
    fn the_king_steps_only_to_squares_we_do_not_attack() {
        // Our rook on a4 holds the fourth rank; the king was on e5.
        let board = own("8/8/8/4k3/R7/8/8/4K3 w - - 0 1");
        let mut worlds = KingWorlds {
            set: Some(Bitboard::from_square(Square::E5)),
        };
        worlds.opponent_moved(&board, false);
        use Square::*;
        assert_eq!(worlds.set, Some(squares(&[D5, F5, D6, E6, F6])));
        // With another enemy man to move instead, the king may also have stayed.
        let mut worlds = KingWorlds {
            set: Some(Bitboard::from_square(E5)),
        };
        worlds.opponent_moved(&board, true);
        assert_eq!(worlds.set, Some(squares(&[D5, E5, F5, D6, E6, F6])));
    }

    #[test]
    fn nothing_is_kept_until_a_decision() {
        let board = own("8/8/8/4k3/R7/8/8/4K3 w - - 0 1");
        let mut worlds = KingWorlds::default();
        worlds.opponent_moved(&board, false);
        assert_eq!(worlds.set, None);
        worlds.forget();
        assert_eq!(worlds.set, None);
    }
}
