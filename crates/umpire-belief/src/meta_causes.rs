//! What an announcement proves about its *cause* in a [`Metaposition`] (seed 001): a rejected
//! king step says its target is attacked, a rejected castling that a man is in the way or a
//! crossed square is attacked, an announced pawn capture that an enemy man stands where one of
//! our pawns can take it. Each over-approximates the possible causes from the pseudopieces and
//! draws a conclusion only when a single cause is left; with several, nothing is inferred
//! (never a guess), so the true position stays admitted.

use shakmaty::{Bitboard, File, Rank, Square, attacks};

use crate::metaposition::{E, K, Metaposition, P};

/// Indices of the knight, bishop, rook, queen.
const N: usize = 1;
const B: usize = 2;
const R: usize = 3;
const Q: usize = 4;

/// Per man type (pawn … king, [`crate::marginals::MAN_TYPES`] order), the squares from which an
/// enemy man of that type may attack a square.
type Attackers = [Bitboard; 6];

/// All squares of an [`Attackers`].
fn union(att: &Attackers) -> Bitboard {
    att.iter().fold(Bitboard::EMPTY, |a, &b| a | b)
}

impl Metaposition {
    /// Where an enemy man of each type may stand and attack `target`, sliders stopped by
    /// `blockers` (squares certainly occupied). An over-approximation: every attacker of
    /// `target` in an admitted position with those blockers is included.
    fn may_attack(&self, target: Square, blockers: Bitboard) -> Attackers {
        let us = self.us();
        let mut att = [Bitboard::EMPTY; 6];
        att[P] = attacks::pawn_attacks(us, target) & self.kinds[P];
        att[N] = attacks::knight_attacks(target) & self.kinds[N];
        att[B] = attacks::bishop_attacks(target, blockers) & self.kinds[B];
        att[R] = attacks::rook_attacks(target, blockers) & self.kinds[R];
        att[Q] = attacks::queen_attacks(target, blockers) & self.kinds[Q];
        att[K] = attacks::king_attacks(target) & self.kinds[K];
        for a in att.iter_mut() {
            a.discard(target);
        }
        att
    }

    /// If the attackers of `targets` can stand on a single square, puts there only the types
    /// that attack; where all of them attack one target along a line, the squares between are
    /// free. Returns whether something was inferred.
    fn single_attacker(&mut self, att: &Attackers, targets: Bitboard) -> bool {
        let Some(s) = union(att).single_square() else {
            return false;
        };
        let mut bits = 0u8;
        for (t, a) in att.iter().enumerate() {
            if a.contains(s) {
                bits |= 1 << t;
            }
        }
        self.set_bits(s, self.bits(s) & bits);
        if let Some(target) = targets.single_square() {
            let own = self.own.board().occupied();
            for b in attacks::between(s, target) & !own {
                self.clear_square(b);
            }
        }
        true
    }

    /// Our king's step `from` → `to` (one square, not castling) was illegal: the enemy attacks
    /// `to` once our king stands there (its origin empty: a slider may attack through it). Our
    /// men never stand on `to` (that attempt would be impossible), and an enemy man there would
    /// be taken, so the cause is an attacker; with a single possible attacker square it is
    /// restricted to the attacking types. Sound in check too: a king step is legal exactly when
    /// its target is not attacked after it.
    pub(crate) fn rejected_king_step(&mut self, from: Square, to: Square) {
        let blockers = self.own.board().occupied().without(from) | self.surely_enemy();
        let att = self.may_attack(to, blockers);
        self.single_attacker(&att, Bitboard::from_square(to));
    }

    /// Our castling `king` → `to` was illegal outside check: an enemy man stands between king
    /// and rook, or a square the king crosses (its destination included) is attacked. Only a
    /// single possible cause is drawn: a lone possible blocker with no possible attacker, or
    /// attackers from one square only with no possible blocker.
    pub(crate) fn rejected_castling(&mut self, king: Square, to: Square) {
        if self.checks[0].is_some() {
            return;
        }
        let rook_file = if to.file() > king.file() {
            File::H
        } else {
            File::A
        };
        let rook = Square::from_coords(rook_file, king.rank());
        let in_way = attacks::between(king, rook) & self.maybe_enemy();
        let crossed = attacks::between(king, to).with(to);
        let blockers =
            self.own.board().occupied().without(king).without(rook) | self.surely_enemy();
        let mut att = [Bitboard::EMPTY; 6];
        for x in crossed {
            for (a, b) in att.iter_mut().zip(self.may_attack(x, blockers)) {
                *a |= b;
            }
        }
        let attackers = union(&att);
        if attackers.is_empty() {
            if let Some(b) = in_way.single_square() {
                self.kinds[E].discard(b);
            }
        } else if in_way.is_empty() {
            // Which crossed square is attacked is unknown: no square between is cleared.
            self.single_attacker(&att, Bitboard::EMPTY);
        }
    }

    /// The umpire said we have at least `at_least` legal pawn captures (a count of tries, "pawn
    /// captures", "Any?" answered yes). Each needs a capturable enemy man (not the king) on its
    /// capture square, unless it is e.p.: when an e.p. capture may exist nothing is drawn.
    /// With one possible capture square a man stands there; with exactly `at_least` possible
    /// captures, on every capture square.
    pub(crate) fn pawn_captures_exist(&mut self, at_least: u8) {
        let us = self.us();
        let pawns = self.own.board().pawns() & self.own.board().by_color(us);
        let ep_rank = Bitboard::from_rank(us.fold_wb(Rank::Fifth, Rank::Fourth));
        for p in pawns & ep_rank {
            let beside = attacks::king_attacks(p) & ep_rank;
            if (beside & self.kinds[P]).any() {
                return;
            }
        }
        let capturable =
            self.kinds[P] | self.kinds[N] | self.kinds[B] | self.kinds[R] | self.kinds[Q];
        let own = self.own.board().occupied();
        let mut pairs = 0usize;
        let mut targets = Bitboard::EMPTY;
        for p in pawns {
            let t = attacks::pawn_attacks(us, p) & !own & capturable;
            pairs += t.count();
            targets |= t;
        }
        if pairs == 0 {
            return;
        }
        if targets.single_square().is_some() || pairs == usize::from(at_least) {
            for t in targets {
                self.kinds[E].discard(t);
                self.kinds[K].discard(t);
            }
        }
    }

    /// Our king's attempt `from` → `to` was illegal: dispatches to the step or castling cause.
    pub(crate) fn rejected_king_attempt(&mut self, from: Square, to: Square) {
        let castle = from.distance(to) == 2 && from.rank() == to.rank();
        if castle {
            self.rejected_castling(from, to);
        } else if from.distance(to) == 1 {
            self.rejected_king_step(from, to);
        }
    }
}
