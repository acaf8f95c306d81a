//! [`KingWorlds`]: the squares where the enemy king may stand, kept for the mating method
//! ([`super::net`]) alongside the metaposition.
//!
//! The metaposition spreads the king by one step after every enemy move, also onto squares
//! our men attack, and so lets it pass through a rook's line in two moves. A king never
//! stands in check when we are to move, so this set drops the squares our men surely attack
//! after each enemy move; the worlds of a decision are its squares that the metaposition
//! (which heard the checks and our rejected attempts) also allows.
//!
//! "Surely": a line stops counting where an enemy pawn may well block it
//! ([`super::sure_attacks`]).

use umpire_belief::Metaposition;
use umpire_rules::shakmaty::Bitboard;

use super::net::king_spread;
use super::sure_attacks::sure_attacks;

/// The squares where the enemy king may stand, while the mating method is in charge.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KingWorlds {
    /// `None`: not kept (the metaposition alone decides).
    set: Option<Bitboard>,
}

/// The squares our men in `meta` surely attack ([`sure_attacks`]): the enemy king transparent,
/// the squares surely holding an enemy pawn blocking, those where one may stand blocking by
/// chance.
fn surely_attacked(meta: &Metaposition) -> Bitboard {
    let own = meta.own();
    let board = own.board();
    let maybe = meta.possible(0);
    let sure = maybe & meta.surely_enemy();
    let density = if maybe.any() {
        f32::from(meta.pawns().1) / maybe.count() as f32
    } else {
        0.0
    };
    let occupied = board.by_color(own.side()) | sure;
    sure_attacks(board, own.side(), occupied, maybe & !sure, density)
}

impl KingWorlds {
    /// Stops keeping the set.
    pub(crate) fn forget(&mut self) {
        self.set = None;
    }

    /// The enemy moved (`meta` has heard it): the king stepped to a square we do not surely
    /// attack and that none of our men stands on (a capture empties its square), or stayed if
    /// it has other men, one of which may have moved instead.
    pub(crate) fn opponent_moved(&mut self, meta: &Metaposition) {
        self.opponent_moved_past(meta, surely_attacked);
    }

    /// As [`KingWorlds::opponent_moved`], with `attacked` the squares our men in `meta` are
    /// taken to attack (the stalemate guard's rule differs from the net's).
    pub(crate) fn opponent_moved_past(
        &mut self,
        meta: &Metaposition,
        attacked: fn(&Metaposition) -> Bitboard,
    ) {
        let Some(set) = self.set else { return };
        let own = meta.own();
        let free = !attacked(meta) & !own.board().by_color(own.side());
        let mut next = king_spread(set) & free;
        if meta.men().1 > 1 {
            next |= set & free;
        }
        self.set = Some(next);
    }

    /// The worlds of a decision in `meta`: the kept squares the metaposition allows and our
    /// men do not surely attack; where none is left (or nothing is kept yet), the
    /// metaposition's squares we do not surely attack (all of them if we attack every one).
    /// The set is kept from here on.
    pub(crate) fn worlds(&mut self, meta: &Metaposition) -> Bitboard {
        self.worlds_past(meta, surely_attacked)
    }

    /// As [`KingWorlds::worlds`], with `attacked` as in [`KingWorlds::opponent_moved_past`].
    pub(crate) fn worlds_past(
        &mut self,
        meta: &Metaposition,
        attacked: fn(&Metaposition) -> Bitboard,
    ) -> Bitboard {
        let possible = match meta.possible(5) & !attacked(meta) {
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

    /// The squares kept, if any.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> Option<Bitboard> {
        self.set
    }

    /// A set kept from `set` on.
    #[cfg(test)]
    pub(crate) fn from_set(set: Bitboard) -> KingWorlds {
        KingWorlds { set: Some(set) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Square};

    /// The metaposition of White, who knows the position of `fen` exactly.
    fn meta(fen: &str) -> Metaposition {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let config = umpire_belief::BeliefConfig {
            bound: 16,
            particles: None,
            seed: 1,
            threads: 1,
            parallel_from: umpire_belief::PARALLEL_FROM,
            repair_budget: umpire_belief::REPAIR_BUDGET,
        };
        let belief = umpire_belief::Belief::new(RuleSet::WILD16, pos, Color::White, config);
        Metaposition::of(&belief.unwrap()).unwrap()
    }

    fn squares(list: &[Square]) -> Bitboard {
        list.iter()
            .fold(Bitboard::EMPTY, |b, &s| b | Bitboard::from_square(s))
    }

    #[test]
    fn the_king_steps_only_to_squares_we_do_not_attack() {
        use Square::*;
        // Our rook on a4 holds the fourth rank; the king was on e5.
        let mut worlds = KingWorlds {
            set: Some(Bitboard::from_square(E5)),
        };
        worlds.opponent_moved(&meta("8/8/8/4k3/R7/8/8/4K3 w - - 0 1"));
        assert_eq!(worlds.set, Some(squares(&[D5, F5, D6, E6, F6])));
        // With another enemy man to move instead, the king may also have stayed.
        let mut worlds = KingWorlds {
            set: Some(Bitboard::from_square(E5)),
        };
        worlds.opponent_moved(&meta("8/7p/8/4k3/R7/8/8/4K3 w - - 0 1"));
        assert_eq!(worlds.set, Some(squares(&[D5, E5, F5, D6, E6, F6])));
    }

    #[test]
    fn an_enemy_pawn_that_may_block_a_line_keeps_the_squares_behind_it() {
        use Square::*;
        // The rook on a1 does not attack a7 or a8 through the enemy pawn on a3.
        let mut worlds = KingWorlds {
            set: Some(Bitboard::from_square(A8)),
        };
        worlds.opponent_moved(&meta("k7/8/8/8/8/p7/8/R3K3 w - - 0 1"));
        assert_eq!(worlds.set, Some(squares(&[A8, B8, A7, B7])));
    }

    #[test]
    fn nothing_is_kept_until_a_decision() {
        let meta = meta("8/8/8/4k3/R7/8/8/4K3 w - - 0 1");
        let mut worlds = KingWorlds::default();
        worlds.opponent_moved(&meta);
        assert_eq!(worlds.set, None);
        worlds.forget();
        assert_eq!(worlds.set, None);
    }
}
