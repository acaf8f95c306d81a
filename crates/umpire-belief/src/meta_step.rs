//! The meta step of a [`Metaposition`] (seed 001): the opponent's unseen move spreads the
//! pseudopieces by how each man type moves. A capture announced on one of our men says only
//! the capturer moved, and to that square; the checks and pawn-capture information that start
//! our turn then tighten the result.

use shakmaty::{Bitboard, Rank, Role, Square, attacks};
use umpire_rules::Announcement;

use crate::metaposition::{E, K, Metaposition, P};

/// Where a man of type index `t` (knight … king) on `from` may go, with `blockers` stopping
/// sliders.
fn reach(t: usize, from: Square, blockers: Bitboard) -> Bitboard {
    match t {
        1 => attacks::knight_attacks(from),
        2 => attacks::bishop_attacks(from, blockers),
        3 => attacks::rook_attacks(from, blockers),
        4 => attacks::queen_attacks(from, blockers),
        _ => attacks::king_attacks(from),
    }
}

impl Metaposition {
    /// The opponent moved; `heard` is what we heard of it. `observed` says whether `heard` is
    /// the real announcement list (then silence means no check and the pawn-capture
    /// information applies) or a hypothesis of a search.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn opponent_moved(&mut self, heard: &[Announcement], observed: bool) {
        let us = self.us();
        let enemy = self.enemy;
        for a in self.age.iter_mut() {
            *a = a.saturating_add(1);
        }
        let mut capture = None;
        let mut promoted = false;
        for h in heard {
            match *h {
                Announcement::Capture {
                    square, en_passant, ..
                } => capture = Some((square, en_passant)),
                Announcement::Promotion(c) if c == enemy => promoted = true,
                _ => {}
            }
        }
        let may_promote = promoted || !self.rules.promotion_announced;
        let last = Bitboard::from_rank(enemy.fold_wb(Rank::Eighth, Rank::First));
        let fwd: i32 = enemy.fold_wb(8, -8);
        let mut new = self.kinds;
        let mut promotion_possible = false;
        let mut pawn_moved = false;
        match capture {
            None => {
                let blk = self.own.board().occupied() | self.surely_enemy();
                let mut movers = Bitboard::EMPTY;
                for t in 1..=K {
                    for s in self.kinds[t] {
                        let d = reach(t, s, blk) & !blk;
                        if d.any() {
                            movers.add(s);
                        }
                        new[t] |= d;
                    }
                }
                let start = Bitboard::from_rank(enemy.fold_wb(Rank::Second, Rank::Seventh));
                let mut dest = Bitboard::EMPTY;
                for s in self.kinds[P] {
                    if let Some(one) = s.offset(fwd).filter(|o| !blk.contains(*o)) {
                        dest.add(one);
                        movers.add(s);
                        if start.contains(s)
                            && let Some(two) = one.offset(fwd).filter(|o| !blk.contains(*o))
                        {
                            dest.add(two);
                        }
                    }
                }
                pawn_moved = dest.any();
                new[P] |= dest & !last;
                if may_promote && (dest & last).any() {
                    promotion_possible = true;
                    for n in new.iter_mut().take(K).skip(1) {
                        *n |= dest & last;
                    }
                }
                let home = enemy.fold_wb(Rank::First, Rank::Eighth);
                let sq = |f| Square::from_coords(f, home);
                use shakmaty::File::{A, C, D, E as FE, F, G, H};
                let at_home = self.kinds[K].contains(sq(FE));
                if self.castling.0
                    && at_home
                    && self.kinds[3].contains(sq(H))
                    && (attacks::between(sq(FE), sq(H)) & blk).is_empty()
                {
                    new[K].add(sq(G));
                    new[3].add(sq(F));
                    movers |= Bitboard::from_square(sq(FE)) | Bitboard::from_square(sq(H));
                }
                if self.castling.1
                    && at_home
                    && self.kinds[3].contains(sq(A))
                    && (attacks::between(sq(FE), sq(A)) & blk).is_empty()
                {
                    new[K].add(sq(C));
                    new[3].add(sq(D));
                    movers |= Bitboard::from_square(sq(FE)) | Bitboard::from_square(sq(A));
                }
                new[E] |= movers;
            }
            Some((c, ep_said)) => {
                let lost = self.own.lose_man(c);
                // A pawn of ours that just made its double step (or, from a set-up start whose
                // last move is unknown, any pawn of ours on its fourth rank) may be taken e.p.
                let fourth = us.fold_wb(Rank::Fourth, Rank::Fifth);
                let ep_possible = lost == Some(Role::Pawn)
                    && (self.double_step == Some(c) || (!self.standard && c.rank() == fourth))
                    && (ep_said || !self.rules.en_passant_announced);
                let normal = !(ep_said && self.rules.en_passant_announced);
                let blk = self.own.board().occupied() | self.surely_enemy();
                for n in new.iter_mut() {
                    n.discard(c);
                }
                if normal {
                    for t in 1..=K {
                        let attackers = reach(t, c, blk) & self.kinds[t];
                        if attackers.any() {
                            new[t].add(c);
                            new[E] |= attackers;
                        }
                    }
                    let attackers = attacks::pawn_attacks(us, c) & self.kinds[P];
                    if attackers.any() {
                        pawn_moved = true;
                        new[E] |= attackers;
                        if last.contains(c) {
                            promotion_possible = true;
                            for n in new.iter_mut().take(K).skip(1) {
                                n.add(c);
                            }
                        } else {
                            new[P].add(c);
                        }
                    }
                }
                if ep_possible && let Some(to) = c.offset(fwd) {
                    let attackers = attacks::pawn_attacks(us, to) & self.kinds[P];
                    if attackers.any() {
                        pawn_moved = true;
                        new[P].add(to);
                        new[E] |= attackers;
                        new[E].add(c);
                    }
                }
            }
        }
        self.kinds = new;
        if promoted {
            self.pawns = (
                self.pawns.0.saturating_sub(1),
                self.pawns.1.saturating_sub(1),
            );
        } else if promotion_possible {
            self.pawns.0 = self.pawns.0.saturating_sub(1);
        }
        let zeroed = capture.is_some();
        self.halfmoves = self.halfmoves.map(|(lo, hi)| {
            if zeroed {
                (0, 0)
            } else if pawn_moved {
                (0, hi + 1)
            } else {
                (lo + 1, hi + 1)
            }
        });
        self.double_step = None;
        self.checks = [None; 2];
        // The enemy's move was legal: its king is not in check now.
        self.enemy_king_safe();
        if observed {
            for h in heard {
                if let Announcement::Check(k) = *h {
                    self.push_check(k);
                }
            }
            self.turn_start(heard);
        } else {
            self.tighten();
        }
    }
}
