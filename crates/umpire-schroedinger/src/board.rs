//! Where every man stands: the part of a Schrödinger position that everyone knows.

use shakmaty::{Bitboard, Color, Rank, Square};

use crate::man::{Kind, ManId};
use crate::mv::Move;

/// The known part of a position: which man stands on which square, which pawns have
/// promoted, the side to move, the ply count and the plies since the last capture or pawn
/// move. The natures of the back-rank and promoted men are not here: they are the unknowns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    squares: [Option<ManId>; 64],
    places: [[Option<Square>; 16]; 2],
    occupied: [Bitboard; 2],
    promoted: [u8; 2],
    turn: Color,
    plies: u32,
    quiet_plies: u32,
}

/// What playing a move did to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The man that moved.
    pub man: ManId,
    /// The man it captured, if any.
    pub captured: Option<ManId>,
    /// Whether the move was a pawn reaching the last rank (it is now a promoted man).
    pub promotion: bool,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// The start position: every man on its starting square, White to move.
    pub fn new() -> Board {
        let mut board = Board {
            squares: [None; 64],
            places: [[None; 16]; 2],
            occupied: [Bitboard::EMPTY; 2],
            promoted: [0; 2],
            turn: Color::White,
            plies: 0,
            quiet_plies: 0,
        };
        for man in ManId::all() {
            board.put(man, man.start());
        }
        board
    }

    fn put(&mut self, man: ManId, sq: Square) {
        self.squares[sq as usize] = Some(man);
        self.places[man.color() as usize][man.index()] = Some(sq);
        self.occupied[man.color() as usize].add(sq);
    }

    fn lift(&mut self, sq: Square) -> Option<ManId> {
        let man = self.squares[sq as usize].take()?;
        self.places[man.color() as usize][man.index()] = None;
        self.occupied[man.color() as usize].discard(sq);
        Some(man)
    }

    /// The man on `sq`.
    pub fn man_at(&self, sq: Square) -> Option<ManId> {
        self.squares[sq as usize]
    }

    /// Where `man` stands, or `None` once captured.
    pub fn square_of(&self, man: ManId) -> Option<Square> {
        self.places[man.color() as usize][man.index()]
    }

    /// What kind of man `man` is now.
    pub fn kind(&self, man: ManId) -> Kind {
        if man.is_back_rank() {
            Kind::BackRank
        } else if self.promoted[man.color() as usize] & (1 << (man.index() - 8)) != 0 {
            Kind::Promoted
        } else {
            Kind::Pawn
        }
    }

    /// The squares `color`'s men stand on.
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        self.occupied[color as usize]
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Plies since the last capture or pawn move (for the fifty-move rule).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The men of `color` still on the board, with their squares.
    pub fn men(&self, color: Color) -> impl Iterator<Item = (ManId, Square)> + '_ {
        self.places[color as usize]
            .iter()
            .enumerate()
            .filter_map(move |(i, sq)| {
                let man = ManId::new(color, i as u8)?;
                sq.map(|s| (man, s))
            })
    }

    /// Plays `mv` for the side to move, without any legality check beyond the mover being the
    /// side to move's man (the umpire checks legality first). Returns `None`, changing
    /// nothing, when `from` holds no man of the side to move or `to` holds one of its own.
    pub fn play(&mut self, mv: Move) -> Option<Played> {
        let man = self.man_at(mv.from).filter(|m| m.color() == self.turn)?;
        if self.occupied[self.turn as usize].contains(mv.to) {
            return None;
        }
        let was_pawn = self.kind(man) == Kind::Pawn;
        let captured = self.lift(mv.to);
        self.lift(mv.from);
        self.put(man, mv.to);
        let last_rank = self.turn.fold_wb(Rank::Eighth, Rank::First);
        let promotion = was_pawn && mv.to.rank() == last_rank;
        if promotion {
            self.promoted[man.color() as usize] |= 1 << (man.index() - 8);
        }
        self.quiet_plies = if was_pawn || captured.is_some() {
            0
        } else {
            self.quiet_plies + 1
        };
        self.plies += 1;
        self.turn = !self.turn;
        Some(Played {
            man,
            captured,
            promotion,
        })
    }
}
