//! [`Board`]: the player's men as they stand (White-oriented) when they are more than a
//! table's ending — the table's men and surplus men beside them, a knight beside KRK or a pawn
//! beside KQK — and the lone king's squares followed on that board.
//!
//! The table plans as if the surplus men were not there. The squares where the lone king may
//! stand are followed with every man in place, so the set stays sound whatever the surplus men
//! block or attack: an answer is compared with what the umpire would say on the real board, and
//! the king's reply spreads only to squares no man of the player attacks. A table move is
//! played only when it stalemates on none of those squares and leaves no table man for the
//! king to take ([`Board::safe`]).

use umpire_rules::shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};
use umpire_rules::{Attempt, CheckKind};
use umpire_tablebase::{Answer, Layout, Tablebase, king_spread};

/// The most men besides the king a player can have.
const MAX_MEN: usize = 15;

/// The player's men (White-oriented): the king and up to 15 others; the first `table` of the
/// others are the table's men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    king: Square,
    men: [(Role, Square); MAX_MEN],
    len: u8,
    table: u8,
}

/// One bit for `sq`.
fn bit(sq: Square) -> u64 {
    Bitboard::from_square(sq).0
}

/// The squares a White man of `role` on `sq` attacks with `occupied` blocking.
fn man_attacks(role: Role, sq: Square, occupied: u64) -> u64 {
    if role == Role::Pawn {
        return attacks::pawn_attacks(Color::White, sq).0;
    }
    let piece = Piece {
        color: Color::White,
        role,
    };
    attacks::attacks(sq, piece, Bitboard(occupied)).0
}

impl Board {
    /// The table's `layout` with the `surplus` men beside it (White-oriented); `None` when they
    /// are more than a player can have.
    pub fn new(layout: &Layout, surplus: &[(Role, Square)]) -> Option<Board> {
        let table = layout.men();
        if table.len() + surplus.len() > MAX_MEN {
            return None;
        }
        let mut men = [(Role::Pawn, Square::A1); MAX_MEN];
        for (slot, man) in men.iter_mut().zip(table.iter().chain(surplus)) {
            *slot = *man;
        }
        Some(Board {
            king: layout.king,
            men,
            len: (table.len() + surplus.len()) as u8,
            table: table.len() as u8,
        })
    }

    /// The men besides the king.
    fn men(&self) -> &[(Role, Square)] {
        &self.men[..usize::from(self.len)]
    }

    /// Whether there is any surplus man.
    pub fn has_surplus(&self) -> bool {
        self.len > self.table
    }

    /// Every square holding one of the player's men.
    fn occupied(&self) -> u64 {
        self.men()
            .iter()
            .fold(bit(self.king), |acc, &(_, sq)| acc | bit(sq))
    }

    /// Every square a man of the player attacks (the king included), the lone king blocking
    /// nothing.
    fn attacked(&self) -> u64 {
        let occ = self.occupied();
        self.men()
            .iter()
            .fold(attacks::king_attacks(self.king).0, |acc, &(role, sq)| {
                acc | man_attacks(role, sq, occ)
            })
    }

    /// The squares where the lone king may stand with the player to move: on no man, attacked
    /// by none.
    pub fn domain(&self) -> u64 {
        !(self.occupied() | self.attacked())
    }

    /// What the umpire says after the player's move when the lone king stands on `king`:
    /// silent or the kinds of the checks.
    fn answer(&self, king: Square) -> Answer {
        let occ = self.occupied();
        let mut kinds = [CheckKind::Knight; 2];
        let mut n = 0;
        for &(role, sq) in self.men() {
            if man_attacks(role, sq, occ) & bit(king) != 0 && n < 2 {
                kinds[n] = CheckKind::classify(sq, king);
                n += 1;
            }
        }
        Answer::of_checks(&kinds[..n])
    }

    /// Whether the man on `sq` is protected by another of the player's men.
    fn defended(&self, sq: Square) -> bool {
        let occ = self.occupied();
        attacks::king_attacks(self.king).0 & bit(sq) != 0
            || self
                .men()
                .iter()
                .any(|&(role, from)| from != sq && man_attacks(role, from, occ) & bit(sq) != 0)
    }

    /// The squares of the men the lone king may take.
    fn undefended(&self) -> u64 {
        self.men()
            .iter()
            .filter(|&&(_, sq)| !self.defended(sq))
            .fold(0, |acc, &(_, sq)| acc | bit(sq))
    }

    /// The squares where `attempt` is illegal for the lone king standing there (a king step
    /// next to it; a man's move through or onto it); `None` for an attempt this board cannot
    /// follow (no man on its square, a pawn's try to take).
    fn illegal_squares(&self, attempt: Attempt) -> Option<u64> {
        if attempt.from == self.king {
            return Some(attacks::king_attacks(attempt.to).0);
        }
        let &(role, _) = self.men().iter().find(|m| m.1 == attempt.from)?;
        if role == Role::Pawn && attempt.from.file() != attempt.to.file() {
            return None;
        }
        Some(attacks::between(attempt.from, attempt.to).0 | bit(attempt.to))
    }

    /// The board after `attempt`, played (`None` as for [`Board::illegal_squares`]).
    fn after(&self, attempt: Attempt) -> Option<Board> {
        let mut next = *self;
        if attempt.from == self.king {
            next.king = attempt.to;
            return Some(next);
        }
        let len = usize::from(self.len);
        let man = next.men[..len].iter_mut().find(|m| m.1 == attempt.from)?;
        man.1 = attempt.to;
        if let Some(role) = attempt.promotion {
            man.0 = role;
        }
        Some(next)
    }

    /// A key of where the men stand (equal boards, equal keys; different boards almost
    /// always differ).
    pub fn key(&self) -> u64 {
        let mix = |x: u64| {
            let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        self.men()
            .iter()
            .fold(mix(self.king as u64), |acc, &(role, sq)| {
                acc ^ mix((role as u64) << 6 | sq as u64)
            })
    }

    /// The [key](Board::key) of the board after `attempt` (`None` as for
    /// [`Board::illegal_squares`]).
    pub fn key_after(&self, attempt: Attempt) -> Option<u64> {
        Some(self.after(attempt)?.key())
    }

    /// `set` narrowed by `attempt` having been illegal; `None` when it cannot be followed.
    pub fn illegal(&self, set: u64, attempt: Attempt) -> Option<u64> {
        Some(set & self.illegal_squares(attempt)?)
    }

    /// `set` after `attempt` was played and the player heard `heard`: the squares that give
    /// that answer on the real board, spread by the king's reply to every square no man
    /// attacks (a capture is announced and ends the tracking); `None` when it cannot be
    /// followed.
    pub fn moved(&self, set: u64, attempt: Attempt, heard: Answer) -> Option<u64> {
        let illegal = self.illegal_squares(attempt)?;
        let after = self.after(attempt)?;
        let kept = Bitboard(set & !illegal)
            .into_iter()
            .filter(|&sq| after.answer(sq) == heard)
            .fold(0, |acc, sq| acc | bit(sq));
        Some(king_spread(kept) & after.domain())
    }

    /// Whether `attempt` (a table move) is safe wherever in `set` the lone king stands and the
    /// attempt is legal: it does not stalemate, and the king cannot answer it by taking one of
    /// the table's men.
    pub fn safe(&self, set: u64, attempt: Attempt) -> bool {
        let (Some(illegal), Some(after)) = (self.illegal_squares(attempt), self.after(attempt))
        else {
            return false;
        };
        let attacked = after.attacked();
        let undefended = after.undefended();
        let table = after.men[..usize::from(after.table)]
            .iter()
            .fold(0, |acc, &(_, sq)| acc | bit(sq));
        let free = !attacked & (!after.occupied() | undefended);
        Bitboard(set & !illegal).into_iter().all(|sq| {
            let reach = attacks::king_attacks(sq).0;
            let stalemate = attacked & bit(sq) == 0 && reach & free == 0;
            let takes = reach & table & undefended != 0;
            !stalemate && !takes
        })
    }
}

/// The table's distance of `set` on `layout` where the table sees every square of it (none
/// is shielded by a surplus man from a line the table counts as attacked); `None` otherwise.
fn clean_distance(table: &Tablebase, layout: &Layout, set: u64) -> Option<u8> {
    if set & !layout.domain() != 0 {
        return None;
    }
    table.distance(*layout, set)
}

impl Board {
    /// The worst-case distance to mate if the player tries `attempt` (a move of any of its
    /// men, White-oriented) with the lone king somewhere in `set`, following `table` (whose
    /// men are `layout`) afterwards: the answers are split as on the real board, and each
    /// set the king may reach must be one the table knows, with none of its squares hidden
    /// from the table by a surplus man. `None` when the attempt is not [safe](Board::safe),
    /// is illegal everywhere in `set`, or leads to a set the table cannot value.
    pub fn value(
        &self,
        table: &Tablebase,
        layout: &Layout,
        set: u64,
        attempt: Attempt,
    ) -> Option<u8> {
        let illegal = set & self.illegal_squares(attempt)?;
        if illegal == set || !self.safe(set, attempt) {
            return None;
        }
        let after = self.after(attempt)?;
        let moves_table_man =
            attempt.from == layout.king || layout.men().iter().any(|m| m.1 == attempt.from);
        let table_after = if moves_table_man {
            layout.after(attempt)
        } else {
            *layout
        };
        let mut worst = 0;
        if illegal != 0 {
            worst = clean_distance(table, layout, illegal)?;
        }
        let attacked = after.attacked();
        let free = !attacked & (!after.occupied() | after.undefended());
        let domain = after.domain();
        // The squares not yet valued, split one answer class at a time.
        let mut rest = set & !illegal;
        while rest != 0 {
            let first = Bitboard(rest).first()?;
            let answer = after.answer(first);
            let class = Bitboard(rest)
                .into_iter()
                .filter(|&sq| after.answer(sq) == answer)
                .fold(0, |acc, sq| acc | bit(sq));
            rest &= !class;
            // Mated squares end the game; the others move on.
            let mated = Bitboard(class)
                .into_iter()
                .filter(|&sq| attacked & bit(sq) != 0 && attacks::king_attacks(sq).0 & free == 0)
                .fold(0, |acc, sq| acc | bit(sq));
            worst = worst.max(1);
            let moving = class & !mated;
            if moving != 0 {
                let next = king_spread(moving) & domain;
                let d = clean_distance(table, &table_after, next)?;
                worst = worst.max(d.saturating_add(1));
            }
        }
        Some(worst)
    }
}

impl Board {
    /// The player's attempts on this board (White-oriented): every step and slide of its men
    /// onto a square none of them holds, a pawn's push (one or two squares, promoting to a
    /// queen on the last rank; a pawn takes nothing, the lone king being the only enemy man).
    fn attempts(&self, out: &mut Vec<Attempt>) {
        out.clear();
        let occ = self.occupied();
        let step = |from: Square, to: Square, promotion| Attempt {
            from,
            to,
            promotion,
        };
        for to in Bitboard(attacks::king_attacks(self.king).0 & !occ) {
            out.push(step(self.king, to, None));
        }
        for &(role, sq) in self.men() {
            if role == Role::Pawn {
                let Some(one) = sq.offset(8) else { continue };
                if occ & bit(one) != 0 {
                    continue;
                }
                let queen =
                    (one.rank() == umpire_rules::shakmaty::Rank::Eighth).then_some(Role::Queen);
                out.push(step(sq, one, queen));
                if sq.rank() == umpire_rules::shakmaty::Rank::Second
                    && let Some(two) = sq.offset(16)
                    && occ & bit(two) == 0
                {
                    out.push(step(sq, two, None));
                }
                continue;
            }
            for to in Bitboard(man_attacks(role, sq, occ) & !occ) {
                out.push(step(sq, to, None));
            }
        }
    }

    /// The best [value](Board::value) the player's next decision may reach after `attempt`
    /// with the lone king somewhere in `set`: the squares where the attempt is legal, spread
    /// by the king's reply over the board after it, valued for every attempt from there (the
    /// table's men as the attempt leaves them). `None` when no next attempt can be valued.
    ///
    /// It tells apart the moves [`Board::value`] ties: a surplus man's move keeps the table's
    /// distance (the king spreads back), as does a table move, but only the one that takes a
    /// surplus man out of the table's lines lets the next decision shorten it. Issue 28, session
    /// 8's `raider` row, game 23 (`mcts` White, KQNNP vs K, 16 ahead): every qualifying move
    /// was valued 3, the first in the list (a knight's) was played each time, and the knights
    /// toured for fifty moves while the king stood in the corner.
    pub fn next_best(
        &self,
        table: &Tablebase,
        layout: &Layout,
        set: u64,
        attempt: Attempt,
        scratch: &mut Vec<Attempt>,
    ) -> Option<u8> {
        let illegal = self.illegal_squares(attempt)?;
        let after = self.after(attempt)?;
        let moves_table_man =
            attempt.from == layout.king || layout.men().iter().any(|m| m.1 == attempt.from);
        let table_after = if moves_table_man {
            layout.after(attempt)
        } else {
            *layout
        };
        let next = king_spread(set & !illegal) & after.domain();
        if next == 0 {
            return None;
        }
        after.attempts(scratch);
        scratch
            .iter()
            .filter_map(|&b| after.value(table, &table_after, next, b))
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// King e1, rook a2, knight b3: KRK with a knight beside it.
    fn krn() -> Board {
        let layout = Layout::krk(sq("e1"), sq("a2")).unwrap();
        Board::new(&layout, &[(Role::Knight, sq("b3"))]).unwrap()
    }

    #[test]
    fn a_surplus_knight_blocks_the_rooks_line_and_attacks_its_own_squares() {
        let board = krn();
        assert!(board.has_surplus());
        let domain = board.domain();
        // The knight attacks d4: the king cannot stand there.
        assert_eq!(domain & bit(sq("d4")), 0);
        // The rook's second rank is attacked everywhere; nothing blocks it.
        assert_eq!(domain & bit(sq("h2")), 0);
        // Rook to a3: the knight on b3 blocks the third rank, so a king on h3 hears nothing.
        let after = board.after(Attempt::new(sq("a2"), sq("a3"))).unwrap();
        assert_eq!(after.answer(sq("h3")), Answer::Silent);
        assert_eq!(after.answer(sq("a8")), Answer::Check(CheckKind::File));
    }

    #[test]
    fn the_followed_set_keeps_the_squares_behind_a_blocking_man() {
        let board = krn();
        let h3 = bit(sq("h3"));
        let ra3 = Attempt::new(sq("a2"), sq("a3"));
        // Without the knight Ra3 would check a king on h3 along the rank; with it, silence
        // keeps h3 (spread by the king's reply) and a rank check rules it out.
        let after = board.after(ra3).unwrap();
        assert_eq!(
            board.moved(h3, ra3, Answer::Silent),
            Some(king_spread(h3) & after.domain())
        );
        assert_eq!(
            board.moved(h3, ra3, Answer::Check(CheckKind::Rank)),
            Some(0)
        );
    }

    #[test]
    fn a_move_that_stalemates_somewhere_in_the_set_is_not_safe() {
        // King c6, rook b1, lone king a8; Rb6 leaves it a7.
        let layout = Layout::krk(sq("c6"), sq("b1")).unwrap();
        let a8 = bit(sq("a8"));
        let rb6 = Attempt::new(sq("b1"), sq("b6"));
        let board = Board::new(&layout, &[(Role::Knight, sq("c5"))]).unwrap();
        assert!(board.safe(a8, rb6));
        // A knight on b5 covers a7: Rb6 would stalemate.
        let board = Board::new(&layout, &[(Role::Knight, sq("b5"))]).unwrap();
        assert!(!board.safe(a8, rb6));
        assert!(board.safe(a8, Attempt::new(sq("b1"), sq("b2"))));
    }

    #[test]
    fn a_move_leaving_a_table_man_to_the_king_is_not_safe() {
        let layout = Layout::krk(sq("e1"), sq("b2")).unwrap();
        let board = Board::new(&layout, &[(Role::Knight, sq("h1"))]).unwrap();
        let c8 = bit(sq("c8"));
        // Rook next to a king on c8, undefended.
        assert!(!board.safe(c8, Attempt::new(sq("b2"), sq("b7"))));
        assert!(board.safe(c8, Attempt::new(sq("b2"), sq("b3"))));
    }
}
