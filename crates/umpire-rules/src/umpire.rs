//! The referee: [`Umpire`] owns the true position and judges every command.

use arrayvec::ArrayVec;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, MoveList, Position,
    PositionError, Role, Square, attacks, fen::Fen, zobrist::Zobrist64,
};

use crate::legality::{has_legal_move, is_legal};
use crate::outcome::push;
use crate::{
    Announcement, Announcements, AnyObligation, Attempt, AttemptList, Audience, CheckKind, Command,
    EndReason, GameResult, Invalid, MAX_ATTEMPTS, Man, Outcome, OwnBoard, PawnCaptureInfo, RuleSet,
    StalemateRule, Verdict,
};

/// A start position that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Not FEN.
    #[error("not a FEN: {0}")]
    Fen(#[from] shakmaty::fen::ParseFenError),
    /// FEN of an impossible position.
    #[error("not a legal chess position: {0}")]
    Position(String),
    /// The side to move has no legal move: the game could not start.
    #[error("the side to move has no legal move in this position")]
    NoMove,
}

impl From<PositionError<Chess>> for SetupError {
    fn from(e: PositionError<Chess>) -> SetupError {
        SetupError::Position(e.to_string())
    }
}

/// Where the mover stands with the "Any?" question this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnyState {
    NotAsked,
    AnsweredNo,
    Obliged,
    Released,
}

/// The umpire: sees everything, owns the true position, and answers every command with an
/// [`Outcome`].
///
/// ```
/// use umpire_rules::{Attempt, Command, RuleSet, Umpire, Verdict};
///
/// let mut umpire = Umpire::new(RuleSet::WILD16);
/// let outcome = umpire.submit(Command::Attempt("e2e4".parse().unwrap()));
/// assert_eq!(outcome.verdict, Verdict::Accepted);
/// let outcome = umpire.submit(Command::Attempt("e7e4".parse().unwrap()));
/// assert_eq!(outcome.verdict, Verdict::Impossible);
/// ```
///
/// Judging an attempt never allocates; [`Clone::clone_from`] into an umpire kept for the
/// purpose does not either (it reuses the repetition history's buffer), where `clone` allocates
/// once.
#[derive(Debug)]
pub struct Umpire {
    rules: RuleSet,
    pos: Chess,
    /// The mover's own board (recomputed once per move).
    own: OwnBoard,
    /// Whether the side to move has a legal move.
    has_legal: bool,
    /// The enemy men giving check to the side to move.
    checkers: Bitboard,
    /// Distinct legal pawn captures of the side to move (a promotion-capture counted once).
    pawn_tries: u8,
    /// Squares of the pawns of the side to move that have a legal capture.
    try_squares: Bitboard,
    rejected: ArrayVec<Attempt, MAX_ATTEMPTS>,
    any: AnyState,
    attempted: bool,
    offered: bool,
    pending_offer: Option<Color>,
    hash: Zobrist64,
    history: Vec<Zobrist64>,
    result: Option<GameResult>,
    plies: u32,
}

impl Clone for Umpire {
    fn clone(&self) -> Umpire {
        Umpire {
            pos: self.pos.clone(),
            own: self.own.clone(),
            rejected: self.rejected.iter().copied().collect(),
            history: self.history.clone(),
            ..*self
        }
    }

    /// Copies `source` into `self` without allocating where `self`'s repetition history has
    /// room, and copying only the rejected attempts held (a plain `clone` moves the whole
    /// fixed-capacity list).
    fn clone_from(&mut self, source: &Umpire) {
        // Every field is named: a new field fails to compile here until it is copied.
        let Umpire {
            rules,
            pos,
            own,
            has_legal,
            checkers,
            pawn_tries,
            try_squares,
            rejected,
            any,
            attempted,
            offered,
            pending_offer,
            hash,
            history,
            result,
            plies,
        } = source;
        self.rules = *rules;
        self.pos.clone_from(pos);
        self.own.clone_from(own);
        self.has_legal = *has_legal;
        self.checkers = *checkers;
        self.pawn_tries = *pawn_tries;
        self.try_squares = *try_squares;
        self.rejected.clear();
        self.rejected.extend(rejected.iter().copied());
        self.any = *any;
        self.attempted = *attempted;
        self.offered = *offered;
        self.pending_offer = *pending_offer;
        self.hash = *hash;
        self.history.clone_from(history);
        self.result = *result;
        self.plies = *plies;
    }
}

impl Umpire {
    /// A game from the standard start position.
    pub fn new(rules: RuleSet) -> Umpire {
        Umpire::from_position(rules, Chess::default()).expect("the start position has moves")
    }

    /// A game from a FEN.
    pub fn from_fen(rules: RuleSet, fen: &str) -> Result<Umpire, SetupError> {
        let fen: Fen = fen.trim().parse()?;
        let pos = Chess::from_setup(fen.into_setup(), CastlingMode::Standard)?;
        Umpire::from_position(rules, pos)
    }

    /// A game from a position. Fails if the side to move has no legal move.
    pub fn from_position(rules: RuleSet, pos: Chess) -> Result<Umpire, SetupError> {
        if pos.legal_moves().is_empty() {
            return Err(SetupError::NoMove);
        }
        Ok(Umpire::set_up(rules, pos, Vec::with_capacity(128)))
    }

    /// The umpire of a game from `pos`, its repetition history kept in `history`'s buffer
    /// (cleared first). If the side to move has no legal move, `has_legal` is false.
    fn set_up(rules: RuleSet, pos: Chess, history: Vec<Zobrist64>) -> Umpire {
        let mut umpire = Umpire {
            rules,
            own: OwnBoard::of(&pos, pos.turn()),
            pos,
            has_legal: true,
            checkers: Bitboard::EMPTY,
            pawn_tries: 0,
            try_squares: Bitboard::EMPTY,
            rejected: ArrayVec::new(),
            any: AnyState::NotAsked,
            attempted: false,
            offered: false,
            pending_offer: None,
            hash: Zobrist64(0),
            history,
            result: None,
            plies: 0,
        };
        umpire.start_game();
        umpire
    }

    /// Starts the game from the position held: the repetition history (cleared first), the
    /// analysis of the position and an automatic end. The other fields must be those of a
    /// game's start ([`Umpire::set_up`], [`Umpire::reset_to`]).
    fn start_game(&mut self) {
        // The hash serves the repetition draw only: where that is not in force it is not
        // computed (a belief builds an umpire per hypothesis and command) and the repetition
        // history stays empty.
        self.history.clear();
        self.hash = if self.rules.threefold_repetition {
            let hash = self.pos.zobrist_hash(EnPassantMode::Legal);
            self.history.push(hash);
            hash
        } else {
            Zobrist64(0)
        };
        self.analyse();
        if self.has_legal
            && let Some(result) = self.automatic_end()
        {
            self.result = Some(result);
        }
    }

    /// Makes this umpire judge a game from `pos` under `rules`, exactly as
    /// [`Umpire::from_position`] would build it, reusing its buffers: once its repetition
    /// history has room this allocates nothing, and no list of legal moves is generated (the
    /// analysis of the position tells whether the side to move has one). The fields are set in
    /// place (no new umpire is built and moved in: the list of rejected attempts alone is over
    /// a kilobyte). Fails if the side to move has no legal move; the umpire then holds `pos`
    /// but must be reset again before judging anything.
    pub fn reset_to(&mut self, rules: RuleSet, pos: &Chess) -> Result<(), SetupError> {
        // Every field is named: a new field fails to compile here until it is reset.
        let Umpire {
            rules: r,
            pos: p,
            own,
            has_legal,
            checkers,
            pawn_tries,
            try_squares,
            rejected,
            any,
            attempted,
            offered,
            pending_offer,
            hash: _,
            history: _,
            result,
            plies,
        } = self;
        *r = rules;
        p.clone_from(pos);
        *own = OwnBoard::of(pos, pos.turn());
        *has_legal = true;
        *checkers = Bitboard::EMPTY;
        *pawn_tries = 0;
        *try_squares = Bitboard::EMPTY;
        rejected.clear();
        *any = AnyState::NotAsked;
        *attempted = false;
        *offered = false;
        *pending_offer = None;
        *result = None;
        *plies = 0;
        // The hash and the repetition history are set here.
        self.start_game();
        if self.has_legal {
            Ok(())
        } else {
            Err(SetupError::NoMove)
        }
    }

    /// The rule set in force.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The true position. Referee information: never give it to a player.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Number of moves played (plies).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The own board of the side to move: what the mover sees.
    pub fn own_board(&self) -> &OwnBoard {
        &self.own
    }

    /// Whether the side to move has a legal move (from the analysis made once per move, no
    /// move list generated). Referee information.
    pub fn has_legal_move(&self) -> bool {
        self.has_legal
    }

    /// The legal moves of the side to move. Referee information.
    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    /// Works out, once per move, what the umpire announces about the side to move: whether it
    /// has a legal move, and its legal pawn captures.
    fn analyse(&mut self) {
        let turn = self.turn();
        self.checkers = self.pos.checkers();
        let mut targets = self.pos.them();
        if let Some(ep) = self.pos.maybe_ep_square() {
            targets.add(ep);
        }
        let mut candidates = Bitboard::EMPTY;
        for pawn in self.pos.our(Role::Pawn) {
            candidates |= attacks::pawn_attacks(turn, pawn) & targets;
        }
        let mut tries = 0u8;
        let mut try_squares = Bitboard::EMPTY;
        let ep = self.pos.maybe_ep_square();
        let board = self.pos.board();
        for to in candidates {
            for from in attacks::pawn_attacks(!turn, to) & self.pos.our(Role::Pawn) {
                let m = if Some(to) == ep {
                    Move::EnPassant { from, to }
                } else {
                    let promotion = (to.rank()
                        == turn.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First))
                    .then_some(Role::Queen);
                    Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion,
                    }
                };
                if is_legal(&self.pos, self.checkers, m) {
                    tries += 1;
                    try_squares.add(from);
                }
            }
        }
        self.pawn_tries = tries;
        self.try_squares = try_squares;
        self.has_legal = tries > 0 || has_legal_move(&self.pos, self.checkers);
    }

    /// Whether the mover must attempt pawn captures now (after "yes" to "Any?"). The mover knows it.
    pub fn must_try_pawn_capture(&self) -> bool {
        self.any == AnyState::Obliged
    }

    /// What the mover may still say this turn, from what the mover knows (own board,
    /// attempts already rejected this turn, the answer to "Any?"): every attempt possible on
    /// its own board and not yet rejected, restricted to pawn captures while an "Any?" obliges
    /// it. Appends to `out`; returns whether "Any?" may be asked as well.
    pub fn mover_options(&self, out: &mut AttemptList) -> bool {
        if self.is_over() {
            return false;
        }
        let own = &self.own;
        let start = out.len();
        own.attempts(self.rules.promotion_always_queen, out);
        if self.rejected.is_empty() && self.any == AnyState::NotAsked {
            return self.rules.has_any_question();
        }
        let mut i = start;
        while i < out.len() {
            let a = out[i];
            let pawn_capture = own.is_pawn_capture(a);
            let keep = !self.rejected.contains(&a)
                && match self.any {
                    AnyState::Obliged => pawn_capture,
                    AnyState::AnsweredNo => !pawn_capture,
                    AnyState::NotAsked | AnyState::Released => true,
                };
            if keep {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
        self.rules.has_any_question() && self.any == AnyState::NotAsked
    }

    /// The announcements made before the first command: check and pawn-capture information
    /// for the side to move (non-empty only for set-up positions), or the result if the
    /// position is already drawn.
    pub fn opening_announcements(&self) -> Announcements {
        let mut list = Announcements::new();
        self.announce_checks(&mut list);
        match self.result {
            Some(result) => push(&mut list, Audience::Both, Announcement::GameOver(result)),
            None => self.announce_pawn_info(&mut list),
        }
        list
    }

    /// Judges one command of the side to move (for [`Command::AcceptDraw`] and
    /// [`Command::DeclineDraw`], of the side the offer was made to). Where the author of a
    /// command is not implied by its context (one console for both players), use
    /// [`Umpire::submit_as`], which refuses an answer to one's own draw offer.
    pub fn submit(&mut self, command: Command) -> Outcome {
        match command {
            Command::Attempt(a) => self.attempt(a),
            Command::AskAny => self.ask_any(),
            Command::OfferDraw => self.offer_draw(),
            Command::AcceptDraw => self.answer_draw(true),
            Command::DeclineDraw => self.answer_draw(false),
            Command::Resign => self.resign(self.turn()),
            Command::FlagFall => self.flag_fall(self.turn()),
            Command::Abandon => self.abandon(self.turn()),
            Command::Abort => self.abort(self.turn()),
        }
    }

    /// Judges `command` given by `side`, whoever that is: the way to judge commands whose
    /// author is not implied (a console both players type at). A command of the side not to
    /// move is refused ([`Invalid::NotYourTurn`]), except a resignation (either side may resign
    /// at any time), an end declared for `side` (flag fall, abandonment, abort) and an answer
    /// to a draw offer made to `side`; an answer to `side`'s own offer is refused
    /// ([`Invalid::OwnDrawOffer`]).
    pub fn submit_as(&mut self, side: Color, command: Command) -> Outcome {
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        match command {
            Command::Resign => self.resign(side),
            Command::FlagFall => self.flag_fall(side),
            Command::Abandon => self.abandon(side),
            Command::Abort => self.abort(side),
            Command::AcceptDraw | Command::DeclineDraw => match self.pending_offer {
                Some(offerer) if offerer == side => {
                    Outcome::silent(side, Verdict::Invalid(Invalid::OwnDrawOffer))
                }
                Some(_) => self.answer_draw(command == Command::AcceptDraw),
                None => Outcome::silent(side, Verdict::Invalid(Invalid::NoDrawOffer)),
            },
            _ if side != self.turn() => {
                Outcome::silent(side, Verdict::Invalid(Invalid::NotYourTurn))
            }
            _ => self.submit(command),
        }
    }

    /// The side that gives `command` now under [`Umpire::submit`]: the side to move, except
    /// that a draw offer is answered by the side it was made to.
    pub fn actor(&self, command: Command) -> Color {
        match (command, self.pending_offer) {
            (Command::AcceptDraw | Command::DeclineDraw, Some(offerer)) => !offerer,
            _ => self.turn(),
        }
    }

    /// Judges an attempt by the side to move.
    pub fn attempt(&mut self, attempt: Attempt) -> Outcome {
        let side = self.turn();
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        let attempt = self.normalize(attempt);
        let pawn_capture = self.own.is_pawn_capture(attempt);
        if self.any == AnyState::Obliged && !pawn_capture {
            return Outcome::silent(side, Verdict::Invalid(Invalid::MustTryPawnCapture));
        }
        let mut out = Outcome::silent(side, Verdict::Illegal);
        self.attempted = true;

        if self.rejected.contains(&attempt) {
            if self.rules.repeat_announced {
                out.verdict = Verdict::Repeat;
                push(
                    &mut out.announcements,
                    self.rules.illegal.audience,
                    Announcement::Repeat,
                );
                return out;
            }
            return self.impossible(out);
        }
        if !self
            .own
            .is_possible(attempt, self.rules.promotion_always_queen)
            || self.ruled_out(attempt, pawn_capture)
        {
            return self.impossible(out);
        }
        let m = self.to_move(attempt);
        if !is_legal(&self.pos, self.checkers, m) {
            let _ = self.rejected.try_push(attempt);
            if self.any == AnyState::Obliged
                && self.rules.pawn_captures == PawnCaptureInfo::AskAny(AnyObligation::OneTry)
            {
                self.any = AnyState::Released;
            }
            push(
                &mut out.announcements,
                self.rules.illegal.audience,
                self.rebuff_word(self.rules.illegal.said_as_impossible),
            );
            return out;
        }
        out.verdict = Verdict::Accepted;
        // A waiting offer lapses only now, with the move the offerer hears anyway: a lapse at
        // a rejected attempt would tell the offerer that an attempt failed.
        self.lapse_offer(&mut out.announcements);
        self.play(m, &mut out.announcements);
        out
    }

    /// Judges the attempt of `m`, one of [`Umpire::legal_moves`] in the position held, exactly
    /// as [`Umpire::attempt`] judges `Attempt::from_move(m)` (the same outcome, the umpire left
    /// in the same state), without the checks a legal move passes anyway: that the mover's own
    /// board allows it, that no announcement of this turn rules it out (only ever true of
    /// attempts that cannot be legal) and its legality. What can still refuse a legal move is
    /// kept: the game's end, an obligation to try pawn captures, and (left to
    /// [`Umpire::attempt`]) an underpromotion where every promotion is to a queen. The move is
    /// played as `attempt` would rebuild it. A move whose man does not stand on its square goes
    /// to [`Umpire::attempt`]; any other move that is not legal here may be accepted (the
    /// caller's promise is broken, the umpire holds the position shakmaty plays it to). For a
    /// belief that judges every legal move of a hypothesis.
    pub fn attempt_legal(&mut self, m: &Move) -> Outcome {
        let mut outcome = None;
        self.attempt_legal_if(m, |out| {
            outcome = Some(out.clone());
            true
        });
        outcome.unwrap_or_else(|| Outcome::silent(self.turn(), Verdict::GameOver))
    }

    /// Judges `m` as [`Umpire::attempt_legal`] does and shows the outcome to `wanted`; returns
    /// its answer. Where it answers no, the umpire's state is left unfinished (the new mover's
    /// own board is not set, sparing that work for outcomes a caller throws away): it must be
    /// reset ([`Umpire::reset_to`], [`Clone::clone_from`]) before it judges anything else. For
    /// a belief that judges every legal move of a hypothesis and keeps the few that tell the
    /// player what it heard.
    pub fn attempt_legal_if(&mut self, m: &Move, wanted: impl FnOnce(&Outcome) -> bool) -> bool {
        let side = self.turn();
        if self.is_over() {
            return wanted(&Outcome::silent(side, Verdict::GameOver));
        }
        let Some(attempt) = Attempt::from_move(m) else {
            return wanted(&Outcome::silent(side, Verdict::Impossible));
        };
        let under = m.promotion().is_some_and(|r| r != Role::Queen);
        let stands = self.pos.board().piece_at(attempt.from) == Some(m.role().of(side));
        if !stands || (under && self.rules.promotion_always_queen) {
            // Not a move of the position, or refused as impossible (an underpromotion where
            // every promotion is to a queen): the full judgement.
            let out = self.attempt(attempt);
            return wanted(&out);
        }
        // A generated move keeps its promotion piece: `normalize` would change nothing.
        let pawn_capture = self.own.is_pawn_capture(attempt);
        if self.any == AnyState::Obliged && !pawn_capture {
            return wanted(&Outcome::silent(
                side,
                Verdict::Invalid(Invalid::MustTryPawnCapture),
            ));
        }
        // A legal move is never among this turn's rejected attempts (they were illegal in the
        // same position), its own board allows it and nothing heard rules it out.
        self.attempted = true;
        let mut out = Outcome::silent(side, Verdict::Accepted);
        self.lapse_offer(&mut out.announcements);
        let m = self.to_move(attempt);
        self.play_judged(m, &mut out.announcements);
        if !wanted(&out) {
            return false;
        }
        self.own = OwnBoard::of(&self.pos, self.turn());
        true
    }

    /// Whether the mover's attempt would be answered "impossible" from what the mover heard
    /// this turn alone (a pawn capture after "no" to "Any?" or, where the rule set binds it,
    /// when no capture was announced; under `check_binds`, a move that cannot answer the
    /// announced check). A player's view leaves such attempts out of its options.
    pub fn rules_out(&self, attempt: Attempt) -> bool {
        self.ruled_out(attempt, self.own.is_pawn_capture(attempt))
    }

    /// Whether the announcements the mover heard this turn rule the attempt out, where the rule
    /// set says so. Only ever true for attempts that cannot be legal.
    fn ruled_out(&self, attempt: Attempt, pawn_capture: bool) -> bool {
        if pawn_capture {
            if self.any == AnyState::AnsweredNo {
                return true;
            }
            if self.rules.pawn_info_binds {
                let ruled_out = match self.rules.pawn_captures {
                    PawnCaptureInfo::Count | PawnCaptureInfo::YesNo => self.pawn_tries == 0,
                    PawnCaptureInfo::TrySquares => !self.try_squares.contains(attempt.from),
                    PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => false,
                };
                if ruled_out {
                    return true;
                }
            }
        }
        self.rules.check_binds && !self.answers_check(attempt)
    }

    /// Whether an attempt could answer the announced check(s), judged only from what the mover
    /// heard: a king move always could; in a double check nothing else could; in a single check
    /// another man must land on the announced line through the king (or, for a pawn capture
    /// that may be en passant, remove a pawn standing on it), and castling never could.
    fn answers_check(&self, attempt: Attempt) -> bool {
        let checkers = self.checkers;
        if checkers.is_empty() {
            return true;
        }
        let Some(king) = self.own.board().kings().first() else {
            return true;
        };
        if attempt.from == king {
            return attempt.from.distance(attempt.to) == 1;
        }
        let mut kinds = checkers.into_iter().map(|c| CheckKind::classify(c, king));
        let (Some(kind), None) = (kinds.next(), kinds.next()) else {
            return false;
        };
        let line = CheckKind::line(kind, king);
        if line.contains(attempt.to) {
            return true;
        }
        let pawn = self.own.board().pawns().contains(attempt.from);
        let passed = Square::from_coords(attempt.to.file(), attempt.from.rank());
        pawn && self.own.is_pawn_capture(attempt) && line.contains(passed)
    }

    fn rebuff_word(&self, said_as_impossible: bool) -> Announcement {
        if said_as_impossible {
            Announcement::Impossible
        } else {
            Announcement::Illegal
        }
    }

    fn impossible(&self, mut out: Outcome) -> Outcome {
        out.verdict = Verdict::Impossible;
        let rebuff = self.rules.impossible;
        push(
            &mut out.announcements,
            rebuff.audience,
            self.rebuff_word(rebuff.said_as_impossible),
        );
        out
    }

    /// Under always-queen rules, a pawn reaching the last rank without a piece named promotes to a queen.
    fn normalize(&self, a: Attempt) -> Attempt {
        if self.rules.promotion_always_queen
            && a.promotion.is_none()
            && self.pos.our(Role::Pawn).contains(a.from)
            && a.to.rank()
                == self
                    .turn()
                    .fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First)
        {
            Attempt {
                promotion: Some(Role::Queen),
                ..a
            }
        } else {
            a
        }
    }

    /// The chess move of an attempt known to be legal.
    fn to_move(&self, a: Attempt) -> Move {
        let board = self.pos.board();
        let role = board.role_at(a.from).unwrap_or(Role::Pawn);
        if role == Role::King && a.from.distance(a.to) == 2 && a.from.rank() == a.to.rank() {
            let rook_file = if a.to.file() > a.from.file() {
                shakmaty::File::H
            } else {
                shakmaty::File::A
            };
            return Move::Castle {
                king: a.from,
                rook: Square::from_coords(rook_file, a.from.rank()),
            };
        }
        if role == Role::Pawn && a.from.file() != a.to.file() && !board.occupied().contains(a.to) {
            return Move::EnPassant {
                from: a.from,
                to: a.to,
            };
        }
        Move::Normal {
            role,
            from: a.from,
            capture: board.role_at(a.to),
            to: a.to,
            promotion: a.promotion,
        }
    }

    /// Answers "Any?" for the side to move.
    pub fn ask_any(&mut self) -> Outcome {
        let side = self.turn();
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        if !self.rules.has_any_question() {
            return Outcome::silent(side, Verdict::Invalid(Invalid::NoAnyQuestion));
        }
        if self.any != AnyState::NotAsked {
            return Outcome::silent(side, Verdict::Invalid(Invalid::AnyAlreadyAsked));
        }
        let mut out = Outcome::silent(side, Verdict::Answered);
        self.lapse_offer(&mut out.announcements);
        self.attempted = true;
        let yes = self.pawn_tries > 0;
        self.any = if yes {
            AnyState::Obliged
        } else {
            AnyState::AnsweredNo
        };
        push(
            &mut out.announcements,
            Audience::Both,
            Announcement::AnyAnswer(yes),
        );
        out
    }

    /// The side to move offers a draw.
    pub fn offer_draw(&mut self) -> Outcome {
        let side = self.turn();
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        let refusal = if !self.rules.draw_offers {
            Some(Invalid::NoDrawOffers)
        } else if self.pending_offer == Some(!side) {
            Some(Invalid::DrawOfferPending)
        } else if self.offered {
            Some(Invalid::DrawAlreadyOffered)
        } else if self.attempted {
            Some(Invalid::DrawOfferAfterAttempt)
        } else {
            None
        };
        if let Some(why) = refusal {
            return Outcome::silent(side, Verdict::Invalid(why));
        }
        self.offered = true;
        self.pending_offer = Some(side);
        let mut out = Outcome::silent(side, Verdict::Answered);
        push(
            &mut out.announcements,
            Audience::Both,
            Announcement::DrawOffered(side),
        );
        out
    }

    /// The side a draw was offered to accepts (`true`) or declines it.
    pub fn answer_draw(&mut self, accept: bool) -> Outcome {
        let Some(offerer) = self.pending_offer else {
            let verdict = if self.is_over() {
                Verdict::GameOver
            } else {
                Verdict::Invalid(Invalid::NoDrawOffer)
            };
            return Outcome::silent(self.turn(), verdict);
        };
        let side = !offerer;
        self.pending_offer = None;
        let mut out = Outcome::silent(side, Verdict::Answered);
        if accept {
            push(
                &mut out.announcements,
                Audience::Both,
                Announcement::DrawAccepted(side),
            );
            self.finish(
                GameResult::draw(EndReason::DrawAgreed),
                &mut out.announcements,
            );
        } else {
            push(
                &mut out.announcements,
                Audience::Both,
                Announcement::DrawDeclined(side),
            );
        }
        out
    }

    /// `side` resigns (either side, at any time).
    pub fn resign(&mut self, side: Color) -> Outcome {
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        let mut out = Outcome::silent(side, Verdict::Answered);
        push(
            &mut out.announcements,
            Audience::Both,
            Announcement::Resigned(side),
        );
        self.finish(
            GameResult::win(!side, EndReason::Resignation),
            &mut out.announcements,
        );
        out
    }

    /// `side`'s flag fell (its time ran out; either side, whoever is to move): `side` loses,
    /// unless its opponent cannot checkmate by any legal sequence, then the game is drawn
    /// (FIDE Laws 6.9). "Cannot checkmate" is the insufficient-material test for the opponent's
    /// men alone (a bare king, king and one minor piece, bishops all on one colour), whether
    /// or not the rule set ends games automatically on insufficient material.
    pub fn flag_fall(&mut self, side: Color) -> Outcome {
        let result = if self.pos.has_insufficient_material(!side) {
            GameResult::draw(EndReason::TimeForfeit)
        } else {
            GameResult::win(!side, EndReason::TimeForfeit)
        };
        self.declare_end(side, result)
    }

    /// `side` stayed away from the running game past the host's timeout: `side` loses.
    pub fn abandon(&mut self, side: Color) -> Outcome {
        self.declare_end(side, GameResult::win(!side, EndReason::Abandonment))
    }

    /// The host calls the game off for `side` (who stayed away) before both sides have
    /// moved: no result. Refused ([`Invalid::TooLateToAbort`]) once two moves were played.
    pub fn abort(&mut self, side: Color) -> Outcome {
        if !self.is_over() && self.plies >= 2 {
            return Outcome::silent(side, Verdict::Invalid(Invalid::TooLateToAbort));
        }
        self.declare_end(side, GameResult::aborted())
    }

    /// Ends the game with `result`, declared off the board for `side`.
    fn declare_end(&mut self, side: Color, result: GameResult) -> Outcome {
        if self.is_over() {
            return Outcome::silent(side, Verdict::GameOver);
        }
        let mut out = Outcome::silent(side, Verdict::Answered);
        self.finish(result, &mut out.announcements);
        out
    }

    /// An offer made to the side to move lapses when that side acts without answering it in a
    /// way the offerer hears anyway: a move played or "Any?" answered (never a rejected
    /// attempt, which the offerer may not hear of).
    fn lapse_offer(&mut self, list: &mut Announcements) {
        let side = self.turn();
        if self.pending_offer == Some(!side) {
            self.pending_offer = None;
            push(list, Audience::Both, Announcement::DrawDeclined(side));
        }
    }

    fn finish(&mut self, result: GameResult, list: &mut Announcements) {
        self.result = Some(result);
        self.pending_offer = None;
        push(list, Audience::Both, Announcement::GameOver(result));
    }

    /// Plays `m` and makes every announcement of it, all but the new mover's own board (which
    /// no announcement depends on): [`Umpire::play`] sets it after.
    fn play_judged(&mut self, m: Move, list: &mut Announcements) {
        let mover = self.turn();
        if let Some(captured) = m.capture() {
            let en_passant = m.is_en_passant();
            let square = if en_passant {
                Square::from_coords(m.to().file(), m.from().map_or(m.to().rank(), Square::rank))
            } else {
                m.to()
            };
            let man = self
                .rules
                .capture_names_man
                .then_some(if captured == Role::Pawn {
                    Man::Pawn
                } else {
                    Man::Piece
                });
            let en_passant = en_passant && self.rules.en_passant_announced;
            push(
                list,
                Audience::Both,
                Announcement::Capture {
                    square,
                    man,
                    en_passant,
                },
            );
        }
        if m.is_promotion() && self.rules.promotion_announced {
            push(list, Audience::Both, Announcement::Promotion(mover));
        }

        let zeroing = m.is_zeroing();
        let next_hash = if self.rules.threefold_repetition {
            self.pos
                .update_zobrist_hash(self.hash, m, EnPassantMode::Legal)
        } else {
            None
        };
        self.pos.play_unchecked(m);
        self.plies += 1;
        if self.rules.threefold_repetition {
            self.hash = next_hash.unwrap_or_else(|| self.pos.zobrist_hash(EnPassantMode::Legal));
            if zeroing {
                self.history.clear();
            }
            self.history.push(self.hash);
        }
        self.analyse();
        self.rejected.clear();
        self.any = AnyState::NotAsked;
        self.attempted = false;
        self.offered = false;

        self.announce_checks(list);
        match self.automatic_end() {
            Some(result) => self.finish(result, list),
            None => self.announce_pawn_info(list),
        }
    }

    /// Plays `m` (see [`Umpire::play_judged`]) and sets the new mover's own board.
    fn play(&mut self, m: Move, list: &mut Announcements) {
        self.play_judged(m, list);
        self.own = OwnBoard::of(&self.pos, self.turn());
    }

    fn announce_checks(&self, list: &mut Announcements) {
        let Some(king) = self.pos.board().king_of(self.turn()) else {
            return;
        };
        // In the fixed order of `CheckKind` (rank, file, long diagonal, short diagonal,
        // knight), never in the order of the checkers' squares: that order would tell the
        // checked player where the checkers stand relative to each other.
        let mut kinds: ArrayVec<CheckKind, 2> = ArrayVec::new();
        for checker in self.checkers {
            let _ = kinds.try_push(CheckKind::classify(checker, king));
        }
        if kinds.len() == 2 && kinds[1] < kinds[0] {
            kinds.swap(0, 1);
        }
        for kind in kinds {
            push(list, Audience::Both, Announcement::Check(kind));
        }
    }

    /// The automatic end of the game in the current position, if any.
    fn automatic_end(&self) -> Option<GameResult> {
        let side = self.turn();
        if !self.has_legal {
            return Some(if self.pos.is_check() {
                GameResult::win(!side, EndReason::Checkmate)
            } else {
                match self.rules.stalemate {
                    StalemateRule::Draw => GameResult::draw(EndReason::Stalemate),
                    StalemateRule::Loss => GameResult::win(!side, EndReason::Stalemate),
                }
            });
        }
        if self.rules.insufficient_material && self.pos.is_insufficient_material() {
            return Some(GameResult::draw(EndReason::InsufficientMaterial));
        }
        if self.rules.threefold_repetition
            && self
                .history
                .iter()
                .rev()
                .step_by(2)
                .filter(|&&h| h == self.hash)
                .count()
                >= 3
        {
            return Some(GameResult::draw(EndReason::ThreefoldRepetition));
        }
        if self.rules.fifty_moves && self.pos.halfmoves() >= 100 {
            return Some(GameResult::draw(EndReason::FiftyMoves));
        }
        None
    }

    /// Distinct legal pawn captures of the side to move (a promotion-capture counted once).
    /// Referee information.
    pub fn pawn_capture_count(&self) -> u8 {
        self.pawn_tries
    }

    fn announce_pawn_info(&self, list: &mut Announcements) {
        match self.rules.pawn_captures {
            PawnCaptureInfo::Count => {
                if self.pawn_tries > 0 {
                    push(
                        list,
                        Audience::Both,
                        Announcement::PawnTries(self.pawn_tries),
                    );
                }
            }
            PawnCaptureInfo::TrySquares => {
                if self.try_squares.any() {
                    push(
                        list,
                        Audience::Both,
                        Announcement::PawnTrySquares(self.try_squares),
                    );
                }
            }
            PawnCaptureInfo::YesNo => {
                if self.pawn_tries > 0 {
                    push(list, Audience::Both, Announcement::PawnCaptures);
                }
            }
            PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => {}
        }
    }
}
