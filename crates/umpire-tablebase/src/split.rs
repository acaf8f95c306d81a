//! [`Split`]: how one White attempt divides the set of possible black-king squares by the
//! umpire's answer, and where the black king can go afterwards. Everything is bit operations on
//! whole sets; the only per-square work is classifying the (at most 14) checked squares.

use shakmaty::{Bitboard, Square, attacks};
use umpire_rules::{Attempt, CheckKind};

use crate::bits::king_spread;
use crate::{Answer, Layout};

/// One White attempt from one layout, and what it does for every black-king square of the
/// layout's [domain](Layout::domain).
///
/// Every domain square is in exactly one of `illegal`, `silent`, `rank_check`, `file_check`,
/// `stalemate`, `rook_lost`, except that the three "good" classes `silent`, `rank_check` and
/// `file_check` exclude the two "bad" ones: a square from which Black can capture the rook
/// after the move is in `rook_lost` only, a stalemated square in `stalemate` only. Mated squares
/// are in `mate` *and* in their check class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The attempt.
    pub attempt: Attempt,
    /// White's men after the move, where it is legal.
    pub after: Layout,
    /// Squares where the attempt is illegal: the king would step next to the black king, or
    /// the black king stands between the rook and its destination.
    pub illegal: u64,
    /// Squares where the move is played without check and Black has a move that keeps the rook.
    pub silent: u64,
    /// Squares where the move gives a rank check and Black cannot take the rook.
    pub rank_check: u64,
    /// Squares where the move gives a file check and Black cannot take the rook.
    pub file_check: u64,
    /// Squares where the move mates (a subset of the two check classes).
    pub mate: u64,
    /// Squares where the move stalemates (a draw).
    pub stalemate: u64,
    /// Squares from which Black can answer the move by taking the undefended rook (a draw).
    pub rook_lost: u64,
    /// Where the black king may stand after its reply: the domain of `after`.
    pub after_domain: u64,
}

impl Split {
    /// Splits the domain of `layout` by `attempt`, which must be one of [`Layout::attempts`].
    pub fn new(layout: Layout, attempt: Attempt) -> Split {
        let domain = layout.domain();
        let illegal = if attempt.from == layout.king {
            attacks::king_attacks(attempt.to).0
        } else {
            attacks::between(attempt.from, attempt.to).0
        } & domain;
        let after = layout.after(attempt);
        let legal = domain & !illegal;
        let after_domain = after.domain();
        let check = legal & after.rook_reach();
        let rook = Bitboard::from_square(after.rook).0;
        let rook_defended = attacks::king_attacks(after.king).contains(after.rook);
        let rook_lost = if rook_defended {
            0
        } else {
            legal & attacks::king_attacks(after.rook).0
        };
        // Squares with no safe square to go to (the rook square aside: handled by `rook_lost`).
        let stuck = legal & !king_spread(after_domain) & !rook_lost;
        debug_assert_eq!(after_domain & rook, 0);
        let mate = stuck & check;
        let stalemate = stuck & !check;
        let good = legal & !rook_lost & !stalemate;
        let mut rank_check = 0;
        let mut file_check = 0;
        for sq in Bitboard(check & good) {
            match CheckKind::classify(after.rook, sq) {
                CheckKind::Rank => rank_check |= Bitboard::from_square(sq).0,
                _ => file_check |= Bitboard::from_square(sq).0,
            }
        }
        Split {
            attempt,
            after,
            illegal,
            silent: good & !check,
            rank_check,
            file_check,
            mate,
            stalemate,
            rook_lost,
            after_domain,
        }
    }

    /// The squares where the attempt is legal and White cannot fail on this move.
    #[inline]
    pub fn good(&self) -> u64 {
        self.silent | self.rank_check | self.file_check
    }

    /// The answer White hears when the black king stands on `black_king` (a domain square).
    pub fn answer(&self, black_king: Square) -> Answer {
        let bit = Bitboard::from_square(black_king).0;
        if self.illegal & bit != 0 {
            Answer::Illegal
        } else if self.mate & bit != 0 {
            Answer::Checkmate
        } else if self.stalemate & bit != 0 {
            Answer::Stalemate
        } else if self.after.rook_reach() & bit != 0 {
            Answer::Check(CheckKind::classify(self.after.rook, black_king))
        } else {
            Answer::Silent
        }
    }

    /// Where the black king may be after its reply, if before it it was somewhere in `class`
    /// (a set of squares that got the same legal answer): every square it can legally reach.
    /// Captures of the rook are not included; see [`Split::rook_lost`].
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

    #[test]
    fn king_step_next_to_the_black_king_is_illegal() {
        let l = Layout::new(Square::A1, Square::H2).unwrap();
        let s = Split::new(l, Attempt::new(Square::A1, Square::B2));
        assert_eq!(s.answer(Square::C3), Answer::Illegal);
        assert_eq!(s.answer(Square::E5), Answer::Silent);
        // A rook move never is: with White to move the black king is not on the rook's lines.
        for a in l.attempts().into_iter().filter(|a| a.from == l.rook) {
            assert_eq!(Split::new(l, a).illegal, 0, "{a}");
        }
        let s = Split::new(l, Attempt::new(Square::H2, Square::H8));
        assert_eq!(s.answer(Square::A8), Answer::Check(CheckKind::Rank));
        assert_eq!(s.answer(Square::C8), Answer::Check(CheckKind::Rank));
        assert_eq!(s.answer(Square::G4), Answer::Silent);
    }

    #[test]
    fn back_rank_mate_and_stalemate() {
        // White Kg6, Rb1: Rb8 mates a black king on h8 and only checks one on e8.
        let l = Layout::new(Square::G6, Square::B1).unwrap();
        let s = Split::new(l, Attempt::new(Square::B1, Square::B8));
        assert_eq!(s.answer(Square::H8), Answer::Checkmate);
        assert_eq!(s.answer(Square::E8), Answer::Check(CheckKind::Rank));
        // Kh6, Ra1, Rg1 with the black king on h8: no check, no move: stalemate.
        let l = Layout::new(Square::H6, Square::A1).unwrap();
        let s = Split::new(l, Attempt::new(Square::A1, Square::G1));
        assert_eq!(s.answer(Square::H8), Answer::Stalemate);
        assert_eq!(s.allowed(!0) & s.stalemate, 0);
    }

    #[test]
    fn undefended_rook_next_to_the_king_is_lost() {
        let l = Layout::new(Square::A1, Square::H1).unwrap();
        let s = Split::new(l, Attempt::new(Square::H1, Square::D4));
        assert_ne!(s.rook_lost & Bitboard::from_square(Square::E5).0, 0);
        assert_eq!(s.allowed(!0) & s.rook_lost, 0);
    }
}
