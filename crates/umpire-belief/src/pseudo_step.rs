//! The pseudo step of a [`Metaposition`] (seed 001): the player's own attempt and the umpire's
//! answer. An accepted move proves its path and destination free of enemy men, a capture
//! removes an enemy man of the named kind, a check (or its absence) bounds where the enemy king
//! can be; an illegal attempt proves, where it has a single possible cause, a square occupied.

use shakmaty::{Bitboard, Rank, Role, Square, attacks};
use umpire_rules::{Announcement, Attempt, CheckKind, Man, Verdict};

use crate::metaposition::{E, Metaposition, P};

impl Metaposition {
    /// Applies the player's `attempt`, judged `verdict`, with the announcements `heard`.
    pub(crate) fn apply_attempt(
        &mut self,
        attempt: Attempt,
        verdict: Verdict,
        heard: &[Announcement],
    ) {
        match verdict {
            Verdict::Accepted => self.accepted(attempt, heard),
            Verdict::Illegal => self.illegal(attempt),
            _ => {}
        }
    }

    fn accepted(&mut self, a: Attempt, heard: &[Announcement]) {
        let us = self.us();
        let Some(role) = self.own.board().role_at(a.from) else {
            return;
        };
        let home = us.fold_wb(Rank::First, Rank::Eighth);
        let castle =
            role == Role::King && a.from.distance(a.to) == 2 && a.from.rank() == a.to.rank();
        let mut free = Bitboard::from_square(a.to);
        if castle {
            let file = if a.to.file() > a.from.file() {
                shakmaty::File::H
            } else {
                shakmaty::File::A
            };
            free |= attacks::between(a.from, Square::from_coords(file, home));
        } else if matches!(role, Role::Bishop | Role::Rook | Role::Queen)
            || (role == Role::Pawn && a.from.file() == a.to.file())
        {
            free |= attacks::between(a.from, a.to);
        }
        let mut zeroing = role == Role::Pawn;
        for h in heard {
            if let Announcement::Capture { square, man, .. } = *h {
                zeroing = true;
                let had = self.bits(square);
                let diagonal_pawn = role == Role::Pawn && a.from.file() != a.to.file();
                let pawn = match man {
                    Some(Man::Pawn) => Some(true),
                    Some(Man::Piece) => Some(false),
                    None if diagonal_pawn && square != a.to => Some(true),
                    None if had & !crate::EMPTY == 1 << P => Some(true),
                    None if had & (1 << P) == 0 => Some(false),
                    None => None,
                };
                self.men = (self.men.0.saturating_sub(1), self.men.1.saturating_sub(1));
                self.pawns = match pawn {
                    Some(true) => (
                        self.pawns.0.saturating_sub(1),
                        self.pawns.1.saturating_sub(1),
                    ),
                    Some(false) => self.pawns,
                    None => (self.pawns.0.saturating_sub(1), self.pawns.1),
                };
                free.add(square);
            }
        }
        for sq in free {
            self.clear_square(sq);
        }
        let last = us.fold_wb(Rank::Eighth, Rank::First);
        let played = if role == Role::Pawn && a.to.rank() == last && a.promotion.is_none() {
            Attempt::promoting(a.from, a.to, Role::Queen)
        } else {
            a
        };
        self.own.play(played);
        self.double_step = (role == Role::Pawn && a.from.distance(a.to) == 2).then_some(a.to);
        self.halfmoves = self
            .halfmoves
            .map(|(lo, hi)| if zeroing { (0, 0) } else { (lo + 1, hi + 1) });
        self.checks = [None; 2];
        // Our move was legal: our king is not in check now.
        self.own_king_constraint();
        let mut kinds: arrayvec::ArrayVec<CheckKind, 2> = arrayvec::ArrayVec::new();
        for h in heard {
            if let Announcement::Check(k) = *h {
                let _ = kinds.try_push(k);
            }
        }
        if kinds.is_empty() {
            self.enemy_king_safe();
        } else {
            self.enemy_king_checked(&kinds);
        }
        self.tighten();
    }

    /// An attempt possible on our board was illegal. For our king, see `meta_causes.rs`.
    /// Outside check, for a man that cannot be pinned, the only causes are an enemy man on the
    /// path (or, for a pawn, on its push square, or none on its capture square).
    fn illegal(&mut self, a: Attempt) {
        let Some(role) = self.own.board().role_at(a.from) else {
            return;
        };
        if role == Role::King {
            // Its causes (an attacked target, a blocker) are drawn in `meta_causes.rs`.
            self.rejected_king_attempt(a.from, a.to);
            self.tighten();
            return;
        }
        if self.checks[0].is_some() || self.pinnable(a.from) {
            return;
        }
        let free = self.surely_free();
        match role {
            Role::Pawn if a.from.file() != a.to.file() => self.clear_square(a.to),
            Role::Pawn => {
                let mid = attacks::between(a.from, a.to);
                if mid.is_empty() || mid.is_subset(free) {
                    self.kinds[E].discard(a.to);
                } else if free.contains(a.to) {
                    for m in mid {
                        self.kinds[E].discard(m);
                    }
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let path = attacks::between(a.from, a.to) & !free;
                if let Some(sq) = path.single_square() {
                    self.kinds[E].discard(sq);
                }
            }
            _ => {}
        }
        self.tighten();
    }
}
