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
