//! [`Split`]: how one White attempt divides the set of possible black-king squares by the
//! umpire's answer, and where the black king can go afterwards. Everything is bit operations on
//! whole sets.

use shakmaty::{Bitboard, Role, Square, attacks};
use umpire_rules::{Attempt, CheckKind};

use crate::bits::king_spread;
use crate::checks::kind_squares;
use crate::{Answer, Layout};

/// The most answer classes of a legal move that does not end the game: silent, and each way
/// of checking (KQK: four kinds; KBNK: two diagonals, knight, and the two double checks).
pub const MAX_CLASSES: usize = 8;

/// One White attempt from one layout, and what it does for every black-king square of the
/// layout's [domain](Layout::domain).
///
/// Every domain square is in exactly one of `illegal`, `stalemate`, `lost` and the
/// [classes](Split::classes) (silent and each check answer). Mated squares are in `mate` *and*
/// in their check class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The attempt.
    pub attempt: Attempt,
    /// White's men after the move, where it is legal.
    pub after: Layout,
    /// Squares where the attempt is illegal: the king would step next to the black king (a
    /// man's move never is: with White to move the black king is on none of the men's lines).
    pub illegal: u64,
    /// Squares where the move mates (a subset of the check classes).
    pub mate: u64,
    /// Squares where the move stalemates (a draw).
    pub stalemate: u64,
    /// Squares from which Black can answer the move by taking an undefended man (a draw).
    pub lost: u64,
    /// Where the black king may stand after its reply: the domain of `after`.
    pub after_domain: u64,
    /// The answer classes of the good squares (legal, no stalemate, no loss): `(answer,
    /// squares)`, non-empty, in the order of [`Answer`]; `n_classes` are used.
    classes: [(Answer, u64); MAX_CLASSES],
    n_classes: u8,
}

/// Up to six `(check kind or none, squares)` parts of the good squares for one man.
#[derive(Clone, Copy)]
struct Parts {
    parts: [(Option<CheckKind>, u64); 6],
    len: usize,
}

impl Parts {
    /// No check from this man anywhere (a layout with one man has no second).
    const NONE: Parts = Parts {
        parts: [(None, !0); 6],
        len: 1,
    };

    /// The check kinds a man of `role` on `sq` gives, as `(kind, squares)` pairs restricted
    /// to `checked` (the squares it attacks among those considered), and `(None, the rest)`.
    fn of(role: Role, sq: Square, checked: u64) -> Parts {
        let mut p = Parts {
            parts: [(None, 0); 6],
            len: 1,
        };
        p.parts[0] = (None, !checked);
        if role == Role::Knight {
            p.parts[1] = (Some(CheckKind::Knight), checked);
            p.len = 2;
            return p;
        }
        for kind in CheckKind::ALL {
            let part = checked & kind_squares(kind, sq);
            if part != 0 {
                p.parts[p.len] = (Some(kind), part);
                p.len += 1;
            }
        }
        p
    }

    fn iter(&self) -> impl Iterator<Item = (Option<CheckKind>, u64)> + '_ {
        self.parts[..self.len].iter().copied()
    }
}

impl Split {
    /// Splits the domain of `layout` by `attempt`, which must be one of [`Layout::attempts`].
    pub fn new(layout: &Layout, attempt: Attempt) -> Split {
        let domain = layout.domain();
        let illegal = if attempt.from == layout.king {
            attacks::king_attacks(attempt.to).0
        } else {
            attacks::between(attempt.from, attempt.to).0
        } & domain;
        let after = layout.after(attempt);
        let legal = domain & !illegal;
        let after_domain = after.domain();
        let lost = legal & king_spread(after.undefended());
        let men = after.men();
        let reach: [u64; 2] = [
            after.reach(0),
            if men.len() > 1 { after.reach(1) } else { 0 },
        ];
        let check = legal & (reach[0] | reach[1]);
        // Squares with no square to go to (captures aside: handled by `lost`).
        let stuck = legal & !king_spread(after_domain) & !lost;
        let mate = stuck & check;
        let stalemate = stuck & !check;
        let good = legal & !lost & !stalemate;
        let mut split = Split {
            attempt,
            after,
            illegal,
            mate,
            stalemate,
            lost,
            after_domain,
            classes: [(Answer::Silent, 0); MAX_CLASSES],
            n_classes: 0,
        };
        let first = Parts::of(men[0].0, men[0].1, good & reach[0]);
        let second = match men.get(1) {
            Some(&(role, sq)) => Parts::of(role, sq, good & reach[1]),
            None => Parts::NONE,
        };
        for (a, sa) in first.iter() {
            for (b, sb) in second.iter() {
                let part = good & sa & sb;
                if part == 0 {
                    continue;
                }
                let answer = match (a, b) {
                    (None, None) => Answer::Silent,
                    (Some(k), None) | (None, Some(k)) => Answer::Check(k),
                    (Some(x), Some(y)) => Answer::of_checks(&[x, y]),
                };
                split.add(answer, part);
            }
        }
        split.classes[..usize::from(split.n_classes)].sort_unstable();
        split
    }

    fn add(&mut self, answer: Answer, part: u64) {
        let n = usize::from(self.n_classes);
        if let Some(c) = self.classes[..n].iter_mut().find(|c| c.0 == answer) {
            c.1 |= part;
            return;
        }
        // More classes than any ending has would be a bug in the analysis above.
        assert!(n < MAX_CLASSES, "too many answer classes");
        self.classes[n] = (answer, part);
        self.n_classes += 1;
    }

    /// The good squares (legal, no stalemate, no loss) by answer: `(answer, squares)` pairs,
    /// non-empty and disjoint, in the order of [`Answer`]. Mated squares are in their check
    /// class.
    #[inline]
    pub fn classes(&self) -> &[(Answer, u64)] {
        &self.classes[..usize::from(self.n_classes)]
    }

    /// The squares where the attempt is legal and White cannot fail on this move.
    #[inline]
    pub fn good(&self) -> u64 {
        self.classes().iter().fold(0, |acc, c| acc | c.1)
    }

    /// The answer White hears when the black king stands on `black_king` (a domain square);
    /// `None` where Black can take a man after the move (it does not end the game at once).
    pub fn answer(&self, black_king: Square) -> Option<Answer> {
        let bit = Bitboard::from_square(black_king).0;
        if self.illegal & bit != 0 {
            Some(Answer::Illegal)
        } else if self.mate & bit != 0 {
            Some(Answer::Checkmate)
        } else if self.stalemate & bit != 0 {
            Some(Answer::Stalemate)
        } else {
            self.classes().iter().find(|c| c.1 & bit != 0).map(|c| c.0)
        }
    }

    /// Where the black king may be after its reply, if before it it was somewhere in `class`
    /// (a set of squares that got the same legal answer): every square it can legally reach.
    /// Captures are not included; see [`Split::lost`].
    #[inline]
    pub fn spread(&self, class: u64) -> u64 {
        king_spread(class) & self.after_domain
    }

    /// The good squares whose every reply lands in `target` (a set known to be won): the
    /// largest set of good squares whose [spread](Split::spread) is inside `target`. Mated squares
    /// have no reply and always belong.
    #[inline]
    pub fn allowed(&self, target: u64) -> u64 {
        self.good() & !king_spread(self.after_domain & !target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krk(king: Square, rook: Square) -> Layout {
        Layout::krk(king, rook).unwrap()
    }

    #[test]
    fn king_step_next_to_the_black_king_is_illegal() {
        let l = krk(Square::A1, Square::H2);
        let s = Split::new(&l, Attempt::new(Square::A1, Square::B2));
        assert_eq!(s.answer(Square::C3), Some(Answer::Illegal));
        assert_eq!(s.answer(Square::E5), Some(Answer::Silent));
        // A rook move never is: with White to move the black king is not on the rook's lines.
        for a in l.attempts().into_iter().filter(|a| a.from == Square::H2) {
            assert_eq!(Split::new(&l, a).illegal, 0, "{a}");
        }
        let s = Split::new(&l, Attempt::new(Square::H2, Square::H8));
        assert_eq!(s.answer(Square::A8), Some(Answer::Check(CheckKind::Rank)));
        assert_eq!(s.answer(Square::C8), Some(Answer::Check(CheckKind::Rank)));
        assert_eq!(s.answer(Square::G4), Some(Answer::Silent));
    }

    #[test]
    fn back_rank_mate_and_stalemate() {
        // White Kg6, Rb1: Rb8 mates a black king on h8 and only checks one on e8.
        let l = krk(Square::G6, Square::B1);
        let s = Split::new(&l, Attempt::new(Square::B1, Square::B8));
        assert_eq!(s.answer(Square::H8), Some(Answer::Checkmate));
        assert_eq!(s.answer(Square::E8), Some(Answer::Check(CheckKind::Rank)));
        // Kh6, Ra1, Rg1 with the black king on h8: no check, no move: stalemate.
        let l = krk(Square::H6, Square::A1);
        let s = Split::new(&l, Attempt::new(Square::A1, Square::G1));
        assert_eq!(s.answer(Square::H8), Some(Answer::Stalemate));
        assert_eq!(s.allowed(!0) & s.stalemate, 0);
    }

    #[test]
    fn undefended_rook_next_to_the_king_is_lost() {
        let l = krk(Square::A1, Square::H1);
        let s = Split::new(&l, Attempt::new(Square::H1, Square::D4));
        assert_ne!(s.lost & Bitboard::from_square(Square::E5).0, 0);
        assert_eq!(s.answer(Square::E5), None);
        assert_eq!(s.allowed(!0) & s.lost, 0);
    }

    #[test]
    fn queen_checks_are_told_by_line() {
        // Kc1, Qb4-b1. A black king on a2 is checked along a2-b1, the shorter of a2's two
        // diagonals; on d3 along b1-h7, the longer of d3's; on a1 it is mated (a2 and b2 are
        // attacked, the queen on b1 is protected by the king).
        let l = Layout::new(Square::C1, &[(Role::Queen, Square::B4)]).unwrap();
        let s = Split::new(&l, Attempt::new(Square::B4, Square::B1));
        assert_eq!(
            s.answer(Square::A2),
            Some(Answer::Check(CheckKind::ShortDiagonal))
        );
        assert_eq!(
            s.answer(Square::D3),
            Some(Answer::Check(CheckKind::LongDiagonal))
        );
        assert_eq!(s.answer(Square::A1), Some(Answer::Checkmate));
        assert_eq!(s.answer(Square::H5), Some(Answer::Silent));
        // Qb4-f8: rank check on h8, file check on f1.
        let s = Split::new(&l, Attempt::new(Square::B4, Square::F8));
        assert_eq!(s.answer(Square::H8), Some(Answer::Check(CheckKind::Rank)));
        assert_eq!(s.answer(Square::F1), Some(Answer::Check(CheckKind::File)));
    }

    #[test]
    fn knight_discovering_the_bishop_gives_a_double_check() {
        // Ka1, Bb2, Nd4, the black king on g7 behind the knight. Ne6 checks g7 and uncovers the
        // bishop's diagonal b2-h8: two checks, heard as two announcements.
        let l = Layout::new(
            Square::A1,
            &[(Role::Bishop, Square::B2), (Role::Knight, Square::D4)],
        )
        .unwrap();
        assert!(Bitboard(l.domain()).contains(Square::G7));
        let s = Split::new(&l, Attempt::new(Square::D4, Square::E6));
        assert_eq!(
            s.answer(Square::G7),
            Some(Answer::DoubleCheck(
                CheckKind::LongDiagonal,
                CheckKind::Knight
            ))
        );
        assert_eq!(s.answer(Square::G5), Some(Answer::Check(CheckKind::Knight)));
        assert_eq!(s.answer(Square::H5), Some(Answer::Silent));
    }
}
