//! The constraints that tighten a [`Metaposition`] (seed 001): pawns never on the first or
//! last rank, the enemy's material counts, one enemy king never adjacent to ours nor left in
//! check on our turn, the checks announced and the pawn captures the umpire says we have.
//! Each removes a pseudopiece only where the true position cannot have it.

use shakmaty::{Bitboard, Color, Piece, Rank, Role, Square, attacks};
use umpire_rules::{Announcement, CheckKind, PawnCaptureInfo};

use crate::metaposition::{E, K, Metaposition, P};

/// Indices of the knight, bishop, rook, queen.
const N: usize = 1;
const B: usize = 2;
const R: usize = 3;
const Q: usize = 4;

impl Metaposition {
    /// Makes a square certainly free of enemy men.
    pub(crate) fn clear_square(&mut self, sq: Square) {
        for k in self.kinds.iter_mut().take(E) {
            k.discard(sq);
        }
        self.kinds[E].add(sq);
    }

    /// Squares our man on `from` attacks through paths certainly free of any man (`sure`) or
    /// through paths perhaps free (`!sure`).
    fn own_attacks(&self, from: Square, role: Role, occupied: Bitboard) -> Bitboard {
        attacks::attacks(
            from,
            Piece {
                color: !self.enemy,
                role,
            },
            occupied,
        )
    }

    /// On the enemy's turn after its legal move, or after our move without check: the enemy
    /// king stands on no square our men certainly attack (our king's neighbours included).
    pub(crate) fn enemy_king_safe(&mut self) {
        let occ = self.own.board().occupied() | self.maybe_enemy();
        let mut attacked = Bitboard::EMPTY;
        for (sq, piece) in self.own.board().clone() {
            attacked |= self.own_attacks(sq, piece.role, occ);
        }
        self.kinds[K] &= !attacked;
    }

    /// After our move announced with these checks: the enemy king is on a square one of our men
    /// may give such a check from, and on none we certainly attack with another kind of check.
    pub(crate) fn enemy_king_checked(&mut self, kinds: &[CheckKind]) {
        let possible_occ = self.own.board().occupied() | self.surely_enemy();
        let sure_occ = self.own.board().occupied() | self.maybe_enemy();
        let mut candidates = Bitboard::EMPTY;
        let mut excluded = Bitboard::EMPTY;
        for (m, piece) in self.own.board().clone() {
            for s in self.own_attacks(m, piece.role, possible_occ) {
                if kinds.contains(&CheckKind::classify(m, s)) {
                    candidates.add(s);
                }
            }
            for s in self.own_attacks(m, piece.role, sure_occ) {
                if !kinds.contains(&CheckKind::classify(m, s)) {
                    excluded.add(s);
                }
            }
        }
        self.kinds[K] &= candidates & !excluded;
    }

    /// Whether our man on `sq` may be pinned to our king (on a line with it, no own man
    /// between).
    pub(crate) fn pinnable(&self, sq: Square) -> bool {
        let Some(king) = self.own.board().king_of(!self.enemy) else {
            return true;
        };
        attacks::ray(king, sq).any()
            && (attacks::between(king, sq) & self.own.board().occupied()).is_empty()
    }

    /// Our king is attacked only by checks of the kinds announced this turn: every enemy man
    /// that would certainly give another check is removed; a lone announced check with a single
    /// possible origin puts a checker there with free squares between.
    pub(crate) fn own_king_constraint(&mut self) {
        let us = !self.enemy;
        let Some(king) = self.own.board().king_of(us) else {
            return;
        };
        let checks: [Option<CheckKind>; 2] = self.checks;
        let allowed = |s: Square| checks.contains(&Some(CheckKind::classify(s, king)));
        let sure_occ = self.own.board().occupied() | self.maybe_enemy();
        self.kinds[K] &= !attacks::king_attacks(king);
        let groups: [(usize, Bitboard); 5] = [
            (N, attacks::knight_attacks(king)),
            (P, attacks::pawn_attacks(us, king)),
            (B, attacks::bishop_attacks(king, sure_occ)),
            (Q, attacks::queen_attacks(king, sure_occ)),
            (R, attacks::rook_attacks(king, sure_occ)),
        ];
        for (t, reach) in groups {
            for s in reach & self.kinds[t] {
                if !allowed(s) {
                    self.kinds[t].discard(s);
                }
            }
        }
        // A single check whose checker has one possible square.
        let (Some(kind), None) = (checks[0], checks[1]) else {
            return;
        };
        let possible_occ = self.own.board().occupied() | self.surely_enemy();
        let line = CheckKind::line(kind, king);
        let types: &[usize] = match kind {
            CheckKind::Knight => &[N],
            CheckKind::Rank | CheckKind::File => &[R, Q],
            CheckKind::LongDiagonal | CheckKind::ShortDiagonal => &[B, Q, P],
        };
        let reach = match kind {
            CheckKind::Knight => attacks::knight_attacks(king),
            CheckKind::Rank | CheckKind::File => attacks::rook_attacks(king, possible_occ),
            _ => attacks::bishop_attacks(king, possible_occ),
        } & line;
        let pawn_reach = attacks::pawn_attacks(us, king);
        let mut cand = Bitboard::EMPTY;
        for &t in types {
            let r = if t == P { reach & pawn_reach } else { reach };
            cand |= r & self.kinds[t];
        }
        if let Some(s) = cand.single_square() {
            let mut bits = 0u8;
            for &t in types {
                if self.kinds[t].contains(s) && (t != P || pawn_reach.contains(s)) {
                    bits |= 1 << t;
                }
            }
            self.set_bits(s, bits);
            for b in attacks::between(s, king) {
                self.clear_square(b);
            }
        }
    }

    /// Our pawns (not in `except`, not pinnable) have no legal capture and we are not in check:
    /// nothing of the enemy's stands where they capture.
    pub(crate) fn no_pawn_captures(&mut self, except: Bitboard) {
        if self.checks[0].is_some() {
            return;
        }
        let us = !self.enemy;
        for p in self.own.board().by_piece(Role::Pawn.of(us)) & !except {
            if self.pinnable(p) {
                continue;
            }
            for t in attacks::pawn_attacks(us, p) & !self.own.board().occupied() {
                self.clear_square(t);
            }
        }
    }

    /// What our turn starts with: the announced checks and pawn-capture information.
    pub(crate) fn turn_start(&mut self, heard: &[Announcement]) {
        self.own_king_constraint();
        let us = !self.enemy;
        // When the game ends, the umpire says nothing of pawn captures: silence tells nothing.
        let over = heard.iter().any(|a| matches!(a, Announcement::GameOver(_)));
        let info = if over {
            PawnCaptureInfo::None
        } else {
            self.rules.pawn_captures
        };
        match info {
            PawnCaptureInfo::Count => {
                match heard.iter().find_map(|a| match *a {
                    Announcement::PawnTries(n) => Some(n),
                    _ => None,
                }) {
                    Some(n) => self.pawn_captures_exist(n),
                    None => self.no_pawn_captures(Bitboard::EMPTY),
                }
            }
            PawnCaptureInfo::YesNo => {
                if heard.contains(&Announcement::PawnCaptures) {
                    self.pawn_captures_exist(1);
                } else {
                    self.no_pawn_captures(Bitboard::EMPTY);
                }
            }
            PawnCaptureInfo::TrySquares => {
                let squares = heard
                    .iter()
                    .find_map(|a| match *a {
                        Announcement::PawnTrySquares(s) => Some(s),
                        _ => None,
                    })
                    .unwrap_or(Bitboard::EMPTY);
                self.no_pawn_captures(squares);
                if self.checks[0].is_none() {
                    let ep_rank = us.fold_wb(Rank::Sixth, Rank::Third);
                    for p in squares & self.own.board().pawns() {
                        if self.pinnable(p) {
                            continue;
                        }
                        let targets = attacks::pawn_attacks(us, p)
                            & !self.own.board().occupied()
                            & self.maybe_enemy();
                        if let Some(t) = targets.single_square()
                            && t.rank() != ep_rank
                        {
                            self.kinds[E].discard(t);
                        }
                    }
                }
            }
            PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => {}
        }
        self.tighten();
    }

    /// The constraints that always hold: own squares hold no enemy man, no pawn on the first or
    /// last rank, the material counts, one king, castling only with king and rook at home.
    pub(crate) fn tighten(&mut self) {
        let own = self.own.board().occupied();
        for k in self.kinds.iter_mut().take(E) {
            *k &= !own;
        }
        self.kinds[E] |= own;
        self.kinds[P] &= !Bitboard::BACKRANKS;
        if self.pawns.1 == 0 {
            self.kinds[P] = Bitboard::EMPTY;
        }
        self.pawns.1 = self.pawns.1.min(self.men.1.saturating_sub(1));
        if self.men.1.saturating_sub(1).saturating_sub(self.pawns.0) == 0 {
            for t in [N, B, R, Q] {
                self.kinds[t] = Bitboard::EMPTY;
            }
        }
        for _ in 0..2 {
            if let Some(k) = self.kinds[K].single_square() {
                self.set_bits(k, 1 << K);
            }
            let maybe = self.maybe_enemy();
            let sure = maybe & !self.kinds[E];
            if sure.count() >= usize::from(self.men.1) {
                for k in self.kinds.iter_mut().take(E) {
                    *k &= sure;
                }
                self.kinds[E] |= !sure;
            }
            let maybe = self.maybe_enemy();
            if maybe.count() <= usize::from(self.men.0) {
                self.kinds[E] &= !maybe;
            }
        }
        let home = self.enemy.fold_wb(Rank::First, Rank::Eighth);
        let king_home = Square::from_coords(shakmaty::File::E, home);
        let at_home = self.kinds[K].contains(king_home);
        self.castling.0 &=
            at_home && self.kinds[R].contains(Square::from_coords(shakmaty::File::H, home));
        self.castling.1 &=
            at_home && self.kinds[R].contains(Square::from_coords(shakmaty::File::A, home));
        for sq in Square::ALL {
            if self.bits(sq).count_ones() == 1 {
                self.age[usize::from(sq)] = 0;
            }
        }
    }

    /// Our colour.
    pub(crate) fn us(&self) -> Color {
        !self.enemy
    }
}
