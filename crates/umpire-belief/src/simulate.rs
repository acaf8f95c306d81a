//! Hypothetical games: the real umpire (`umpire_rules::Umpire`) judging commands in a position
//! the player cannot rule out, so that what the player would have heard is never modelled apart
//! from the rules.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Square, attacks};
use umpire_rules::{
    Announcement, Attempt, AttemptList, Command, Observation, RuleSet, Umpire, Verdict,
};

use crate::compare::{Expected, OpponentEvent, opponent_event};
use crate::zobrist_key::zobrist;

/// The rule set the simulation runs under: the real one with the repetition draw switched off
/// (a fresh umpire per turn keeps no earlier positions; see `compare`).
pub(crate) fn simulation_rules(rules: RuleSet) -> RuleSet {
    RuleSet {
        threefold_repetition: false,
        ..rules
    }
}

/// The umpire of a hypothetical position (`None` if the side to move has no move: such a
/// position cannot be the start of a turn).
pub(crate) fn umpire_at(rules: RuleSet, pos: &Chess) -> Option<Umpire> {
    Umpire::from_position(rules, pos.clone()).ok()
}

/// What our command does to one hypothesis.
pub(crate) enum Step {
    /// The umpire would have answered otherwise: the hypothesis is ruled out.
    Drop,
    /// The same answer, no move made.
    Stay,
    /// The same answer, and our move was made: the new position, the opponent to move.
    Moved(Chess),
}

/// Replays our commands of this turn (`earlier`, already checked) and then `command` in `pos`,
/// and compares the umpire's answer with `real` (what the player heard, prepared once for many
/// hypotheses: [`Expected::of`]). `scratch` is an umpire kept between calls
/// (reset to `pos`, sparing an allocation and a move generation per call).
pub(crate) fn own_step(
    scratch: &mut Option<Umpire>,
    rules: RuleSet,
    pos: &Chess,
    earlier: &[Command],
    command: Command,
    real: &Expected,
) -> Step {
    let umpire = match scratch {
        Some(u) => {
            if u.reset_to(rules, pos).is_err() {
                return Step::Drop;
            }
            u
        }
        None => match umpire_at(rules, pos) {
            Some(u) => scratch.insert(u),
            None => return Step::Drop,
        },
    };
    for &c in earlier {
        umpire.submit(c);
    }
    let out = umpire.submit(command);
    if !real.matches(&out) {
        return Step::Drop;
    }
    if out.verdict == Verdict::Accepted {
        Step::Moved(umpire.position().clone())
    } else {
        Step::Stay
    }
}

/// Whether an observation of the opponent's tells something about the position.
pub(crate) fn informative_event(obs: &Observation) -> bool {
    opponent_event(obs) != OpponentEvent::Silent
}

/// The umpires an expansion of the opponent's turn works with, kept between hypotheses so that
/// an expansion builds none: the frontier's first umpire is reset in place to each hypothesis
/// ([`Umpire::reset_to`]) and every candidate is judged in one umpire copied into
/// ([`Clone::clone_from`]), instead of a fresh umpire (a list of legal moves generated and a
/// repetition history allocated) and a fresh copy per hypothesis.
#[derive(Default)]
pub(crate) struct OpponentScratch {
    frontier: Vec<(BranchKey, Umpire)>,
    next_frontier: Vec<(BranchKey, Umpire)>,
    next: Option<Umpire>,
}

/// Every way the opponent, to move in `pos`, could have made the player hear `events` (the
/// informative observations of its turn, the last one its move): calls `emit` with the umpire
/// after each such move (the resulting position, the player to move, analysed as after any
/// move), the opponent's move and the position's Zobrist hash. `pick` is asked first about
/// each move whose capture matches the heard one: a move it declines is not judged (a turn
/// that draws a share of every parent's moves, `belief/every_parent.rs`). `scratch` holds the
/// umpires between calls.
///
/// The opponent's turn is followed event by event over a frontier of equivalent branches
/// ([`BranchKey`]): after each heard rejection the branches with the same key are merged, so a
/// turn with `k` rejections keeps at most a few times `k` branches instead of one per order in
/// which pawn captures and other attempts could have been rejected (exponential in `k`: a
/// searching opponent's turn of ten rejections took minutes per hypothesis before).
pub(crate) fn expand_opponent(
    scratch: &mut OpponentScratch,
    rules: RuleSet,
    pos: &Chess,
    events: &[Observation],
    pick: &mut impl FnMut(Attempt) -> bool,
    emit: &mut impl FnMut(&Umpire, Attempt, u64),
) {
    let OpponentScratch {
        frontier,
        next_frontier,
        next,
    } = scratch;
    // The frontier starts as one umpire in `pos`: the first one kept, reset in place.
    frontier.truncate(1);
    match frontier.first_mut() {
        Some((_, umpire)) => {
            if umpire.reset_to(rules, pos).is_err() {
                return;
            }
        }
        None => match umpire_at(rules, pos) {
            Some(umpire) => frontier.push(((false, 0, 0), umpire)),
            None => return,
        },
    }
    frontier[0].0 = (frontier[0].1.must_try_pawn_capture(), 0, 0);
    // One umpire judges every candidate: `clone_from` resets it without allocating.
    let next = next.get_or_insert_with(|| frontier[0].1.clone());
    let mut scratch = AttemptList::new();
    let mut legal = AttemptList::new();
    for event in events {
        // What the player heard, prepared once for every branch and move judged.
        let expected = Expected::of(event);
        match opponent_event(event) {
            OpponentEvent::Silent => {}
            OpponentEvent::Any => {
                next_frontier.clear();
                for (key, mut umpire) in frontier.drain(..) {
                    let out = umpire.ask_any();
                    if expected.matches(&out) {
                        let key = (umpire.must_try_pawn_capture(), key.1, key.2);
                        if next_frontier.iter().all(|(k, _)| *k != key) {
                            next_frontier.push((key, umpire));
                        }
                    }
                }
                std::mem::swap(frontier, next_frontier);
            }
            OpponentEvent::Rebuff => {
                next_frontier.clear();
                for (key, umpire) in frontier.drain(..) {
                    scratch.clear();
                    rebuff_candidates(&umpire, &mut scratch);
                    // A legal move's attempt is accepted (or, under an obligation to try pawn
                    // captures, silently invalid): never the rejection the player heard, so
                    // it is not judged (most candidates are legal moves).
                    legal.clear();
                    for m in umpire.legal_moves() {
                        if let Some(a) = Attempt::from_move(&m) {
                            let _ = legal.try_push(a);
                        }
                    }
                    let own = umpire.own_board();
                    for &a in scratch.iter() {
                        if legal.contains(&a) {
                            continue;
                        }
                        next.clone_from(&umpire);
                        let out = next.attempt(a);
                        if !expected.matches(&out) {
                            continue;
                        }
                        let (mut p, mut o) = (key.1, key.2);
                        if out.verdict == Verdict::Illegal {
                            if own.is_pawn_capture(a) {
                                p += 1;
                            } else {
                                o += 1;
                            }
                        }
                        let key = (next.must_try_pawn_capture(), p, o);
                        if next_frontier.iter().all(|(k, _)| *k != key) {
                            next_frontier.push((key, next.clone()));
                        }
                    }
                }
                std::mem::swap(frontier, next_frontier);
            }
            OpponentEvent::Moved => {
                let heard = heard_capture(event);
                for (_, umpire) in frontier.iter() {
                    let here = umpire.position();
                    let base = Zobrist64(zobrist(here));
                    for m in umpire.legal_moves() {
                        // Every capture is announced with its square: a move whose capture (or
                        // its absence) differs from what was heard cannot match, and is not
                        // judged (this spares an umpire clone per such move).
                        if capture_square(&m) != heard {
                            continue;
                        }
                        let Some(a) = Attempt::from_move(&m) else {
                            continue;
                        };
                        if !pick(a) {
                            continue;
                        }
                        next.clone_from(umpire);
                        // A generated move: judged without the checks it passes anyway, and
                        // the umpire finished only where the player hears what it heard (it
                        // is copied into again before the next move).
                        if next.attempt_legal_if(&m, |out| expected.matches(out)) {
                            let hash = here
                                .update_zobrist_hash(base, m, EnPassantMode::Legal)
                                .map_or_else(|| zobrist(next.position()), |z| z.0);
                            emit(next, a, hash);
                        }
                    }
                }
                return;
            }
        }
        if frontier.is_empty() {
            return;
        }
    }
}

/// The square of the capture announced in `obs`, if any.
fn heard_capture(obs: &Observation) -> Option<Square> {
    obs.announcements.iter().find_map(|a| match *a {
        Announcement::Capture { square, .. } => Some(square),
        _ => None,
    })
}

/// Where the umpire announces the capture of move `m` (the captured man's square: behind the
/// destination for e.p.), if it captures.
fn capture_square(m: &Move) -> Option<Square> {
    m.capture()?;
    if m.is_en_passant() {
        Some(Square::from_coords(m.to().file(), m.from()?.rank()))
    } else {
        Some(m.to())
    }
}

/// Equivalent branches of the opponent's turn: same position, same obligation, same number of
/// illegal pawn captures and other illegal attempts rejected. Which illegal attempts of one kind
/// were rejected does not change any later answer the player can hear.
type BranchKey = (bool, u16, u16);

/// The attempts tried for a rejection the player heard: everything possible on the opponent's
/// own board (rejected ones included, for repeats), one attempt from an empty square, and every
/// pawn "capture" onto an own man (impossible pawn captures, which an obligation allows).
pub(crate) fn rebuff_candidates(umpire: &Umpire, out: &mut AttemptList) {
    let own = umpire.own_board();
    own.attempts(umpire.rules().promotion_always_queen, out);
    let side: Color = own.side();
    let mine = own.board().by_color(side);
    if let Some(empty) = (!mine).first() {
        let to = if empty == shakmaty::Square::A1 {
            shakmaty::Square::H8
        } else {
            shakmaty::Square::A1
        };
        let _ = out.try_push(Attempt::new(empty, to));
    }
    for pawn in own.board().pawns() & mine {
        for to in attacks::pawn_attacks(side, pawn) & mine {
            let _ = out.try_push(Attempt::new(pawn, to));
        }
    }
}
