//! The brute-force oracle: every assignment of natures, enumerated.
//!
//! Each side's eight back-rank men take one of the 8!/(2!·2!·2!) = 5,040 arrangements of
//! K, Q, R, R, B, B, N, N (times four natures per promoted man). A side's arrangement is kept
//! while all of that side's moves suit it, together with the set of enemy men that may still
//! be the enemy king given its attacks after each enemy move (an enemy king may never be
//! left attacked). Two arrangements form a consistent world when each side's king is in the
//! other's set. Move geometry here is written out square by square, independently of the
//! attack tables the SAT umpire uses, so that the two can be tested against each other.

use shakmaty::{Color, Square};

use crate::board::Board;
use crate::man::{Kind, ManId};
use crate::mv::Move;
use crate::nature::{Nature, NatureSet};

const PAWN: u8 = u8::MAX;

/// One side's arrangement: natures by man index (pawns `PAWN`), and which enemy back-rank
/// men may still be the enemy king (bit per index).
#[derive(Clone, Copy, Debug)]
struct Arrangement {
    natures: [u8; 16],
    enemy_kings: u8,
}

impl Arrangement {
    fn king(&self) -> usize {
        self.natures[..8]
            .iter()
            .position(|&n| n == Nature::King as u8)
            .unwrap_or(0)
    }
}

/// The enumerating umpire (slow; for tests and benchmarks).
#[derive(Clone, Debug)]
pub struct BruteForce {
    board: Board,
    sides: [Vec<Arrangement>; 2],
}

impl Default for BruteForce {
    fn default() -> Self {
        BruteForce::new()
    }
}

fn arrangements() -> Vec<[u8; 16]> {
    fn fill(slot: usize, left: &mut [usize; 5], cur: &mut [u8; 16], out: &mut Vec<[u8; 16]>) {
        if slot == 8 {
            out.push(*cur);
            return;
        }
        for n in 0..5 {
            if left[n] > 0 {
                left[n] -= 1;
                cur[slot] = n as u8;
                fill(slot + 1, left, cur, out);
                left[n] += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(5040);
    let mut cur = [PAWN; 16];
    fill(0, &mut [1, 1, 2, 2, 2], &mut cur, &mut out);
    out
}

/// The squares a man of nature `n` on `from` attacks, stepping square by square.
fn attacks(n: u8, from: Square, occupied: u64) -> u64 {
    const KING: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    const KNIGHT: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let (f0, r0) = (from.file() as i32, from.rank() as i32);
    let mut out = 0u64;
    let on = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
    let bit = |f: i32, r: i32| 1u64 << (r * 8 + f);
    let (steps, slide): (&[(i32, i32)], bool) = match n {
        0 => (&KING, false),
        1 => (&KING, true),
        2 => (&KING[..4], true),
        3 => (&KING[4..], true),
        _ => (&KNIGHT, false),
    };
    for &(df, dr) in steps {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on(f, r) {
            out |= bit(f, r);
            if !slide || occupied & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

fn pawn_attack(color: Color, from: Square) -> u64 {
    let (f, r) = (from.file() as i32, from.rank() as i32);
    let r2 = r + color.fold_wb(1, -1);
    let mut out = 0;
    for f2 in [f - 1, f + 1] {
        if (0..8).contains(&f2) && (0..8).contains(&r2) {
            out |= 1u64 << (r2 * 8 + f2);
        }
    }
    out
}

fn pawn_moves(color: Color, from: Square, own: u64, enemy: u64) -> u64 {
    let (f, r) = (from.file() as i32, from.rank() as i32);
    let dir = color.fold_wb(1, -1);
    let mut out = pawn_attack(color, from) & enemy;
    let occupied = own | enemy;
    let one = r + dir;
    if (0..8).contains(&one) && occupied & (1u64 << (one * 8 + f)) == 0 {
        out |= 1u64 << (one * 8 + f);
        let start = color.fold_wb(1, 6);
        let two = one + dir;
        if r == start && occupied & (1u64 << (two * 8 + f)) == 0 {
            out |= 1u64 << (two * 8 + f);
        }
    }
    out
}

fn bits(bb: shakmaty::Bitboard) -> u64 {
    bb.0
}

impl BruteForce {
    /// A new game: every arrangement possible for both sides.
    pub fn new() -> BruteForce {
        let all: Vec<Arrangement> = arrangements()
            .into_iter()
            .map(|natures| Arrangement {
                natures,
                enemy_kings: 0xFF,
            })
            .collect();
        BruteForce {
            board: Board::new(),
            sides: [all.clone(), all],
        }
    }

    /// The known board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of arrangements still kept for `color` (each may or may not have a partner).
    pub fn arrangements(&self, color: Color) -> usize {
        self.sides[color as usize].len()
    }

    /// For each king index of `color`, which enemy kings arrangements of the enemy allow
    /// together with it (bit per enemy king index).
    fn partner_kings(&self, color: Color) -> [u8; 8] {
        let mut out = [0u8; 8];
        for a in &self.sides[!color as usize] {
            for (k, slot) in out.iter_mut().enumerate() {
                if a.enemy_kings & (1 << k) != 0 {
                    *slot |= 1 << a.king();
                }
            }
        }
        out
    }

    /// The natures `man` has in some consistent world.
    pub fn possible_natures(&self, man: ManId) -> NatureSet {
        let color = man.color();
        let partners = self.partner_kings(color);
        let mut out = NatureSet::EMPTY;
        for a in &self.sides[color as usize] {
            if a.enemy_kings & partners[a.king()] != 0 {
                let n = a.natures[man.index()];
                if let Some(&nature) = Nature::ALL.get(usize::from(n)) {
                    out = out.with(nature);
                }
            }
        }
        out
    }

    /// Whether `mover` with nature `n` (or as a pawn) may go from `mv.from` to `mv.to`.
    fn geometry_ok(&self, n: u8, mv: Move) -> bool {
        let turn = self.board.turn();
        let own = bits(self.board.occupied_by(turn));
        let enemy = bits(self.board.occupied_by(!turn));
        let target = 1u64 << (mv.to as u32);
        if own & target != 0 {
            return false;
        }
        if n == PAWN {
            pawn_moves(turn, mv.from, own, enemy) & target != 0
        } else {
            attacks(n, mv.from, own | enemy) & target != 0
        }
    }

    /// For each man of `attacker` on the board (index, square), the squares it attacks under
    /// each nature (index 0..5) and as a pawn (index 5).
    fn attack_table(attacker: Color, places: &[(usize, Square)], occupied: u64) -> [[u64; 6]; 16] {
        let mut table = [[0u64; 6]; 16];
        for &(i, sq) in places {
            for n in 0..5u8 {
                table[i][usize::from(n)] = attacks(n, sq, occupied);
            }
            table[i][5] = pawn_attack(attacker, sq);
        }
        table
    }

    /// Which of `victims` (index, square) the men at `places` attack under `natures`.
    fn attacked_ids(
        table: &[[u64; 6]; 16],
        natures: &[u8; 16],
        places: &[(usize, Square)],
        victims: &[(usize, Square)],
    ) -> u8 {
        let mut attacked = 0u64;
        for &(i, _) in places {
            let n = natures[i];
            attacked |= table[i][if n == PAWN { 5 } else { usize::from(n) }];
        }
        let mut ids = 0u8;
        for &(k, sq) in victims {
            if attacked & (1u64 << (sq as u32)) != 0 {
                ids |= 1 << k;
            }
        }
        ids
    }

    /// The board after `mv`, and for each enemy arrangement, its enemy-king set once the
    /// mover's kings attacked after the move are removed.
    fn after(&self, mv: Move) -> (Board, Vec<u8>) {
        let mut board = self.board.clone();
        let _ = board.play(mv);
        let mover = self.board.turn();
        let occupied = bits(board.occupied());
        let places: Vec<(usize, Square)> = board.men(!mover).map(|(m, s)| (m.index(), s)).collect();
        let victims: Vec<(usize, Square)> = board
            .men(mover)
            .filter(|(m, _)| m.is_back_rank())
            .map(|(m, s)| (m.index(), s))
            .collect();
        let table = Self::attack_table(!mover, &places, occupied);
        let sets = self.sides[!mover as usize]
            .iter()
            .map(|a| a.enemy_kings & !Self::attacked_ids(&table, &a.natures, &places, &victims))
            .collect();
        (board, sets)
    }

    fn mover(&self, mv: Move) -> Option<ManId> {
        let man = self.board.man_at(mv.from)?;
        (man.color() == self.board.turn()).then_some(man)
    }

    /// Whether `mv` is legal for the side to move: some consistent world makes it a legal move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let Some(man) = self.mover(mv) else {
            return false;
        };
        let mover = self.board.turn();
        let pawn = self.board.kind(man) == Kind::Pawn;
        if pawn && !self.geometry_ok(PAWN, mv) {
            return false;
        }
        let (_, sets) = self.after(mv);
        let mut partners = [0u8; 8];
        for (a, &set) in self.sides[!mover as usize].iter().zip(&sets) {
            for (k, slot) in partners.iter_mut().enumerate() {
                if set & (1 << k) != 0 {
                    *slot |= 1 << a.king();
                }
            }
        }
        self.sides[mover as usize].iter().any(|a| {
            (pawn || self.geometry_ok(a.natures[man.index()], mv))
                && a.enemy_kings & partners[a.king()] != 0
        })
    }

    /// Plays `mv` if legal; returns whether it was.
    pub fn play(&mut self, mv: Move) -> bool {
        if !self.is_legal(mv) {
            return false;
        }
        let Some(man) = self.mover(mv) else {
            return false;
        };
        let mover = self.board.turn();
        let pawn = self.board.kind(man) == Kind::Pawn;
        let (board, sets) = self.after(mv);
        let kept: Vec<Arrangement> = self.sides[mover as usize]
            .iter()
            .filter(|a| pawn || self.geometry_ok(a.natures[man.index()], mv))
            .copied()
            .collect();
        for (a, set) in self.sides[!mover as usize].iter_mut().zip(sets) {
            a.enemy_kings = set;
        }
        let promoted = pawn && board.kind(man) == Kind::Promoted;
        self.sides[mover as usize] = if promoted {
            kept.iter()
                .flat_map(|a| {
                    Nature::PROMOTED.iter().map(move |&n| {
                        let mut b = *a;
                        b.natures[man.index()] = n as u8;
                        b
                    })
                })
                .collect()
        } else {
            kept
        };
        self.board = board;
        true
    }

    /// Every move of the side to move that is legal (from every square to every square).
    pub fn legal_moves(&self) -> Vec<Move> {
        let turn = self.board.turn();
        let mut out = Vec::new();
        for (_, from) in self.board.men(turn) {
            for to in Square::ALL {
                let mv = Move { from, to };
                if from != to && self.is_legal(mv) {
                    out.push(mv);
                }
            }
        }
        out
    }

    /// Whether the side to move is in check in some consistent world, and whether it is out of
    /// check in some consistent world.
    pub fn check_somewhere(&self) -> (bool, bool) {
        let turn = self.board.turn();
        let occupied = bits(self.board.occupied());
        let places: Vec<(usize, Square)> =
            self.board.men(!turn).map(|(m, s)| (m.index(), s)).collect();
        let victims: Vec<(usize, Square)> = self
            .board
            .men(turn)
            .filter(|(m, _)| m.is_back_rank())
            .map(|(m, s)| (m.index(), s))
            .collect();
        let mut own = [0u8; 8];
        for a in &self.sides[turn as usize] {
            own[a.king()] |= a.enemy_kings;
        }
        let (mut checked, mut safe) = (false, false);
        let table = Self::attack_table(!turn, &places, occupied);
        for a in &self.sides[!turn as usize] {
            let attacked = Self::attacked_ids(&table, &a.natures, &places, &victims);
            for (k, &mask) in own.iter().enumerate() {
                if a.enemy_kings & (1 << k) != 0 && mask & (1 << a.king()) != 0 {
                    if attacked & (1 << k) != 0 {
                        checked = true;
                    } else {
                        safe = true;
                    }
                }
            }
        }
        (checked, safe)
    }
}
