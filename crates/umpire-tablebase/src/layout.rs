//! [`Layout`]: where White's men stand (the king and one or two others), and the black-king
//! squares consistent with it.

use std::cmp::Ordering;
use std::fmt;

use shakmaty::{Bitboard, Role, Square, attacks};
use umpire_rules::Attempt;

use crate::Symmetry;

/// The unused second slot of a one-man layout (never read).
const NO_MAN: (Role, Square) = (Role::Pawn, Square::A1);

/// The White men of a position: the king and one or two others (queen, rook, bishop or
/// knight). Positions in the table are always White to move; Black's turn is the step between
/// two White positions (see [`crate::Split::spread`]).
///
/// The men are kept sorted by (role, square), so two layouts with the same men on the same
/// squares are equal whatever order they were given in (two bishops are interchangeable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The white king's square.
    pub king: Square,
    men: [(Role, Square); 2],
    count: u8,
}

/// A layout that cannot exist or that no table covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// Two white men on one square.
    #[error("two white men cannot both stand on {0}")]
    SameSquare(Square),
    /// Not one or two men besides the king.
    #[error("a layout has the white king and one or two other men, not {0}")]
    Count(usize),
    /// A pawn or a second king.
    #[error("a {0:?} cannot be one of White's men in a table")]
    Role(Role),
}

/// The squares a man of `role` on `sq` attacks, the squares of `occupied` blocking.
#[inline]
pub(crate) fn man_attacks(role: Role, sq: Square, occupied: u64) -> u64 {
    let occ = Bitboard(occupied);
    match role {
        Role::Queen => attacks::queen_attacks(sq, occ).0,
        Role::Rook => attacks::rook_attacks(sq, occ).0,
        Role::Bishop => attacks::bishop_attacks(sq, occ).0,
        Role::Knight => attacks::knight_attacks(sq).0,
        Role::King => attacks::king_attacks(sq).0,
        Role::Pawn => 0,
    }
}

impl Layout {
    /// A layout of the white king and `men` (one or two `(role, square)` pairs, any order).
    pub fn new(king: Square, men: &[(Role, Square)]) -> Result<Layout, LayoutError> {
        if men.is_empty() || men.len() > 2 {
            return Err(LayoutError::Count(men.len()));
        }
        let mut seen = Bitboard::from_square(king);
        let mut slots = [NO_MAN; 2];
        for (i, &(role, sq)) in men.iter().enumerate() {
            if matches!(role, Role::Pawn | Role::King) {
                return Err(LayoutError::Role(role));
            }
            if seen.contains(sq) {
                return Err(LayoutError::SameSquare(sq));
            }
            seen = seen.with(sq);
            slots[i] = (role, sq);
        }
        Ok(Layout {
            king,
            men: slots,
            count: men.len() as u8,
        }
        .normalised())
    }

    /// A KRK layout (a shorthand for [`Layout::new`]).
    pub fn krk(king: Square, rook: Square) -> Result<Layout, LayoutError> {
        Layout::new(king, &[(Role::Rook, rook)])
    }

    fn normalised(mut self) -> Layout {
        if self.count == 2 && self.men[1] < self.men[0] {
            self.men.swap(0, 1);
        }
        self
    }

    /// The men besides the king, sorted by (role, square).
    #[inline]
    pub fn men(&self) -> &[(Role, Square)] {
        &self.men[..usize::from(self.count)]
    }

    /// The roles of the men besides the king, in the order of [`Layout::men`].
    pub fn roles(&self) -> Vec<Role> {
        self.men().iter().map(|&(r, _)| r).collect()
    }

    /// Every square holding a white man, the king included.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.men()
            .iter()
            .fold(Bitboard::from_square(self.king).0, |acc, &(_, sq)| {
                acc | Bitboard::from_square(sq).0
            })
    }

    /// The squares man number `i` attacks, the other white men blocking and the black king
    /// (wherever it is) not: a black king on a line is attacked, and so is the square behind it.
    #[inline]
    pub fn reach(&self, i: usize) -> u64 {
        let (role, sq) = self.men[i];
        man_attacks(role, sq, self.occupied())
    }

    /// Every square attacked by a white man (king included), as in [`Layout::reach`].
    #[inline]
    pub fn attacked(&self) -> u64 {
        let occ = self.occupied();
        self.men()
            .iter()
            .fold(attacks::king_attacks(self.king).0, |acc, &(role, sq)| {
                acc | man_attacks(role, sq, occ)
            })
    }

    /// Whether man number `i` is protected: another white man (the king included) attacks its
    /// square, so the black king cannot take it.
    #[inline]
    pub fn defended(&self, i: usize) -> bool {
        let target = Bitboard::from_square(self.men[i].1).0;
        if attacks::king_attacks(self.king).0 & target != 0 {
            return true;
        }
        let occ = self.occupied();
        self.men()
            .iter()
            .enumerate()
            .any(|(j, &(role, sq))| j != i && man_attacks(role, sq, occ) & target != 0)
    }

    /// The squares of the men the black king may take: not protected.
    #[inline]
    pub fn undefended(&self) -> u64 {
        (0..self.men().len())
            .filter(|&i| !self.defended(i))
            .fold(0, |acc, i| acc | Bitboard::from_square(self.men[i].1).0)
    }

    /// The squares the black king may stand on with White to move: not on a white man, not
    /// next to the white king, not attacked by a man (Black cannot be in check with White to
    /// move). Also the squares the black king may move to, without capturing, on its turn.
    #[inline]
    pub fn domain(&self) -> u64 {
        !(self.occupied() | self.attacked())
    }

    /// Every attempt White can make on its own board: king steps and moves of the men, not onto
    /// a white man (sliders stop before one). Whether one is legal depends on where the black
    /// king is.
    pub fn attempts(&self) -> Vec<Attempt> {
        let occ = self.occupied();
        let mut out: Vec<Attempt> = Bitboard(attacks::king_attacks(self.king).0 & !occ)
            .into_iter()
            .map(|to| Attempt::new(self.king, to))
            .collect();
        for i in 0..self.men().len() {
            let from = self.men[i].1;
            for to in Bitboard(self.reach(i) & !occ) {
                out.push(Attempt::new(from, to));
            }
        }
        out
    }

    /// The layout after a legal attempt (a move of the king or of a man).
    pub fn after(&self, attempt: Attempt) -> Layout {
        let mut next = *self;
        if attempt.from == self.king {
            next.king = attempt.to;
        } else {
            for m in next.men.iter_mut().take(usize::from(self.count)) {
                if m.1 == attempt.from {
                    m.1 = attempt.to;
                }
            }
        }
        next.normalised()
    }

    /// The image of this layout under a symmetry.
    pub fn transformed(&self, s: Symmetry) -> Layout {
        let mut next = *self;
        next.king = s.square(self.king);
        for m in next.men.iter_mut().take(usize::from(self.count)) {
            m.1 = s.square(m.1);
        }
        next.normalised()
    }

    /// A number for this layout among those with the same roles, below 64³: king, then the
    /// men's squares, in base 64. Ordering layouts by key orders them by (king, men).
    #[inline]
    pub fn key(&self) -> usize {
        let men = self.men();
        let first = usize::from(men[0].1);
        let second = men.get(1).map_or(0, |&(_, sq)| usize::from(sq));
        (usize::from(self.king) * 64 + first) * 64 + second
    }

    /// The representative of this layout's symmetry class (the image with the smallest
    /// [key](Layout::key)) and the symmetry that maps this layout onto it.
    pub fn canonical(&self) -> (Layout, Symmetry) {
        let mut best = (*self, Symmetry::Identity);
        for s in Symmetry::ALL {
            let image = self.transformed(s);
            if image.key() < best.0.key() {
                best = (image, s);
            }
        }
        best
    }

    /// The white man (king included) on `sq`, if any.
    pub fn man_on(&self, sq: Square) -> Option<Role> {
        if sq == self.king {
            return Some(Role::King);
        }
        self.men().iter().find(|&&(_, s)| s == sq).map(|&(r, _)| r)
    }

    /// A FEN of this layout with the black king on `black_king`, White to move.
    pub fn fen(&self, black_king: Square) -> String {
        let mut fen = String::with_capacity(40);
        for rank in (0..8u32).rev() {
            let mut empty = 0;
            for file in 0..8u32 {
                let sq = Square::new(rank * 8 + file);
                let piece = match self.man_on(sq) {
                    Some(role) => Some(role.upper_char()),
                    None if sq == black_king => Some('k'),
                    None => None,
                };
                match piece {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        fen
    }
}

impl PartialOrd for Layout {
    fn partial_cmp(&self, other: &Layout) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Layout {
    /// By roles, then by [key](Layout::key).
    fn cmp(&self, other: &Layout) -> Ordering {
        (self.count, self.men[0].0, self.men[1].0, self.key()).cmp(&(
            other.count,
            other.men[0].0,
            other.men[1].0,
            other.key(),
        ))
    }
}

impl fmt::Display for Layout {
    /// `Ka1 Rb2`, `Ke1 Nb1 Bc1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "K{}", self.king)?;
        for &(role, sq) in self.men() {
            write!(f, " {}{sq}", role.upper_char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_excludes_king_zone_rook_and_its_lines() {
        let l = Layout::krk(Square::G6, Square::A1).unwrap();
        let d = Bitboard(l.domain());
        assert!(d.contains(Square::H8));
        assert!(!d.contains(Square::H7)); // next to the king
        assert!(!d.contains(Square::A8)); // on the rook's file
        assert!(!d.contains(Square::H1)); // on the rook's rank
        assert!(!d.contains(Square::A1));
        // Behind the king on the rook's line: the king blocks the rook.
        let l = Layout::krk(Square::C1, Square::A1).unwrap();
        assert!(Bitboard(l.domain()).contains(Square::H1));
    }

    #[test]
    fn canonical_is_a_class_invariant() {
        let l = Layout::krk(Square::G6, Square::B2).unwrap();
        let (c, s) = l.canonical();
        assert_eq!(l.transformed(s), c);
        for t in Symmetry::ALL {
            assert_eq!(l.transformed(t).canonical().0, c);
        }
        assert!(Layout::krk(Square::E4, Square::E4).is_err());
        assert_eq!(l.fen(Square::H8), "7k/8/6K1/8/8/8/1R6/8 w - - 0 1");
    }

    #[test]
    fn two_men_block_and_protect_each_other() {
        // Ke1, Bc1, Nd2: the knight blocks the bishop's diagonal and is protected by the king;
        // the bishop is not (the king on e1 and the knight on d2 do not attack c1).
        let l = Layout::new(
            Square::E1,
            &[(Role::Knight, Square::D2), (Role::Bishop, Square::C1)],
        )
        .unwrap();
        assert_eq!(l.men()[0], (Role::Knight, Square::D2));
        assert!(Bitboard(l.domain()).contains(Square::H6)); // behind the knight
        assert!(!Bitboard(l.domain()).contains(Square::B2)); // the bishop's other diagonal
        assert!(l.defended(0) && !l.defended(1));
        assert_eq!(l.undefended(), Bitboard::from_square(Square::C1).0);
        let far = Layout::new(
            Square::H8,
            &[(Role::Bishop, Square::A1), (Role::Knight, Square::D4)],
        )
        .unwrap();
        assert_eq!(far.undefended(), Bitboard::from_square(Square::A1).0);
        assert_eq!(far.to_string(), "Kh8 Nd4 Ba1");
        // Two bishops are interchangeable.
        let a = Layout::new(
            Square::E1,
            &[(Role::Bishop, Square::C1), (Role::Bishop, Square::F1)],
        )
        .unwrap();
        let b = Layout::new(
            Square::E1,
            &[(Role::Bishop, Square::F1), (Role::Bishop, Square::C1)],
        )
        .unwrap();
        assert_eq!(a, b);
        assert!(Layout::new(Square::E1, &[(Role::Pawn, Square::E2)]).is_err());
        assert!(Layout::new(Square::E1, &[]).is_err());
    }
}
