//! [`Metaposition`] (seed 001, Darkboard): one board whose squares hold *pseudopieces* — the set
//! of enemy man types that could stand there, empty included — with counters for the enemy's
//! castling rights, the fifty-move clock, the enemy men and pawns left, and the age of the
//! information on each square.
//!
//! Two ways to get one: [`Metaposition::of`] takes the union of a [`Belief`]'s held positions
//! (the tightest, while the exact set is known), and [`Metaposition::start`] plus
//! [`Metaposition::observe`] follow a player's observations alone with the paper's pseudo step
//! (our attempt and the umpire's answer, `pseudo_step.rs`) and meta step (the opponent's unseen
//! move, `meta_step.rs`), tightened by the constraints of `meta_constraints.rs`. Either way the
//! true position is always admitted ([`Metaposition::admits`]). Updates never allocate: the
//! pseudopieces are one bitboard per man type.

use serde::{Serialize, Serializer};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Position, Square};
use umpire_rules::{Announcement, CheckKind, Command, Observation, OwnBoard, RuleSet, Verdict};
use umpire_view::PlayerView;

use crate::Belief;
use crate::marginals::{MAN_TYPES, role_index};

/// Bit of the empty pseudopiece.
pub const EMPTY: u8 = 1 << 6;

/// Index of the empty pseudopiece in [`MAN_TYPES`] order.
pub(crate) const E: usize = 6;
/// Index of the king.
pub(crate) const K: usize = 5;
/// Index of the pawn.
pub(crate) const P: usize = 0;

/// A Darkboard metaposition: pseudopieces per square, the player's own men, and the counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metaposition {
    pub(crate) rules: RuleSet,
    pub(crate) enemy: Color,
    /// Per man type in [`MAN_TYPES`] order (empty last), the squares where it may stand.
    pub(crate) kinds: [Bitboard; 7],
    /// The player's own men.
    pub(crate) own: OwnBoard,
    pub(crate) men: (u8, u8),
    pub(crate) pawns: (u8, u8),
    pub(crate) castling: (bool, bool),
    pub(crate) halfmoves: Option<(u32, u32)>,
    /// Per square, plies since its pseudopieces were last a single type.
    pub(crate) age: [u16; 64],
    /// Checks announced against the player this turn.
    pub(crate) checks: [Option<CheckKind>; 2],
    /// The player's pawn that has just made a double step (the enemy may take it e.p.).
    pub(crate) double_step: Option<Square>,
    /// Whether the game began at the standard start (so every move of the enemy was seen
    /// happening).
    pub(crate) standard: bool,
}

impl Metaposition {
    /// The metaposition of a player about to follow a game from its first command: the
    /// standard start is known exactly; from a set-up position every square not holding an own
    /// man may hold any enemy man (no pawn on the first or last rank) within the told counts.
    pub fn start(view: &PlayerView) -> Metaposition {
        let rules = *view.rules();
        let own = view.own_board().clone();
        let enemy = !view.side();
        let mut kinds = [Bitboard::EMPTY; 7];
        let material = view.enemy();
        let fifty = rules.fifty_moves;
        let halfmoves;
        let castling;
        if view.standard_start() {
            let board = shakmaty::Board::new();
            for sq in Square::ALL {
                match board.piece_at(sq) {
                    Some(p) if p.color == enemy => kinds[role_index(p.role)].add(sq),
                    _ => kinds[E].add(sq),
                }
            }
            halfmoves = fifty.then_some((0, 0));
            castling = (true, true);
        } else {
            let free = !own.board().occupied();
            for k in kinds.iter_mut().take(K + 1) {
                *k = free;
            }
            kinds[P] &= !Bitboard::BACKRANKS;
            kinds[E] = Bitboard::FULL;
            halfmoves = fifty.then_some((0, u32::MAX / 2));
            castling = (true, true);
        }
        let mut meta = Metaposition {
            rules,
            enemy,
            kinds,
            own,
            men: (material.men, material.men),
            pawns: (0, material.pawns_at_most),
            castling,
            halfmoves,
            age: [0; 64],
            checks: [None; 2],
            double_step: None,
            standard: view.standard_start(),
        };
        if view.standard_start() {
            meta.pawns = (8, 8);
        }
        meta.tighten();
        for a in view.opening() {
            if let Announcement::Check(kind) = *a {
                meta.push_check(kind);
            }
        }
        if view.to_move() == view.side() {
            meta.turn_start(view.opening());
        }
        meta
    }

    /// The metaposition of the held positions (`None` if none is held).
    pub fn of(belief: &Belief) -> Option<Metaposition> {
        let enemy = !belief.side();
        let fifty = belief.rules().fifty_moves;
        let mut meta: Option<Metaposition> = None;
        for pos in belief.positions() {
            let theirs = pos.board().by_color(enemy);
            let men = theirs.count() as u8;
            let pawns = (theirs & pos.board().pawns()).count() as u8;
            let castles = pos.castles();
            let castling = (
                castles.has(enemy, CastlingSide::KingSide),
                castles.has(enemy, CastlingSide::QueenSide),
            );
            let clock = pos.halfmoves();
            let m = meta.get_or_insert_with(|| Metaposition {
                rules: *belief.rules(),
                enemy,
                kinds: [Bitboard::EMPTY; 7],
                own: OwnBoard::of(pos, !enemy),
                men: (men, men),
                pawns: (pawns, pawns),
                castling: (false, false),
                halfmoves: fifty.then_some((clock, clock)),
                age: [0; 64],
                checks: [None; 2],
                double_step: None,
                standard: false,
            });
            for sq in Square::ALL {
                m.kinds[pseudo_index(pos, enemy, sq)].add(sq);
            }
            m.men = (m.men.0.min(men), m.men.1.max(men));
            m.pawns = (m.pawns.0.min(pawns), m.pawns.1.max(pawns));
            m.castling = (m.castling.0 || castling.0, m.castling.1 || castling.1);
            m.halfmoves = m.halfmoves.map(|(lo, hi)| (lo.min(clock), hi.max(clock)));
        }
        meta
    }

    /// The intersection of two metapositions of the same player at the same moment (for
    /// instance [`Metaposition::of`] and the observation-driven one): what both admit. Where a
    /// square would be left with no pseudopiece (only if one of them is wrong) `self` is kept.
    pub fn intersect(&self, other: &Metaposition) -> Metaposition {
        let mut out = self.clone();
        for sq in Square::ALL {
            let both = self.bits(sq) & other.bits(sq);
            if both != 0 {
                out.set_bits(sq, both);
            }
        }
        out.men = (self.men.0.max(other.men.0), self.men.1.min(other.men.1));
        out.pawns = (
            self.pawns.0.max(other.pawns.0),
            self.pawns.1.min(other.pawns.1),
        );
        out.castling = (
            self.castling.0 && other.castling.0,
            self.castling.1 && other.castling.1,
        );
        out.halfmoves = match (self.halfmoves, other.halfmoves) {
            (Some(a), Some(b)) => Some((a.0.max(b.0), a.1.min(b.1))),
            (a, b) => a.or(b),
        };
        out
    }

    /// Takes in one observation of the player's (others are ignored): the pseudo step for its
    /// own attempts and "Any?" answers, the meta step for the opponent's moves.
    pub fn observe(&mut self, obs: &Observation) {
        if obs.player == self.enemy {
            return;
        }
        if obs.actor != self.enemy {
            if let Some(own) = obs.own {
                match own.command {
                    Command::Attempt(a) => self.apply_attempt(a, own.verdict, &obs.announcements),
                    Command::AskAny
                        if obs.announcements.contains(&Announcement::AnyAnswer(false)) =>
                    {
                        self.no_pawn_captures(Bitboard::EMPTY);
                    }
                    Command::AskAny
                        if obs.announcements.contains(&Announcement::AnyAnswer(true)) =>
                    {
                        self.pawn_captures_exist(1);
                        self.tighten();
                    }
                    _ => {}
                }
            }
        } else if obs.moved {
            self.opponent_moved(&obs.announcements, true);
        }
    }

    /// What the metaposition becomes after the player's `attempt` draws `verdict` and the
    /// announcements `heard` (a hypothetical pseudo step for a search; the real one is
    /// [`Metaposition::observe`]).
    pub fn after_attempt(
        &self,
        attempt: umpire_rules::Attempt,
        verdict: Verdict,
        heard: &[Announcement],
    ) -> Metaposition {
        let mut m = self.clone();
        m.apply_attempt(attempt, verdict, heard);
        m
    }

    /// What the metaposition becomes after a silent move of the opponent's (no capture, no
    /// check; a hypothetical meta step for a search).
    pub fn after_opponent_move(&self) -> Metaposition {
        let mut m = self.clone();
        m.opponent_moved(&[], false);
        m
    }

    /// Whether `pos` fits the metaposition: every square's enemy man (or emptiness) is among its
    /// pseudopieces, and the counters admit it.
    pub fn admits(&self, pos: &Chess) -> bool {
        let theirs = pos.board().by_color(self.enemy);
        let men = theirs.count() as u8;
        let pawns = (theirs & pos.board().pawns()).count() as u8;
        let castles = pos.castles();
        Square::ALL
            .into_iter()
            .all(|sq| self.kinds[pseudo_index(pos, self.enemy, sq)].contains(sq))
            && (self.men.0..=self.men.1).contains(&men)
            && (self.pawns.0..=self.pawns.1).contains(&pawns)
            && (self.castling.0 || !castles.has(self.enemy, CastlingSide::KingSide))
            && (self.castling.1 || !castles.has(self.enemy, CastlingSide::QueenSide))
            && self
                .halfmoves
                .is_none_or(|(lo, hi)| (lo..=hi).contains(&pos.halfmoves()))
    }

    /// The pseudopieces of a square as a bitfield in [`MAN_TYPES`] order (bit 6: empty).
    pub fn bits(&self, sq: Square) -> u8 {
        let mut b = 0;
        for (i, k) in self.kinds.iter().enumerate() {
            if k.contains(sq) {
                b |= 1 << i;
            }
        }
        b
    }

    pub(crate) fn set_bits(&mut self, sq: Square, bits: u8) {
        for (i, k) in self.kinds.iter_mut().enumerate() {
            k.set(sq, bits & (1 << i) != 0);
        }
    }

    /// The pseudopieces of every square (a1 = 0 … h8 = 63).
    pub fn squares(&self) -> [u8; 64] {
        let mut out = [0; 64];
        for sq in Square::ALL {
            out[usize::from(sq)] = self.bits(sq);
        }
        out
    }

    /// The squares where the man type of index `i` ([`MAN_TYPES`] order, 6 = empty) may stand.
    pub fn possible(&self, i: usize) -> Bitboard {
        self.kinds[i]
    }

    /// The squares where some enemy man may stand.
    pub fn maybe_enemy(&self) -> Bitboard {
        self.kinds[..E].iter().fold(Bitboard::EMPTY, |a, &b| a | b)
    }

    /// The squares certainly holding an enemy man.
    pub fn surely_enemy(&self) -> Bitboard {
        self.maybe_enemy() & !self.kinds[E]
    }

    /// The squares certainly free of enemy men (own men included).
    pub fn surely_free(&self) -> Bitboard {
        !self.maybe_enemy()
    }

    /// The enemy's colour.
    pub fn enemy(&self) -> Color {
        self.enemy
    }

    /// The player's own men.
    pub fn own(&self) -> &OwnBoard {
        &self.own
    }

    /// Fewest and most enemy men on the board.
    pub fn men(&self) -> (u8, u8) {
        self.men
    }

    /// Fewest and most enemy pawns on the board.
    pub fn pawns(&self) -> (u8, u8) {
        self.pawns
    }

    /// Whether the enemy may still castle king side, queen side.
    pub fn castling(&self) -> (bool, bool) {
        self.castling
    }

    /// Smallest and largest halfmove clock, where the fifty-move rule is in force.
    pub fn halfmoves(&self) -> Option<(u32, u32)> {
        self.halfmoves
    }

    /// Plies since the pseudopieces of `sq` were last a single type (the age of information).
    pub fn age(&self, sq: Square) -> u16 {
        self.age[usize::from(sq)]
    }

    /// The checks announced against the player this turn.
    pub fn checks(&self) -> impl Iterator<Item = CheckKind> + '_ {
        self.checks.iter().flatten().copied()
    }

    /// Chessboard entropy (seed 001): the sum over squares of log2 of the number of
    /// pseudopieces there; 0 when everything is known.
    pub fn entropy(&self) -> f64 {
        const LOG2: [f64; 8] = [0.0, 0.0, 1.0, 1.585, 2.0, 2.322, 2.585, 2.807];
        Square::ALL
            .into_iter()
            .map(|sq| LOG2[self.bits(sq).count_ones() as usize])
            .sum()
    }

    /// The pseudopieces of a square as names (`["pawn", "empty"]`).
    pub fn names(&self, sq: Square) -> Vec<&'static str> {
        let bits = self.bits(sq);
        (0..7)
            .filter(|i| bits & (1 << i) != 0)
            .map(|i| MAN_TYPES[i])
            .collect()
    }

    pub(crate) fn push_check(&mut self, kind: CheckKind) {
        if self.checks[0].is_none() {
            self.checks[0] = Some(kind);
        } else {
            self.checks[1] = Some(kind);
        }
    }
}

/// The JSON form: `squares` (64 bitfields), `men`, `pawns`, `castling`, `halfmoves`.
impl Serialize for Metaposition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json {
            squares: Vec<u8>,
            men: (u8, u8),
            pawns: (u8, u8),
            castling: (bool, bool),
            halfmoves: Option<(u32, u32)>,
        }
        Json {
            squares: self.squares().to_vec(),
            men: self.men,
            pawns: self.pawns,
            castling: self.castling,
            halfmoves: self.halfmoves,
        }
        .serialize(s)
    }
}

/// The pseudopiece index of what stands on `sq` for the enemy (its man type, or empty).
fn pseudo_index(pos: &Chess, enemy: Color, sq: Square) -> usize {
    match pos.board().piece_at(sq) {
        Some(p) if p.color == enemy => role_index(p.role),
        _ => E,
    }
}
