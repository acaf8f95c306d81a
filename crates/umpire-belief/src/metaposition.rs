//! [`Metaposition`] (seed 001, Darkboard): one board whose squares hold *pseudopieces* — the set
//! of enemy man types that could stand there, empty included — with counters for the enemy's
//! castling rights, the fifty-move clock and the enemy men left.
//!
//! Built here as the tightest metaposition of the belief: the union of the held positions.
//! While the belief is exact it therefore contains the true position, and every constraint
//! Darkboard's pseudo and meta updates apply (pawns never on the first or last rank, bishops on
//! their square colour, men known captured, material counts) holds in it by construction.

use serde::Serialize;
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Position, Square};

use crate::Belief;
use crate::marginals::{MAN_TYPES, role_index};

/// Bit of the empty pseudopiece.
pub const EMPTY: u8 = 1 << 6;

/// A Darkboard metaposition: pseudopieces per square and the counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Metaposition {
    /// The enemy's colour.
    #[serde(skip)]
    pub enemy: Color,
    /// Per square (a1 = 0 … h8 = 63), a bitfield of the enemy man types possible there, in
    /// `MAN_TYPES` order (bit 0 pawn … bit 5 king, bit 6 empty).
    pub squares: Vec<u8>,
    /// Fewest and most enemy men on the board.
    pub men: (u8, u8),
    /// Fewest and most enemy pawns.
    pub pawns: (u8, u8),
    /// Whether the enemy may still castle king side, queen side.
    pub castling: (bool, bool),
    /// Smallest and largest halfmove clock (plies since the last capture or pawn move), where
    /// the fifty-move rule is in force (elsewhere the clock is not kept apart).
    pub halfmoves: Option<(u32, u32)>,
}

fn enemy_men(pos: &Chess, enemy: Color) -> Bitboard {
    pos.board().by_color(enemy)
}

impl Metaposition {
    /// The metaposition of the held positions (`None` if none is held).
    pub fn of(belief: &Belief) -> Option<Metaposition> {
        let enemy = !belief.side();
        let fifty = belief.rules().fifty_moves;
        let mut meta: Option<Metaposition> = None;
        for pos in belief.positions() {
            let theirs = enemy_men(pos, enemy);
            let men = theirs.count() as u8;
            let pawns = (theirs & pos.board().pawns()).count() as u8;
            let castles = pos.castles();
            let castling = (
                castles.has(enemy, CastlingSide::KingSide),
                castles.has(enemy, CastlingSide::QueenSide),
            );
            let clock = pos.halfmoves();
            let m = meta.get_or_insert_with(|| Metaposition {
                enemy,
                squares: vec![0; 64],
                men: (men, men),
                pawns: (pawns, pawns),
                castling: (false, false),
                halfmoves: fifty.then_some((clock, clock)),
            });
            for sq in Square::ALL {
                m.squares[usize::from(sq)] |= pseudo_bit(pos, enemy, sq);
            }
            m.men = (m.men.0.min(men), m.men.1.max(men));
            m.pawns = (m.pawns.0.min(pawns), m.pawns.1.max(pawns));
            m.castling = (m.castling.0 || castling.0, m.castling.1 || castling.1);
            m.halfmoves = m.halfmoves.map(|(lo, hi)| (lo.min(clock), hi.max(clock)));
        }
        meta
    }

    /// Whether `pos` fits the metaposition: every square's enemy man (or emptiness) is among its
    /// pseudopieces, and the counters admit it.
    pub fn admits(&self, pos: &Chess) -> bool {
        let theirs = enemy_men(pos, self.enemy);
        let men = theirs.count() as u8;
        let pawns = (theirs & pos.board().pawns()).count() as u8;
        let castles = pos.castles();
        Square::ALL
            .into_iter()
            .all(|sq| self.squares[usize::from(sq)] & pseudo_bit(pos, self.enemy, sq) != 0)
            && (self.men.0..=self.men.1).contains(&men)
            && (self.pawns.0..=self.pawns.1).contains(&pawns)
            && (self.castling.0 || !castles.has(self.enemy, CastlingSide::KingSide))
            && (self.castling.1 || !castles.has(self.enemy, CastlingSide::QueenSide))
            && self
                .halfmoves
                .is_none_or(|(lo, hi)| (lo..=hi).contains(&pos.halfmoves()))
    }

    /// The pseudopieces of a square as names (`["pawn", "empty"]`).
    pub fn names(&self, sq: Square) -> Vec<&'static str> {
        (0..7)
            .filter(|i| self.squares[usize::from(sq)] & (1 << i) != 0)
            .map(|i| MAN_TYPES[i])
            .collect()
    }
}

/// The pseudopiece bit of what stands on `sq` for the enemy (its man type, or empty).
fn pseudo_bit(pos: &Chess, enemy: Color, sq: Square) -> u8 {
    match pos.board().piece_at(sq) {
        Some(p) if p.color == enemy => 1 << role_index(p.role),
        _ => EMPTY,
    }
}
