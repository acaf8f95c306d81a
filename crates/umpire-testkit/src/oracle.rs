//! [`Oracle`]: what each player is entitled to hear, worked out from the true positions alone.
//!
//! The oracle never calls `Outcome::observation`, `Outcome::heard_by` or the umpire's
//! announcement code, and never looks at the announcements of an [`Outcome`]. It follows the
//! game itself (its own copy of the true position, its own draw-offer state, its own
//! repetition history), reads the rule set's policy flags as data, and uses shakmaty directly
//! for legality, captures, checks and pawn captures. Of the umpire's answer it uses only what
//! the player who gave the command is told about that command anyway: whom the umpire took the
//! command from and its verdict. Check kinds are classified by its own geometry, not by
//! `CheckKind::classify`, and treated as a set (rendered in `CheckKind` order).

use umpire_rules::shakmaty::zobrist::Zobrist64;
use umpire_rules::shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square,
};
use umpire_rules::{
    Announcement, Attempt, Audience, CheckKind, Command, EndReason, GameResult, Man, Observation,
    PawnCaptureInfo, Rebuff, RuleSet, StalemateRule, Verdict,
};

/// What one player is entitled to learn from one command.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entitlement {
    /// Who gave the command.
    pub actor: Color,
    /// The command and its verdict, for the player who gave it.
    pub own: Option<(Command, Verdict)>,
    /// Whether a move was played (the turn passes: public).
    pub moved: bool,
    /// The rebuff this player hears, if any.
    pub rebuff: Option<Announcement>,
    /// A lapsed draw offer (declined by this side), heard by both.
    pub lapse: Option<Color>,
    /// A capture: square, man where the rule set names it, e.p. where it says so.
    pub capture: Option<(Square, Option<Man>, bool)>,
    /// A promotion of this colour, where the rule set announces it.
    pub promotion: Option<Color>,
    /// The kinds of check now given, as a set (sorted).
    pub checks: Vec<CheckKind>,
    /// Pawn-capture information for the side now to move.
    pub pawn_info: Option<Announcement>,
    /// The answer to "Any?".
    pub any_answer: Option<bool>,
    /// A draw offer, answer or resignation, heard by both.
    pub event: Option<Announcement>,
    /// The result, when the game ends.
    pub result: Option<GameResult>,
}

impl Entitlement {
    /// The announcements this entitlement allows, in the documented order.
    pub fn announcements(&self) -> Vec<Announcement> {
        let mut out = Vec::new();
        if let Some(side) = self.lapse {
            out.push(Announcement::DrawDeclined(side));
        }
        if let Some(r) = self.rebuff {
            out.push(r);
        }
        if let Some(e) = self.event {
            out.push(e);
        }
        if let Some(yes) = self.any_answer {
            out.push(Announcement::AnyAnswer(yes));
        }
        if let Some((square, man, en_passant)) = self.capture {
            out.push(Announcement::Capture {
                square,
                man,
                en_passant,
            });
        }
        if let Some(c) = self.promotion {
            out.push(Announcement::Promotion(c));
        }
        out.extend(self.checks.iter().map(|&k| Announcement::Check(k)));
        if let Some(p) = self.pawn_info {
            out.push(p);
        }
        if let Some(r) = self.result {
            out.push(Announcement::GameOver(r));
        }
        out
    }

    /// Whether the player learns anything at all.
    pub fn is_silent(&self) -> bool {
        self.own.is_none() && !self.moved && self.announcements().is_empty()
    }

    /// Whether `obs` (what the player was told, or `None`) says exactly what this entitlement
    /// allows: the same actor, own command and verdict, turn passing and announcements.
    pub fn matches(&self, obs: Option<&Observation>) -> bool {
        match obs {
            None => self.is_silent(),
            Some(o) => {
                !self.is_silent()
                    && o.actor == self.actor
                    && o.own.map(|own| (own.command, own.verdict)) == self.own
                    && o.moved == self.moved
                    && o.announcements.as_slice() == self.announcements().as_slice()
            }
        }
    }
}

/// The kind of check a man on `from` gives a king on `king`, by the oracle's own geometry:
/// the same rank or file; else the same diagonal, long or short by the diagonal's length
/// (`8 - |file - rank|` for the a1-h8 direction, `8 - |file + rank - 7|` for the other); else
/// a knight.
pub fn check_kind(from: Square, king: Square) -> CheckKind {
    let (ff, fr) = (from.file() as i32, from.rank() as i32);
    let (kf, kr) = (king.file() as i32, king.rank() as i32);
    if fr == kr {
        CheckKind::Rank
    } else if ff == kf {
        CheckKind::File
    } else if (ff - kf).abs() == (fr - kr).abs() {
        let rising = (ff - fr) == (kf - kr);
        let rising_len = 8 - (kf - kr).abs();
        let falling_len = 8 - (kf + kr - 7).abs();
        let (this, other) = if rising {
            (rising_len, falling_len)
        } else {
            (falling_len, rising_len)
        };
        if this > other {
            CheckKind::LongDiagonal
        } else {
            CheckKind::ShortDiagonal
        }
    } else {
        CheckKind::Knight
    }
}

/// Follows a game and says what each player is entitled to hear of each command.
#[derive(Clone, Debug)]
pub struct Oracle {
    rules: RuleSet,
    pos: Chess,
    pending: Option<Color>,
    history: Vec<Zobrist64>,
    over: bool,
}

/// Distinct legal pawn captures in `pos` (a promotion-capture counted once), and the squares
/// of the pawns that have one.
fn pawn_captures(pos: &Chess) -> (u8, Bitboard) {
    let mut seen: Vec<(Square, Square)> = Vec::new();
    let mut squares = Bitboard::EMPTY;
    for m in pos.legal_moves() {
        if m.role() == Role::Pawn && m.is_capture() {
            let from = m.from().expect("a pawn move has a from square");
            if !seen.contains(&(from, m.to())) {
                seen.push((from, m.to()));
            }
            squares.add(from);
        }
    }
    (seen.len() as u8, squares)
}

impl Oracle {
    /// An oracle for a game under `rules` from `pos`.
    pub fn new(rules: RuleSet, pos: Chess) -> Oracle {
        let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        let mut oracle = Oracle {
            rules,
            pos,
            pending: None,
            history: vec![hash],
            over: false,
        };
        oracle.over = oracle.automatic_end().is_some();
        oracle
    }

    /// The true position as the oracle follows it.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The opening announcements both players are entitled to (set-up positions).
    pub fn opening(&self) -> Vec<Announcement> {
        let mut e = self.blank(self.pos.turn(), false);
        self.after_move_info(&mut e);
        e.announcements()
    }

    fn blank(&self, actor: Color, moved: bool) -> Entitlement {
        Entitlement {
            actor,
            own: None,
            moved,
            rebuff: None,
            lapse: None,
            capture: None,
            promotion: None,
            checks: Vec::new(),
            pawn_info: None,
            any_answer: None,
            event: None,
            result: None,
        }
    }

    /// Checks, and the end of the game or pawn information, for the side to move now.
    fn after_move_info(&self, e: &mut Entitlement) {
        if let Some(king) = self.pos.board().king_of(self.pos.turn()) {
            let mut kinds: Vec<CheckKind> = self
                .pos
                .checkers()
                .into_iter()
                .map(|c| check_kind(c, king))
                .collect();
            kinds.sort();
            e.checks = kinds;
        }
        match self.automatic_end() {
            Some(r) => e.result = Some(r),
            None => {
                let (n, squares) = pawn_captures(&self.pos);
                e.pawn_info = match self.rules.pawn_captures {
                    PawnCaptureInfo::Count if n > 0 => Some(Announcement::PawnTries(n)),
                    PawnCaptureInfo::TrySquares if n > 0 => {
                        Some(Announcement::PawnTrySquares(squares))
                    }
                    PawnCaptureInfo::YesNo if n > 0 => Some(Announcement::PawnCaptures),
                    _ => None,
                };
            }
        }
    }

    fn automatic_end(&self) -> Option<GameResult> {
        let side = self.pos.turn();
        if self.pos.legal_moves().is_empty() {
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
        if self.rules.threefold_repetition {
            let now = *self
                .history
                .last()
                .expect("history has the current position");
            if self.history.iter().filter(|&&h| h == now).count() >= 3 {
                return Some(GameResult::draw(EndReason::ThreefoldRepetition));
            }
        }
        if self.rules.fifty_moves && self.pos.halfmoves() >= 100 {
            return Some(GameResult::draw(EndReason::FiftyMoves));
        }
        None
    }

    /// The legal move an attempt names, if any (a pawn reaching the last rank with no piece
    /// named promotes to a queen under always-queen rules).
    fn legal_move(&self, a: Attempt) -> Option<Move> {
        let last = self.pos.turn().fold_wb(Rank::Eighth, Rank::First);
        let pawn = self.pos.our(Role::Pawn).contains(a.from);
        let promotion = match a.promotion {
            None if pawn && a.to.rank() == last && self.rules.promotion_always_queen => {
                Some(Role::Queen)
            }
            Some(role) if self.rules.promotion_always_queen && role != Role::Queen => {
                // Under always-queen rules no other piece can be named.
                return None;
            }
            p => p,
        };
        self.pos.legal_moves().into_iter().find(|m| {
            Attempt::from_move(m)
                .is_some_and(|b| b.from == a.from && b.to == a.to && b.promotion == promotion)
        })
    }

    fn rebuff_word(r: Rebuff) -> Announcement {
        if r.said_as_impossible {
            Announcement::Impossible
        } else {
            Announcement::Illegal
        }
    }

    /// Takes in `command`, given by `actor` with `verdict` (what the actor is told anyway), and
    /// returns what White and Black are entitled to learn of it, in that order.
    ///
    /// Panics if the verdict contradicts the true position (an accepted attempt that is not
    /// legal, or a rejected one that is): the oracle checks acceptance itself.
    pub fn judge(&mut self, actor: Color, command: Command, verdict: Verdict) -> [Entitlement; 2] {
        let moved = verdict == Verdict::Accepted;
        let mut both = self.blank(actor, moved);
        let mut rebuff: Option<(Audience, Announcement)> = None;
        match (command, verdict) {
            (_, Verdict::Invalid(_) | Verdict::GameOver) => {}
            (Command::Attempt(a), Verdict::Accepted) => {
                let m = self
                    .legal_move(a)
                    .unwrap_or_else(|| panic!("accepted attempt {a} is not legal"));
                if self.pending == Some(!actor) {
                    both.lapse = Some(actor);
                    self.pending = None;
                }
                if let Some(role) = m.capture() {
                    let square = match m {
                        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
                        _ => m.to(),
                    };
                    let man = self
                        .rules
                        .capture_names_man
                        .then_some(if role == Role::Pawn {
                            Man::Pawn
                        } else {
                            Man::Piece
                        });
                    let ep = m.is_en_passant() && self.rules.en_passant_announced;
                    both.capture = Some((square, man, ep));
                }
                if m.is_promotion() && self.rules.promotion_announced {
                    both.promotion = Some(actor);
                }
                self.pos.play_unchecked(m);
                if m.is_zeroing() {
                    self.history.clear();
                }
                self.history
                    .push(self.pos.zobrist_hash(EnPassantMode::Legal));
                self.after_move_info(&mut both);
                self.over = both.result.is_some();
            }
            (Command::Attempt(a), v) if v.is_rejection() => {
                assert!(
                    self.legal_move(a).is_none() || v == Verdict::Repeat,
                    "rejected attempt {a} is legal"
                );
                rebuff = Some(match v {
                    Verdict::Illegal => (
                        self.rules.illegal.audience,
                        Oracle::rebuff_word(self.rules.illegal),
                    ),
                    Verdict::Impossible => (
                        self.rules.impossible.audience,
                        Oracle::rebuff_word(self.rules.impossible),
                    ),
                    _ => (self.rules.illegal.audience, Announcement::Repeat),
                });
            }
            (Command::AskAny, Verdict::Answered) => {
                if self.pending == Some(!actor) {
                    both.lapse = Some(actor);
                    self.pending = None;
                }
                both.any_answer = Some(pawn_captures(&self.pos).0 > 0);
            }
            (Command::OfferDraw, Verdict::Answered) => {
                self.pending = Some(actor);
                both.event = Some(Announcement::DrawOffered(actor));
            }
            (Command::AcceptDraw, Verdict::Answered) => {
                self.pending = None;
                self.over = true;
                both.event = Some(Announcement::DrawAccepted(actor));
                both.result = Some(GameResult::draw(EndReason::DrawAgreed));
            }
            (Command::DeclineDraw, Verdict::Answered) => {
                self.pending = None;
                both.event = Some(Announcement::DrawDeclined(actor));
            }
            (Command::Resign, Verdict::Answered) => {
                self.pending = None;
                self.over = true;
                both.event = Some(Announcement::Resigned(actor));
                both.result = Some(GameResult::win(!actor, EndReason::Resignation));
            }
            (c, v) => panic!("unexpected verdict {v:?} for {c:?}"),
        }
        [Color::White, Color::Black].map(|player| {
            let mut e = both.clone();
            if player == actor {
                e.own = Some((command, verdict));
            }
            if let Some((audience, word)) = rebuff {
                // The audience flag read as data, not through `Audience::includes`.
                let hears = match audience {
                    Audience::Both => true,
                    Audience::Mover => player == actor,
                    Audience::Opponent => player != actor,
                };
                if hears {
                    e.rebuff = Some(word);
                }
            }
            e
        })
    }

    /// Whether the oracle has seen the game end.
    pub fn is_over(&self) -> bool {
        self.over
    }
}
