//! The Schrödinger umpire: the known board plus an incremental SAT solver over the natures.

use shakmaty::{Bitboard, Color, Square};

use crate::backend::{Backend, Lit};
use crate::batsat_backend::Batsat;
use crate::board::Board;
use crate::encoding::{self, is, var};
use crate::geometry::{natures_reaching, pawn_attacks, pawn_targets, reach};
use crate::man::{Kind, ManId};
use crate::mv::Move;
use crate::nature::{Nature, NatureSet};
use crate::verdict::{CheckStatus, EndReason, Ending, Judgement, Refusal};

/// No nature: a pawn in the stored world.
const PAWN: u8 = u8::MAX;

/// The umpire of one game of Haft Schrödinger chess.
///
/// A move is legal when some assignment of natures to the back-rank men (1 king, 1 queen,
/// 2 rooks, 2 bishops, 2 knights per side) and to the promoted men (each a queen, rook,
/// bishop or knight, outside those counts) makes every move so far and this one a legal chess
/// move (no castling, no en passant) that leaves the mover's king out of check. Such an
/// assignment is a *consistent world*.
///
/// Every played move adds clauses for good; judging a move only assumes literals, so the
/// solver is never rebuilt. The umpire keeps one consistent world, which answers most
/// questions without calling the solver, and the exact set of natures each man may still have.
pub struct Umpire<B: Backend = Batsat> {
    board: Board,
    sat: B,
    possible: [[NatureSet; 16]; 2],
    world: [[u8; 16]; 2],
    /// Binary clauses `¬king(k) ∨ ¬x(e, n)` already added, per side of `k`: bit `n` of
    /// `[k][e]`.
    pairs: [[[u8; 16]; 8]; 2],
    assumed: Vec<Lit>,
    base: usize,
    ending: Option<Ending>,
    moves: Vec<Move>,
    shortcut: bool,
}

impl Umpire<Batsat> {
    /// A new game with the default solver.
    pub fn new() -> Umpire<Batsat> {
        Umpire::with_backend()
    }
}

impl Default for Umpire<Batsat> {
    fn default() -> Self {
        Umpire::new()
    }
}

/// What [`Umpire::assume_move`] found before any solving.
enum Setup {
    Refused(Refusal),
    Ready { man: ManId, allowed: NatureSet },
}

impl<B: Backend> Umpire<B> {
    /// A new game on solver backend `B`.
    pub fn with_backend() -> Umpire<B> {
        let mut sat = B::with_vars(encoding::VARS);
        encoding::add_rules(&mut sat);
        let mut possible = [[NatureSet::EMPTY; 16]; 2];
        for side in &mut possible {
            side[..8].fill(NatureSet::ALL);
        }
        let mut umpire = Umpire {
            board: Board::new(),
            sat,
            possible,
            world: [[PAWN; 16]; 2],
            pairs: [[[0; 16]; 8]; 2],
            assumed: Vec::with_capacity(256),
            base: 0,
            ending: None,
            moves: Vec::new(),
            shortcut: true,
        };
        let found = umpire.solve_assumed(&[]);
        debug_assert!(found, "the start position has a world");
        umpire
    }

    /// The known board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn()
    }

    /// The end of the game, once it has ended.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The natures `man` may have in some consistent world (exact; empty for a pawn that has
    /// not promoted). Captured men keep the natures their past allows.
    pub fn possible_natures(&self, man: ManId) -> NatureSet {
        self.possible[man.color() as usize][man.index()]
    }

    /// Whether a judgement may be answered by the stored world without calling the solver (on
    /// by default). Off, every judgement that gets past the board checks calls the solver:
    /// for tests of the solver path and for benchmarks of the solver itself.
    pub fn set_shortcut(&mut self, on: bool) {
        self.shortcut = on;
    }

    /// The solver backend's name.
    pub fn backend_name(&self) -> &'static str {
        self.sat.name()
    }

    /// One consistent world: the nature of each back-rank or promoted man (`None` for pawns).
    pub fn a_world(&self, man: ManId) -> Option<Nature> {
        let n = self.world[man.color() as usize][man.index()];
        Nature::ALL.get(usize::from(n)).copied()
    }

    fn solve_assumed(&mut self, assumptions: &[Lit]) -> bool {
        if !self.sat.solve(assumptions) {
            return false;
        }
        for man in ManId::all() {
            let slot = &mut self.world[man.color() as usize][man.index()];
            *slot = PAWN;
            if man.is_back_rank() || self.board.kind(man) == Kind::Promoted {
                for n in Nature::ALL {
                    if var(man, n).is_some_and(|v| self.sat.value(v)) {
                        *slot = n as u8;
                    }
                }
            }
        }
        true
    }

    fn world_has(&self, lit: Lit) -> bool {
        // The literal's variable names a man and nature; decode it through the layout.
        let v = lit.var();
        let (man, nature) = decode(v);
        let holds = self.world[man.color() as usize][man.index()] == nature as u8;
        holds != lit.is_neg()
    }

    /// Judges `mv` for the side to move without playing it.
    pub fn judge(&mut self, mv: Move) -> Judgement {
        match self.assume_move(mv) {
            Setup::Refused(why) => Judgement::Illegal(why),
            Setup::Ready { man, allowed } => {
                if self.find_king(mv, man, allowed).is_some() {
                    Judgement::Legal
                } else {
                    Judgement::Illegal(Refusal::NoWorld)
                }
            }
        }
    }

    /// Checks what needs no solver and leaves in `self.assumed[..self.base]` the literals the
    /// move itself requires: the mover has a nature that moves so, the captured man is not
    /// the king.
    fn assume_move(&mut self, mv: Move) -> Setup {
        if self.ending.is_some() {
            return Setup::Refused(Refusal::GameOver);
        }
        let turn = self.board.turn();
        let Some(man) = self.board.man_at(mv.from).filter(|m| m.color() == turn) else {
            return Setup::Refused(Refusal::NotYourMan);
        };
        if self.board.occupied_by(turn).contains(mv.to) {
            return Setup::Refused(Refusal::OwnMan);
        }
        self.assumed.clear();
        let possible = self.possible_natures(man);
        let allowed = match self.board.kind(man) {
            Kind::Pawn => {
                let own = self.board.occupied_by(turn);
                let enemy = self.board.occupied_by(!turn);
                if !pawn_targets(turn, mv.from, own, enemy).contains(mv.to) {
                    return Setup::Refused(Refusal::NoNature);
                }
                NatureSet::EMPTY
            }
            Kind::BackRank | Kind::Promoted => {
                let allowed = natures_reaching(possible, mv.from, mv.to, self.board.occupied());
                if allowed.is_empty() {
                    return Setup::Refused(Refusal::NoNature);
                }
                for n in possible.iter().filter(|&n| !allowed.contains(n)) {
                    self.assumed.extend(is(man, n).map(|l| !l));
                }
                allowed
            }
        };
        if let Some(captured) = self.board.man_at(mv.to)
            && captured.is_back_rank()
        {
            self.assumed
                .push(!Lit::pos(var(captured, Nature::King).unwrap_or(0)));
        }
        self.base = self.assumed.len();
        Setup::Ready { man, allowed }
    }

    /// The first of the mover's possible kings that some consistent world lets survive the
    /// move, trying the stored world's king first. On success the stored world witnesses the
    /// move, and `self.assumed` holds the assumptions for that king.
    fn find_king(&mut self, mv: Move, mover: ManId, allowed: NatureSet) -> Option<ManId> {
        let turn = self.board.turn();
        let first = (0..8u8)
            .filter_map(|i| ManId::new(turn, i))
            .find(|&k| self.a_world(k) == Some(Nature::King));
        let order = first.into_iter().chain(
            (0..8u8)
                .filter_map(|i| ManId::new(turn, i))
                .filter(|&k| Some(k) != first),
        );
        for king in order {
            if !self.possible_natures(king).contains(Nature::King)
                || (king == mover && !allowed.contains(Nature::King))
            {
                continue;
            }
            let Some(king_sq) = (if king == mover {
                Some(mv.to)
            } else {
                self.board.square_of(king)
            }) else {
                continue;
            };
            self.assumed.truncate(self.base);
            self.assumed
                .push(Lit::pos(var(king, Nature::King).unwrap_or(0)));
            if !self.assume_safe(king_sq, Some(mv)) {
                continue;
            }
            let fits = self.shortcut && {
                let assumed = &self.assumed;
                assumed.iter().all(|&l| self.world_has(l))
            };
            if fits {
                return Some(king);
            }
            let assumed = std::mem::take(&mut self.assumed);
            let sat = self.solve_assumed(&assumed);
            self.assumed = assumed;
            if sat {
                return Some(king);
            }
        }
        None
    }

    /// Pushes onto `self.assumed` the literals saying no enemy man attacks `king_sq` after `mv`
    /// (or now, for `None`); returns `false` when an enemy pawn or a man whose every possible
    /// nature attacks it does, whatever the natures.
    fn assume_safe(&mut self, king_sq: Square, mv: Option<Move>) -> bool {
        let turn = self.board.turn();
        let mut occupied = self.board.occupied();
        if let Some(mv) = mv {
            occupied.discard(mv.from);
            occupied.add(mv.to);
        }
        for (enemy, sq) in self.board.men(!turn) {
            if mv.is_some_and(|m| m.to == sq) {
                continue;
            }
            match self.board.kind(enemy) {
                Kind::Pawn => {
                    if pawn_attacks(!turn, sq).contains(king_sq) {
                        return false;
                    }
                }
                Kind::BackRank | Kind::Promoted => {
                    let possible = self.possible_natures(enemy);
                    let mut all = true;
                    for n in possible.iter() {
                        if reach(n, sq, occupied).contains(king_sq) {
                            self.assumed.extend(is(enemy, n).map(|l| !l));
                        } else {
                            all = false;
                        }
                    }
                    if all {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Judges `mv` and, when legal, plays it: adds its clauses for good, updates the possible
    /// natures and decides whether the game has ended.
    pub fn play(&mut self, mv: Move) -> Judgement {
        let (man, allowed) = match self.assume_move(mv) {
            Setup::Refused(why) => return Judgement::Illegal(why),
            Setup::Ready { man, allowed } => (man, allowed),
        };
        if self.find_king(mv, man, allowed).is_none() {
            return Judgement::Illegal(Refusal::NoWorld);
        }
        // The stored world witnesses the move and satisfies every clause added below.
        for i in 0..self.base {
            let lit = self.assumed[i];
            self.sat.add_clause(&[lit]);
        }
        self.add_check_clauses(mv);
        let turn = self.board.turn();
        let played = self.board.play(mv);
        debug_assert!(played.is_some());
        if let Some(p) = played
            && p.promotion
        {
            self.possible[turn as usize][man.index()] = NatureSet::PROMOTED;
            // The promoted man's nature is free so far: take any for the stored world.
            self.world[turn as usize][man.index()] = Nature::Queen as u8;
            if !self.solve_assumed(&[]) {
                debug_assert!(false, "a legal move keeps a world");
            }
        }
        self.moves.push(mv);
        self.refresh_possible();
        self.ending = self.decide_ending();
        Judgement::Legal
    }

    /// For every man of the mover that may be the king: if that man is the king, no enemy man
    /// attacks it after `mv`.
    fn add_check_clauses(&mut self, mv: Move) {
        let turn = self.board.turn();
        let mut occupied = self.board.occupied();
        occupied.discard(mv.from);
        occupied.add(mv.to);
        for k in 0..8u8 {
            let Some(king) = ManId::new(turn, k) else {
                continue;
            };
            if !self.possible_natures(king).contains(Nature::King) {
                continue;
            }
            let Some(king_sq) = (if self.board.man_at(mv.from) == Some(king) {
                Some(mv.to)
            } else {
                self.board.square_of(king)
            }) else {
                continue;
            };
            let king_lit = Lit::pos(var(king, Nature::King).unwrap_or(0));
            for (enemy, sq) in self.board.men(!turn) {
                if sq == mv.to {
                    continue;
                }
                match self.board.kind(enemy) {
                    Kind::Pawn => {
                        if pawn_attacks(!turn, sq).contains(king_sq) {
                            self.sat.add_clause(&[!king_lit]);
                        }
                    }
                    Kind::BackRank | Kind::Promoted => {
                        for n in self.possible_natures(enemy).iter() {
                            let bit = 1u8 << n as u8;
                            let seen =
                                &mut self.pairs[turn as usize][usize::from(k)][enemy.index()];
                            if *seen & bit == 0 && reach(n, sq, occupied).contains(king_sq) {
                                *seen |= bit;
                                if let Some(l) = is(enemy, n) {
                                    self.sat.add_clause(&[!king_lit, !l]);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Recomputes the exact possible natures of every man, one solver call per nature not
    /// already seen in a world.
    fn refresh_possible(&mut self) {
        let mut seen = [[NatureSet::EMPTY; 16]; 2];
        self.mark_world(&mut seen);
        for man in ManId::all() {
            let (c, i) = (man.color() as usize, man.index());
            for n in self.possible[c][i].iter() {
                if seen[c][i].contains(n) {
                    continue;
                }
                let Some(lit) = is(man, n) else { continue };
                if self.solve_assumed(&[lit]) {
                    self.mark_world(&mut seen);
                } else {
                    self.possible[c][i] = self.possible[c][i].without(n);
                    // Known for good: tell the solver too.
                    self.sat.add_clause(&[!lit]);
                }
            }
        }
    }

    fn mark_world(&self, seen: &mut [[NatureSet; 16]; 2]) {
        for man in ManId::all() {
            if let Some(n) = self.a_world(man) {
                let slot = &mut seen[man.color() as usize][man.index()];
                *slot = slot.with(n);
            }
        }
    }

    /// Appends to `out` every legal move of the side to move (none once the game is over).
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        self.for_each_candidate(|umpire, mv| {
            if umpire.judge(mv).is_legal() {
                out.push(mv);
            }
            true
        });
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut found = false;
        self.for_each_candidate(|umpire, mv| {
            found = umpire.judge(mv).is_legal();
            !found
        });
        found
    }

    /// Calls `f` with every move of the side to move that some possible nature of the man
    /// makes geometrically possible, the stored world's nature first, until `f` says stop.
    fn for_each_candidate(&mut self, mut f: impl FnMut(&mut Self, Move) -> bool) {
        if self.ending.is_some() {
            return;
        }
        let turn = self.board.turn();
        let own = self.board.occupied_by(turn);
        let enemy = self.board.occupied_by(!turn);
        let mut men = [(ManId::back_rank(turn, shakmaty::File::A), Square::A1); 16];
        let mut count = 0;
        for (man, sq) in self.board.men(turn) {
            men[count] = (man, sq);
            count += 1;
        }
        for &(man, from) in &men[..count] {
            let targets = match self.board.kind(man) {
                Kind::Pawn => pawn_targets(turn, from, own, enemy),
                Kind::BackRank | Kind::Promoted => {
                    let first = self
                        .a_world(man)
                        .map_or(Bitboard::EMPTY, |n| reach(n, from, own | enemy));
                    let all = self
                        .possible_natures(man)
                        .iter()
                        .fold(Bitboard::EMPTY, |b, n| b | reach(n, from, own | enemy));
                    // The stored world's moves first: they are legal without solving.
                    for to in first & !own {
                        if !f(self, Move { from, to }) {
                            return;
                        }
                    }
                    all & !own & !first
                }
            };
            for to in targets {
                if !f(self, Move { from, to }) {
                    return;
                }
            }
        }
    }

    /// Whether the side to move is in check in every, some or no consistent world.
    pub fn check_status(&mut self) -> CheckStatus {
        let turn = self.board.turn();
        let mut safe_somewhere = false;
        let mut checked_somewhere = false;
        for k in 0..8u8 {
            let Some(king) = ManId::new(turn, k) else {
                continue;
            };
            let Some(king_sq) = self.board.square_of(king) else {
                continue;
            };
            if !self.possible_natures(king).contains(Nature::King) {
                continue;
            }
            let king_lit = Lit::pos(var(king, Nature::King).unwrap_or(0));
            if !safe_somewhere {
                self.assumed.clear();
                self.assumed.push(king_lit);
                if self.assume_safe(king_sq, None) {
                    let assumed = std::mem::take(&mut self.assumed);
                    safe_somewhere = self.solve_assumed(&assumed);
                    self.assumed = assumed;
                }
            }
            if !checked_somewhere {
                checked_somewhere = self.king_attacked_somewhere(king, king_sq, king_lit);
            }
        }
        match (safe_somewhere, checked_somewhere) {
            (true, true) => CheckStatus::Sometimes,
            (false, _) => CheckStatus::Always,
            (true, false) => CheckStatus::Never,
        }
    }

    fn king_attacked_somewhere(&mut self, king: ManId, king_sq: Square, king_lit: Lit) -> bool {
        let turn = king.color();
        let occupied = self.board.occupied();
        let attackers: Vec<(ManId, Square)> = self.board.men(!turn).collect();
        for (enemy, sq) in attackers {
            match self.board.kind(enemy) {
                Kind::Pawn => {
                    if pawn_attacks(!turn, sq).contains(king_sq) && self.solve_assumed(&[king_lit])
                    {
                        return true;
                    }
                }
                Kind::BackRank | Kind::Promoted => {
                    for n in self.possible_natures(enemy).iter() {
                        if reach(n, sq, occupied).contains(king_sq)
                            && let Some(l) = is(enemy, n)
                            && self.solve_assumed(&[king_lit, l])
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    fn decide_ending(&mut self) -> Option<Ending> {
        if !self.has_legal_move() {
            let mover = self.board.turn();
            return Some(match self.check_status() {
                CheckStatus::Always => Ending {
                    winner: Some(!mover),
                    reason: EndReason::Checkmate,
                },
                CheckStatus::Never => Ending {
                    winner: None,
                    reason: EndReason::Stalemate,
                },
                CheckStatus::Sometimes => Ending {
                    winner: None,
                    reason: EndReason::UnprovenMate,
                },
            });
        }
        if self.board.quiet_plies() >= 100 {
            return Some(Ending {
                winner: None,
                reason: EndReason::FiftyMoves,
            });
        }
        None
    }

    /// The side to move resigns (nothing happens once the game is over).
    pub fn resign(&mut self) {
        if self.ending.is_none() {
            self.ending = Some(Ending {
                winner: Some(!self.board.turn()),
                reason: EndReason::Resignation,
            });
        }
    }
}

/// The man and nature of variable `v` (the inverse of [`encoding::var`]).
fn decode(v: u32) -> (ManId, Nature) {
    let (color_of, index, nature) = if v < 80 {
        (v / 40, (v % 40) / 5, Nature::ALL[(v % 5) as usize])
    } else {
        let w = v - 80;
        (w / 32, 8 + (w % 32) / 4, Nature::PROMOTED[(w % 4) as usize])
    };
    let color = if color_of == Color::White as u32 {
        Color::White
    } else {
        Color::Black
    };
    let man = ManId::new(color, index as u8).unwrap_or(ManId::back_rank(color, shakmaty::File::A));
    (man, nature)
}
