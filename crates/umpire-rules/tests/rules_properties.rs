//! Property tests over random games under every rule set.
//!
//! A [`Model`] follows each game beside the umpire. It holds its own copy of the true
//! position and recomputes, independently of the umpire's code, what every answer must be:
//!
//! - an attempt is accepted iff `shakmaty::uci::UciMove::to_move` finds it legal in the
//!   position taken before the attempt (unless an earlier rejection or an "Any?" answer
//!   rules it out first);
//! - it is impossible iff it is not possible on the mover's own board, decided here by plain
//!   file/rank arithmetic (movement patterns, own men in the way, castling right and path,
//!   promotion piece);
//! - every announcement of an accepted move is rebuilt from the positions before and after
//!   it: the capture square and man (e.p. found as a pawn's diagonal step onto an empty
//!   square), promotion, checks from `Position::checkers` classified by counting diagonal
//!   lengths, the pawn-capture information from the legal moves, and the end of the game
//!   (checkmate, stalemate, insufficient material from shakmaty; repetitions counted here
//!   with FIDE's notion of "same position"; the fifty-move clock);
//! - rejections are said with the word and audience the rule set prescribes, and each
//!   player's [`Outcome::observation`] holds exactly what that player hears.
//!
//! Two drivers: [`umpire_rules::playout::random_game`] (uniform over the mover's options)
//! and a rougher one that mixes in arbitrary attempts (any square to any square, any
//! promotion letter), repeats of rejected attempts and "Any?" at any time.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square,
    fen::Fen, uci::UciMove,
};
use umpire_rules::{
    Announcement, Attempt, AttemptList, Audience, CheckKind, Command, EndReason, GameResult, Heard,
    Invalid, Man, Outcome, RuleSet, RuleSetId, Umpire, Verdict, playout::random_game,
};

/// What the side to move is told about its pawn captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Info {
    /// Nothing.
    Nothing,
    /// "N tries".
    Count,
    /// The squares of the pawns that can capture.
    Squares,
    /// A bare "pawn captures" when there is one.
    YesNo,
    /// Only the answer to "Any?"; `true`: one failed pawn capture releases the mover.
    Any { one_try_releases: bool },
}

/// The rules of one rule set as the brief and ARCHITECTURE.md state them, written out
/// here rather than read from [`RuleSet`].
#[derive(Clone, Copy, Debug)]
struct Expect {
    names_man: bool,
    marks_en_passant: bool,
    info: Info,
    promotion_announced: bool,
    queen_only: bool,
    stalemate_loses: bool,
    threefold_and_fifty: bool,
    repeat_word: bool,
    /// A pawn capture that the pawn-capture announcement rules out is impossible (seed 000
    /// rule C1 for wild16; RAND rule 10 for cincinnati and rand).
    pawn_info_binds: bool,
    /// In check, an attempt that cannot answer the announced check is impossible (RAND rule 7).
    check_binds: bool,
    illegal: (Announcement, Audience),
    impossible: (Announcement, Audience),
}

fn expect(id: RuleSetId) -> Expect {
    use Announcement::{Illegal, Impossible};
    use Audience::{Both, Mover};
    let base = Expect {
        names_man: true,
        marks_en_passant: false,
        info: Info::Nothing,
        promotion_announced: false,
        queen_only: false,
        stalemate_loses: false,
        // Where a source is silent, the conventional rules apply (automatic draws).
        threefold_and_fifty: true,
        repeat_word: false,
        pawn_info_binds: false,
        check_binds: false,
        illegal: (Illegal, Both),
        impossible: (Impossible, Both),
    };
    match id {
        RuleSetId::Wild16 => Expect {
            marks_en_passant: true,
            info: Info::Count,
            pawn_info_binds: true,
            illegal: (Illegal, Mover),
            impossible: (Illegal, Mover),
            ..base
        },
        RuleSetId::Berkeley => Expect {
            names_man: false,
            threefold_and_fifty: false,
            impossible: (Impossible, Mover),
            ..base
        },
        RuleSetId::BerkeleyAny => Expect {
            info: Info::Any {
                one_try_releases: false,
            },
            ..expect(RuleSetId::Berkeley)
        },
        RuleSetId::Cincinnati => Expect {
            info: Info::YesNo,
            pawn_info_binds: true,
            ..base
        },
        RuleSetId::English => Expect {
            names_man: false,
            marks_en_passant: true,
            info: Info::Any {
                one_try_releases: true,
            },
            impossible: (Illegal, Both),
            ..base
        },
        RuleSetId::Rand => Expect {
            info: Info::Squares,
            promotion_announced: true,
            stalemate_loses: true,
            pawn_info_binds: true,
            check_binds: true,
            ..base
        },
        RuleSetId::Umpire1965 => Expect {
            info: Info::Squares,
            promotion_announced: true,
            queen_only: true,
            repeat_word: true,
            ..base
        },
    }
}

/// Where the mover stands with "Any?" this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnyState {
    NotAsked,
    AnsweredNo,
    Obliged,
    Released,
}

/// A position as FIDE compares them for repetition: placement, side to move, castling
/// rights and the square of an e.p. capture only if one is legal.
type Key = (Board, Color, Bitboard, Option<Square>);

fn key(pos: &Chess) -> Key {
    let ep = pos
        .legal_moves()
        .iter()
        .find(|m| m.is_en_passant())
        .map(|m| m.to());
    (
        pos.board().clone(),
        pos.turn(),
        pos.castles().castling_rights(),
        ep,
    )
}

/// `(file, rank)` as signed integers.
fn fr(sq: Square) -> (i32, i32) {
    (u32::from(sq.file()) as i32, u32::from(sq.rank()) as i32)
}

fn at(file: i32, rank: i32) -> Square {
    Square::from_coords(file.try_into().unwrap(), rank.try_into().unwrap())
}

/// The kind of a check from `checker` against `king`, by plain arithmetic.
fn check_kind(checker: Square, king: Square) -> CheckKind {
    let ((cf, cr), (kf, kr)) = (fr(checker), fr(king));
    let (df, dr) = (cf - kf, cr - kr);
    if dr == 0 {
        CheckKind::Rank
    } else if df == 0 {
        CheckKind::File
    } else if df.abs() == dr.abs() {
        let rising = 8 - (kf - kr).abs();
        let falling = 8 - (kf + kr - 7).abs();
        let (this, other) = if df == dr {
            (rising, falling)
        } else {
            (falling, rising)
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

/// Whether `a` is possible on the mover's own board (only the mover's men and castling
/// rights are looked at), by plain file/rank arithmetic.
fn own_possible(pos: &Chess, a: Attempt, queen_only: bool) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let own = |s: Square| board.piece_at(s).is_some_and(|p| p.color == us);
    let Some(piece) = board.piece_at(a.from).filter(|p| p.color == us) else {
        return false;
    };
    if own(a.to) {
        return false;
    }
    let ((ff, fr0), (tf, tr)) = (fr(a.from), fr(a.to));
    let (df, dr) = (tf - ff, tr - fr0);
    // No own man strictly between from and to along a straight line.
    let clear = || {
        let n = df.abs().max(dr.abs());
        (1..n).all(|i| !own(at(ff + i * df.signum(), fr0 + i * dr.signum())))
    };
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    let forward = if us == Color::White { 1 } else { -1 };
    let home = if us == Color::White { 0 } else { 7 };
    let moves = match piece.role {
        Role::Pawn => {
            let start = home + forward;
            (df == 0 && dr == forward)
                || (df == 0 && dr == 2 * forward && fr0 == start && !own(at(ff, fr0 + forward)))
                || (df.abs() == 1 && dr == forward)
        }
        Role::Knight => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
        Role::Bishop => diagonal && clear(),
        Role::Rook => straight && clear(),
        Role::Queen => (diagonal || straight) && clear(),
        Role::King => {
            let step = df.abs().max(dr.abs()) == 1;
            let castle = ff == 4 && fr0 == home && dr == 0 && df.abs() == 2 && {
                let side = if df > 0 {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let rook_file = if df > 0 { 7 } else { 0 };
                let rook = at(rook_file, home);
                pos.castles().has(us, side)
                    && board.piece_at(rook) == Some(Role::Rook.of(us))
                    && (ff.min(rook_file) + 1..ff.max(rook_file)).all(|f| !own(at(f, home)))
            };
            step || castle
        }
    };
    if !moves {
        return false;
    }
    let promotes = piece.role == Role::Pawn && tr == 7 - home;
    match a.promotion {
        None => !promotes,
        Some(Role::Queen) => promotes,
        Some(Role::Rook | Role::Bishop | Role::Knight) => promotes && !queen_only,
        Some(Role::Pawn | Role::King) => false,
    }
}

/// Whether the mover's man on `a.from` is a pawn stepping diagonally: a pawn-capture attempt.
fn is_pawn_capture_attempt(pos: &Chess, a: Attempt) -> bool {
    let forward = if pos.turn() == Color::White { 1 } else { -1 };
    let ((ff, fr0), (tf, tr)) = (fr(a.from), fr(a.to));
    pos.board().piece_at(a.from) == Some(Role::Pawn.of(pos.turn()))
        && (tf - ff).abs() == 1
        && tr - fr0 == forward
}

/// Whether `s` lies on the line of a check of `kind` against a king on `king`: the king's
/// rank, file, longer or shorter diagonal (both ways from the king), or a knight's jump away.
fn on_check_line(kind: CheckKind, s: Square, king: Square) -> bool {
    let ((sf, sr), (kf, kr)) = (fr(s), fr(king));
    let (df, dr) = ((sf - kf).abs(), (sr - kr).abs());
    match kind {
        CheckKind::Knight => (df, dr) == (1, 2) || (df, dr) == (2, 1),
        _ => s != king && check_kind(s, king) == kind,
    }
}

/// Whether `a` could answer the checks the mover heard (RAND rule 7), judged only from
/// the kinds announced: a king step could; in a double check nothing else; otherwise the man
/// must land on the announced line, or, capturing with a pawn, remove a pawn that stands on
/// it (en passant); castling never.
fn could_answer_check(pos: &Chess, a: Attempt) -> bool {
    let king = pos.board().king_of(pos.turn()).unwrap();
    let kinds: Vec<CheckKind> = pos
        .checkers()
        .into_iter()
        .map(|c| check_kind(c, king))
        .collect();
    if kinds.is_empty() {
        return true;
    }
    if a.from == king {
        let ((ff, fr0), (tf, tr)) = (fr(a.from), fr(a.to));
        return (tf - ff).abs().max((tr - fr0).abs()) == 1;
    }
    if kinds.len() == 2 {
        return false;
    }
    let passed = Square::from_coords(a.to.file(), a.from.rank());
    on_check_line(kinds[0], a.to, king)
        || (is_pawn_capture_attempt(pos, a) && on_check_line(kinds[0], passed, king))
}

/// The distinct legal pawn captures `(from, to)` of the side to move (a promotion-capture
/// once, whatever the piece).
fn pawn_captures(pos: &Chess) -> Vec<(Square, Square)> {
    let mut v: Vec<(Square, Square)> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.role() == Role::Pawn && m.from().unwrap().file() != m.to().file())
        .map(|m| (m.from().unwrap(), m.to()))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Sorted copy of a list of heard announcements (their order is not what is tested).
fn sorted(list: &[Heard]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|h| format!("{h:?}")).collect();
    v.sort();
    v
}

/// The referee beside the umpire: its own position, repetition history, rejected attempts
/// and "Any?" state.
struct Model {
    id: RuleSetId,
    x: Expect,
    pos: Chess,
    history: Vec<Key>,
    rejected: Vec<Attempt>,
    any: AnyState,
    result: Option<GameResult>,
    accepted: u64,
    judged: u64,
    seen: Seen,
}

/// How often the rarer events occurred: proof that the properties were exercised on them.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    en_passant: u64,
    promotions: u64,
    promotion_captures: u64,
    castles: u64,
    double_checks: u64,
    checks: [u64; 5],
    illegal: u64,
    impossible: u64,
    repeats: u64,
    any_yes: u64,
    must_try: u64,
    ruled_out: u64,
    ends: [u64; 7],
}

impl Seen {
    fn add(&mut self, o: &Seen) {
        self.en_passant += o.en_passant;
        self.promotions += o.promotions;
        self.promotion_captures += o.promotion_captures;
        self.castles += o.castles;
        self.double_checks += o.double_checks;
        for i in 0..5 {
            self.checks[i] += o.checks[i];
        }
        self.illegal += o.illegal;
        self.impossible += o.impossible;
        self.repeats += o.repeats;
        self.any_yes += o.any_yes;
        self.must_try += o.must_try;
        self.ruled_out += o.ruled_out;
        for i in 0..7 {
            self.ends[i] += o.ends[i];
        }
    }
}

impl Model {
    fn new(rules: &RuleSet, pos: Chess) -> Model {
        Model {
            id: rules.id,
            x: expect(rules.id),
            history: vec![key(&pos)],
            pos,
            rejected: Vec::new(),
            any: AnyState::NotAsked,
            result: None,
            accepted: 0,
            judged: 0,
            seen: Seen::default(),
        }
    }

    /// Checks the umpire's outcome of `command` and advances the model.
    fn judge(&mut self, command: Command, out: &Outcome) {
        self.judged += 1;
        match out.verdict {
            Verdict::Illegal => self.seen.illegal += 1,
            Verdict::Impossible => self.seen.impossible += 1,
            Verdict::Repeat => self.seen.repeats += 1,
            Verdict::Invalid(Invalid::MustTryPawnCapture) => self.seen.must_try += 1,
            _ => {}
        }
        let ctx = format!(
            "{} at {}: {command:?} -> {out:?}",
            self.id,
            Fen::from_position(&self.pos, EnPassantMode::Legal)
        );
        check_observations(command, out, &ctx);
        if self.result.is_some() {
            assert_eq!(out.verdict, Verdict::GameOver, "{ctx}");
            assert!(out.announcements.is_empty(), "{ctx}");
            return;
        }
        assert_eq!(out.side, self.pos.turn(), "{ctx}");
        match command {
            Command::Attempt(a) => self.judge_attempt(a, out, &ctx),
            Command::AskAny => self.judge_any(out, &ctx),
            other => panic!("the drivers never say {other:?}"),
        }
    }

    fn judge_any(&mut self, out: &Outcome, ctx: &str) {
        let Info::Any { .. } = self.x.info else {
            assert_eq!(
                out.verdict,
                Verdict::Invalid(Invalid::NoAnyQuestion),
                "{ctx}"
            );
            assert!(out.announcements.is_empty(), "{ctx}");
            return;
        };
        if self.any != AnyState::NotAsked {
            assert_eq!(
                out.verdict,
                Verdict::Invalid(Invalid::AnyAlreadyAsked),
                "{ctx}"
            );
            assert!(out.announcements.is_empty(), "{ctx}");
            return;
        }
        let yes = !pawn_captures(&self.pos).is_empty();
        assert_eq!(out.verdict, Verdict::Answered, "{ctx}");
        assert_eq!(
            out.announcements.to_vec(),
            vec![Heard {
                audience: Audience::Both,
                announcement: Announcement::AnyAnswer(yes)
            }],
            "{ctx}"
        );
        self.any = if yes {
            AnyState::Obliged
        } else {
            AnyState::AnsweredNo
        };
        self.seen.any_yes += u64::from(yes);
    }

    fn rebuff(
        &self,
        out: &Outcome,
        verdict: Verdict,
        (word, audience): (Announcement, Audience),
        ctx: &str,
    ) {
        assert_eq!(out.verdict, verdict, "{ctx}");
        assert_eq!(
            out.announcements.to_vec(),
            vec![Heard {
                audience,
                announcement: word
            }],
            "{ctx}"
        );
    }

    fn judge_attempt(&mut self, a: Attempt, out: &Outcome, ctx: &str) {
        let pos = self.pos.clone();
        // umpire1965: a pawn reaching the last rank becomes a queen, named or not.
        let last = if pos.turn() == Color::White {
            shakmaty::Rank::Eighth
        } else {
            shakmaty::Rank::First
        };
        let a = if self.x.queen_only
            && a.promotion.is_none()
            && pos.board().piece_at(a.from) == Some(Role::Pawn.of(pos.turn()))
            && a.to.rank() == last
        {
            Attempt {
                promotion: Some(Role::Queen),
                ..a
            }
        } else {
            a
        };
        let pawn_capture = is_pawn_capture_attempt(&pos, a);
        if self.any == AnyState::Obliged && !pawn_capture {
            assert_eq!(
                out.verdict,
                Verdict::Invalid(Invalid::MustTryPawnCapture),
                "{ctx}"
            );
            assert!(out.announcements.is_empty(), "{ctx}");
            return;
        }
        if self.rejected.contains(&a) {
            if self.x.repeat_word {
                self.rebuff(
                    out,
                    Verdict::Repeat,
                    (Announcement::Repeat, self.x.illegal.1),
                    ctx,
                );
            } else {
                self.rebuff(out, Verdict::Impossible, self.x.impossible, ctx);
            }
            return;
        }
        // After "no" to "Any?", a pawn capture is known to fail: answered as impossible.
        if self.any == AnyState::AnsweredNo && pawn_capture {
            self.rebuff(out, Verdict::Impossible, self.x.impossible, ctx);
            return;
        }
        if !own_possible(&pos, a, self.x.queen_only) {
            self.rebuff(out, Verdict::Impossible, self.x.impossible, ctx);
            return;
        }
        // Ruled out by what the mover was told, where the rule set says so.
        let captures = pawn_captures(&pos);
        let pawn_info_rules_out = pawn_capture
            && self.x.pawn_info_binds
            && match self.x.info {
                Info::Count | Info::YesNo => captures.is_empty(),
                Info::Squares => !captures.iter().any(|&(from, _)| from == a.from),
                Info::Nothing | Info::Any { .. } => false,
            };
        let check_rules_out = self.x.check_binds && !could_answer_check(&pos, a);
        if pawn_info_rules_out || check_rules_out {
            // Only attempts that cannot be legal are ruled out.
            let uci = UciMove::Normal {
                from: a.from,
                to: a.to,
                promotion: a.promotion,
            };
            assert!(
                uci.to_move(&pos).is_err(),
                "a legal attempt was ruled out: {ctx}"
            );
            self.seen.ruled_out += 1;
            self.rebuff(out, Verdict::Impossible, self.x.impossible, ctx);
            return;
        }
        let uci = UciMove::Normal {
            from: a.from,
            to: a.to,
            promotion: a.promotion,
        };
        match uci.to_move(&pos) {
            Err(_) => {
                self.rebuff(out, Verdict::Illegal, self.x.illegal, ctx);
                self.rejected.push(a);
                if self.any == AnyState::Obliged
                    && self.x.info
                        == (Info::Any {
                            one_try_releases: true,
                        })
                {
                    self.any = AnyState::Released;
                }
            }
            Ok(m) => {
                assert_eq!(out.verdict, Verdict::Accepted, "{ctx}");
                self.accept(&pos, a, m, out, ctx);
            }
        }
    }

    fn accept(&mut self, before: &Chess, a: Attempt, m: Move, out: &Outcome, ctx: &str) {
        let mover = before.turn();
        let mut after = before.clone();
        after.play_unchecked(m);
        let both = |announcement| Heard {
            audience: Audience::Both,
            announcement,
        };
        let mut expected: Vec<Heard> = Vec::new();

        // Capture: e.p. is a pawn's diagonal step onto an empty square; the captured pawn
        // stood beside the mover's pawn, on the destination file and the origin rank.
        let pawn = before.board().piece_at(a.from).map(|p| p.role) == Some(Role::Pawn);
        let en_passant =
            pawn && a.from.file() != a.to.file() && before.board().piece_at(a.to).is_none();
        let victim_square = if en_passant {
            Square::from_coords(a.to.file(), a.from.rank())
        } else {
            a.to
        };
        if let Some(victim) = before
            .board()
            .piece_at(victim_square)
            .filter(|p| p.color != mover)
        {
            let man = if victim.role == Role::Pawn {
                Man::Pawn
            } else {
                Man::Piece
            };
            expected.push(both(Announcement::Capture {
                square: victim_square,
                man: self.x.names_man.then_some(man),
                en_passant: en_passant && self.x.marks_en_passant,
            }));
        }
        assert_eq!(en_passant, m.is_en_passant(), "{ctx}");

        // Promotion.
        let last = if mover == Color::White {
            shakmaty::Rank::Eighth
        } else {
            shakmaty::Rank::First
        };
        if pawn && a.to.rank() == last && self.x.promotion_announced {
            expected.push(both(Announcement::Promotion(mover)));
        }

        // Checks.
        let king = after.board().king_of(after.turn()).unwrap();
        let kinds: Vec<CheckKind> = after
            .checkers()
            .into_iter()
            .map(|c| check_kind(c, king))
            .collect();
        assert!(kinds.len() <= 2, "{ctx}");
        assert!(
            !(kinds.contains(&CheckKind::LongDiagonal)
                && kinds.contains(&CheckKind::ShortDiagonal)),
            "long + short double check cannot happen: {ctx}"
        );
        expected.extend(kinds.into_iter().map(|k| both(Announcement::Check(k))));

        // End of the game.
        self.history.push(key(&after));
        let legal = after.legal_moves();
        let mut end: Option<GameResult> = None;
        let mut possible_draws: Vec<EndReason> = Vec::new();
        if legal.is_empty() {
            end = Some(if after.is_check() {
                GameResult::win(mover, EndReason::Checkmate)
            } else if self.x.stalemate_loses {
                GameResult::win(mover, EndReason::Stalemate)
            } else {
                GameResult::draw(EndReason::Stalemate)
            });
        } else {
            if after.is_insufficient_material() {
                possible_draws.push(EndReason::InsufficientMaterial);
            }
            let now = self.history.last().unwrap();
            if self.x.threefold_and_fifty && self.history.iter().filter(|k| *k == now).count() >= 3
            {
                possible_draws.push(EndReason::ThreefoldRepetition);
            }
            if self.x.threefold_and_fifty && after.halfmoves() >= 100 {
                possible_draws.push(EndReason::FiftyMoves);
            }
        }
        let announced_end = out.announcements.iter().find_map(|h| match h.announcement {
            Announcement::GameOver(r) => Some(r),
            _ => None,
        });
        if end.is_none() && !possible_draws.is_empty() {
            // Several automatic draws at once (threefold and fifty moves, say): any of them.
            let r = announced_end
                .unwrap_or_else(|| panic!("expected one of {possible_draws:?}: {ctx}"));
            assert!(
                r.winner.is_none() && possible_draws.contains(&r.reason),
                "{ctx}"
            );
            end = Some(r);
        }
        if let Some(r) = end {
            expected.push(both(Announcement::GameOver(r)));
        } else {
            // Pawn-capture information for the side now to move.
            let captures = pawn_captures(&after);
            match self.x.info {
                Info::Count if !captures.is_empty() => {
                    expected.push(both(Announcement::PawnTries(captures.len() as u8)));
                }
                Info::Squares if !captures.is_empty() => {
                    let squares = captures
                        .iter()
                        .fold(Bitboard::EMPTY, |bb, &(from, _)| bb.with(from));
                    expected.push(both(Announcement::PawnTrySquares(squares)));
                }
                Info::YesNo if !captures.is_empty() => {
                    expected.push(both(Announcement::PawnCaptures))
                }
                _ => {}
            }
        }
        assert_eq!(sorted(&out.announcements), sorted(&expected), "{ctx}");
        // The capture comes first and the end of the game last.
        if let Some(first) = expected
            .first()
            .filter(|h| matches!(h.announcement, Announcement::Capture { .. }))
        {
            assert_eq!(out.announcements[0], *first, "{ctx}");
        }
        if end.is_some() {
            assert!(
                matches!(
                    out.announcements.last().unwrap().announcement,
                    Announcement::GameOver(_)
                ),
                "{ctx}"
            );
        }

        let seen = &mut self.seen;
        seen.en_passant += u64::from(en_passant);
        if m.is_promotion() {
            seen.promotions += 1;
            seen.promotion_captures += u64::from(m.is_capture());
        }
        seen.castles += u64::from(m.is_castle());
        let checkers = after.checkers();
        seen.double_checks += u64::from(checkers.count() == 2);
        for c in checkers {
            let i = CheckKind::ALL
                .iter()
                .position(|&k| k == check_kind(c, king))
                .unwrap();
            seen.checks[i] += 1;
        }
        if let Some(r) = end {
            seen.ends[EndReason::ALL.iter().position(|&e| e == r.reason).unwrap()] += 1;
        }

        self.pos = after;
        self.rejected.clear();
        self.any = AnyState::NotAsked;
        self.result = end;
        self.accepted += 1;
    }
}

/// Each player's observation holds exactly what it hears; the opponent never learns the
/// command, and learns nothing at all (`None`) if it hears nothing and no move was played.
fn check_observations(command: Command, out: &Outcome, ctx: &str) {
    for player in [Color::White, Color::Black] {
        let mover = player == out.side;
        let hears: Vec<Announcement> = out
            .announcements
            .iter()
            .filter(|h| match h.audience {
                Audience::Both => true,
                Audience::Mover => mover,
                Audience::Opponent => !mover,
            })
            .map(|h| h.announcement)
            .collect();
        match out.observation(command, player) {
            None => assert!(!mover && hears.is_empty() && !out.is_accepted(), "{ctx}"),
            Some(obs) => {
                assert_eq!(obs.announcements.to_vec(), hears, "{ctx}");
                assert_eq!(obs.moved, out.is_accepted(), "{ctx}");
                assert_eq!(obs.own.is_some(), mover, "{ctx}");
                if let Some(own) = obs.own {
                    assert_eq!((own.command, own.verdict), (command, out.verdict), "{ctx}");
                }
            }
        }
    }
}

/// FEN of a position, for comparing the model's with the umpire's.
fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn all_rules() -> impl Iterator<Item = &'static RuleSet> {
    RuleSetId::ALL.into_iter().map(RuleSetId::rules)
}

/// Start positions for the random games, besides the standard one: castling on both
/// wings, promotions (with and without capture) in a few moves, en passant at every black
/// double step, and a rook ending that runs into the fifty-move rule or a repetition.
const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "8/PPPPPPPP/4k3/8/8/4K3/pppppppp/8 w - - 0 1",
    "4k3/pppppppp/8/P1P1P1P1/8/8/1P1P1P1P/4K3 b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 80 1",
];

/// How many times the default number of games to play: `UMPIRE_PROPERTY_SCALE` (default 3;
/// long runs use e.g. 1000).
fn scale() -> usize {
    std::env::var("UMPIRE_PROPERTY_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[test]
fn random_games_under_every_rule_set_match_the_model() {
    let mut all = Seen::default();
    for (r, rules) in all_rules().enumerate() {
        let mut seen = Seen::default();
        let (mut judged, mut moves) = (0, 0);
        for (s, start) in STARTS.iter().enumerate() {
            let games = scale() * if s == 0 { 6 } else { 3 };
            for g in 0..games {
                let seed = (r * 1_000_000 + s * 100_000 + g) as u64;
                let mut umpire = Umpire::from_fen(*rules, start).unwrap();
                let mut model = Model::new(rules, umpire.position().clone());
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                random_game(&mut umpire, &mut rng, 400, |command, out| {
                    model.judge(command, out)
                });
                assert_eq!(
                    fen(umpire.position()),
                    fen(&model.pos),
                    "{}: seed {seed}",
                    rules.id
                );
                assert_eq!(umpire.result(), model.result, "{}: seed {seed}", rules.id);
                seen.add(&model.seen);
                judged += model.judged;
                moves += model.accepted;
            }
        }
        eprintln!("{}: {judged} commands, {moves} moves: {seen:?}", rules.id);
        assert!(seen.illegal > 0 && moves > 1000, "{}", rules.id);
        all.add(&seen);
    }
    // The rare events did happen, so the properties above were checked on them.
    assert!(
        all.en_passant > 0 && all.promotions > 0 && all.promotion_captures > 0,
        "{all:?}"
    );
    assert!(all.castles > 0 && all.double_checks > 0, "{all:?}");
    assert!(all.checks.iter().all(|&n| n > 0), "{all:?}");
    assert!(
        // random_game offers only pawn captures while an "Any?" obliges, and never repeats.
        all.any_yes > 0 && all.must_try == 0 && all.repeats == 0 && all.ruled_out > 0,
        "{all:?}"
    );
}

/// A random attempt of any shape: mostly from one of the mover's men, to any other square,
/// sometimes with a promotion letter (including the nonsensical king and pawn).
fn arbitrary_attempt(rng: &mut Xoshiro256PlusPlus, pos: &Chess) -> Attempt {
    let ours: Vec<Square> = pos.us().into_iter().collect();
    let from = if rng.random_range(0..10) < 8 {
        ours[rng.random_range(0..ours.len())]
    } else {
        Square::new(rng.random_range(0..64))
    };
    let mut to = Square::new(rng.random_range(0..64));
    if to == from {
        to = Square::new((u32::from(to) + 1) % 64);
    }
    let promotion = match rng.random_range(0..12) {
        0 => Some(Role::Queen),
        1 => Some(Role::Rook),
        2 => Some(Role::Bishop),
        3 => Some(Role::Knight),
        4 => Some(Role::King),
        5 => Some(Role::Pawn),
        _ => None,
    };
    Attempt {
        from,
        to,
        promotion,
    }
}

#[test]
fn arbitrary_attempts_repeats_and_questions_match_the_model() {
    let mut options = AttemptList::new();
    let mut all = Seen::default();
    for (r, rules) in all_rules().enumerate() {
        let mut judged = 0u64;
        for seed in 0..8 * scale() as u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xC0FFEE + 1_000_000 * r as u64 + seed);
            let start = STARTS[seed as usize % STARTS.len()];
            let mut umpire = Umpire::from_fen(*rules, start).unwrap();
            let mut model = Model::new(rules, umpire.position().clone());
            let mut steps = 0;
            while !umpire.is_over() && umpire.plies() < 300 && steps < 6000 {
                steps += 1;
                let roll = rng.random_range(0..100);
                let command = if roll < 25 {
                    Command::Attempt(arbitrary_attempt(&mut rng, &model.pos))
                } else if roll < 32 && !model.rejected.is_empty() {
                    Command::Attempt(model.rejected[rng.random_range(0..model.rejected.len())])
                } else if roll < 36 {
                    Command::AskAny
                } else {
                    options.clear();
                    umpire.mover_options(&mut options);
                    if options.is_empty() {
                        Command::AskAny
                    } else {
                        Command::Attempt(options[rng.random_range(0..options.len())])
                    }
                };
                let out = umpire.submit(command);
                model.judge(command, &out);
            }
            assert_eq!(
                fen(umpire.position()),
                fen(&model.pos),
                "{}: seed {seed}",
                rules.id
            );
            assert_eq!(umpire.result(), model.result);
            // After the end, everything is refused.
            if umpire.is_over() {
                for command in [
                    Command::AskAny,
                    Command::Attempt(arbitrary_attempt(&mut rng, &model.pos)),
                ] {
                    let out = umpire.submit(command);
                    model.judge(command, &out);
                }
            }
            judged += model.judged;
            all.add(&model.seen);
        }
        assert!(judged > 1000, "{}: {judged}", rules.id);
    }
    eprintln!("{all:?}");
    assert!(
        all.repeats > 0 && all.impossible > 0 && all.illegal > 0 && all.must_try > 0,
        "{all:?}"
    );
}

#[test]
fn the_own_board_model_agrees_with_the_umpires_options() {
    // Sanity check of the test's own-board model: on the positions of random games, the set
    // of attempts it calls possible (over all from/to/promotion triples) is exactly the
    // umpire's list of options at the start of a turn.
    for rules in [&RuleSet::WILD16, &RuleSet::UMPIRE1965] {
        let mut turns = 0;
        let mut umpire = Umpire::new(*rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..120 {
            if umpire.is_over() {
                break;
            }
            let mut options = AttemptList::new();
            umpire.mover_options(&mut options);
            let mut theirs: Vec<Attempt> = options.to_vec();
            theirs.sort();
            let mut ours = Vec::new();
            for from in Square::ALL {
                for to in Square::ALL {
                    for promotion in [
                        None,
                        Some(Role::Queen),
                        Some(Role::Rook),
                        Some(Role::Bishop),
                        Some(Role::Knight),
                    ] {
                        let a = Attempt {
                            from,
                            to,
                            promotion,
                        };
                        if from != to
                            && own_possible(umpire.position(), a, rules.promotion_always_queen)
                        {
                            ours.push(a);
                        }
                    }
                }
            }
            ours.sort();
            assert_eq!(ours, theirs, "{}: {}", rules.id, fen(umpire.position()));
            // Play a random legal move.
            let legal = umpire.legal_moves();
            let m = legal[rng.random_range(0..legal.len())];
            let uci = UciMove::from_standard(m);
            let UciMove::Normal {
                from,
                to,
                promotion,
            } = uci
            else {
                unreachable!()
            };
            let promotion = if rules.promotion_always_queen && promotion.is_some() {
                Some(Role::Queen)
            } else {
                promotion
            };
            let out = umpire.submit(Command::Attempt(Attempt {
                from,
                to,
                promotion,
            }));
            assert_eq!(out.verdict, Verdict::Accepted);
            turns += 1;
        }
        assert!(turns > 20, "{}: {turns}", rules.id);
    }
}

#[test]
fn random_game_handles_a_full_rank_of_promoting_pawns() {
    // Regression: eight white pawns on the 7th rank give 22 promotion destinations, 88
    // attempts with four pieces each; `random_game` once kept room for only 64 and panicked.
    for rules in all_rules() {
        for seed in 0..3 {
            let mut umpire = Umpire::from_fen(*rules, STARTS[2]).unwrap();
            let mut model = Model::new(rules, umpire.position().clone());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            random_game(&mut umpire, &mut rng, 60, |command, out| {
                model.judge(command, out)
            });
            assert!(model.seen.promotions > 0, "{}", rules.id);
        }
    }
}
