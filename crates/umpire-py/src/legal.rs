//! A player's legal actions, worked out from its view alone: the hot path of every step.
//!
//! [`legal_actions_of`] gives the actions of [`PlayerView::options`] (or, guided, of the sound
//! guided space), sorted. The plain options are written here straight into a bit set of the
//! action ids ([`ActionSet`]) from the own board, on the board as the mover sees it: all the
//! pawns' moves a plane at a time (a pawn's step, double step, capture or under-promotion is
//! one plane of its square), a slider's rays as runs of consecutive planes
//! ([`planes::slider`]), knights and the king step by step; no attempt list is built and no
//! attempt is encoded. What the rule set rules out this turn (`umpire_view::ruled_out`: pawn
//! captures after "no" or without an announced try) and the pawn-capture obligation after
//! "yes" narrow those sets; when an announced check binds the mover (`check_binds`), the
//! moves are worked out man by man, each man's destinations masked by the check's line. The
//! states keep the bit set ([`legal_set_of`]); the sorted list is read out of it when asked
//! for. [`options_actions`], the same through
//! `PlayerView::options` and the encoding of each attempt, is the reference the tests compare
//! it with at every step.

use umpire_rules::shakmaty::{Bitboard, Color, Role, Square, attacks};
use umpire_rules::{AttemptList, CheckKind, OwnBoard, PawnCaptureInfo};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

use crate::action::{self, ANY_ACTION_ID, Action, StepEncoder};
use crate::action_set::ActionSet;
use crate::planes;

/// The legal actions a player with `view` has, sorted: its options (every attempt possible on
/// its own board, not rejected this turn and not ruled out by what it heard; only pawn
/// captures while "Any?" obliges it), narrowed by the sound guided filters when `guided`, and
/// "Any?" where it may be asked; nothing when it is not to move. Appends to `out`. A function
/// of the view alone.
pub fn legal_actions_of(view: &PlayerView, guided: bool, out: &mut Vec<u16>) {
    let mut set = ActionSet::new();
    legal_set_of(view, guided, &mut set);
    set.drain_into(out);
}

/// [`legal_actions_of`] as a set of action ids ("Any?" included, as [`ANY_ACTION_ID`]):
/// `set` is emptied, then filled. The states keep their mover's actions this way, so that a
/// vectorised step can count them and pick one by rank without reading out a sorted list.
pub fn legal_set_of(view: &PlayerView, guided: bool, set: &mut ActionSet) {
    set.clear();
    if guided {
        let mut list = AttemptList::new();
        let may_ask = GuidedSpace::new(view, FilterSet::all_sound()).options(&mut list);
        encode_into(view.side(), &list, may_ask, set);
    } else {
        own_board_actions(view, set);
    }
}

/// [`legal_actions_of`] without the guided filters, through [`PlayerView::options`] and the
/// encoding of each attempt: the reference for the fast path.
pub fn options_actions(view: &PlayerView, out: &mut Vec<u16>) {
    let mut list = AttemptList::new();
    let may_ask = view.options(&mut list);
    let mut set = ActionSet::new();
    encode_into(view.side(), &list, may_ask, &mut set);
    set.drain_into(out);
}

fn encode_into(side: Color, list: &AttemptList, may_ask: bool, set: &mut ActionSet) {
    for &a in list.iter() {
        if let Some(x) = action::encode(a, side) {
            set.insert(x);
        }
    }
    if may_ask {
        set.insert(usize::from(ANY_ACTION_ID));
    }
}

/// What the player heard this turn allows, as masks on destinations.
struct TurnMasks {
    /// The pawns whose captures are not ruled out.
    capturing_pawns: Bitboard,
    /// Only pawn captures may be tried ("Any?" answered yes).
    pawn_captures_only: bool,
    /// Under `check_binds` after a check: the own king's square, and the line of a single
    /// check (`None` for a double check, which only a king's step may answer).
    check: Option<(Square, Option<Bitboard>)>,
}

impl TurnMasks {
    fn of(view: &PlayerView) -> TurnMasks {
        let rules = view.rules();
        let turn = view.turn();
        let own = view.own_board().board();
        let mut capturing_pawns = own.pawns();
        if turn.any_answer == Some(false) {
            capturing_pawns = Bitboard::EMPTY;
        }
        if rules.pawn_info_binds {
            match rules.pawn_captures {
                PawnCaptureInfo::Count if turn.pawn_tries == Some(0) => {
                    capturing_pawns = Bitboard::EMPTY;
                }
                PawnCaptureInfo::YesNo if turn.has_pawn_capture == Some(false) => {
                    capturing_pawns = Bitboard::EMPTY;
                }
                PawnCaptureInfo::TrySquares => {
                    if let Some(squares) = turn.try_squares {
                        capturing_pawns &= squares;
                    }
                }
                _ => {}
            }
        }
        let check = match (rules.check_binds, turn.checks.first(), own.kings().first()) {
            (true, Some(&kind), Some(king)) => Some((
                king,
                (turn.checks.len() == 1).then(|| CheckKind::line(kind, king)),
            )),
            _ => None,
        };
        TurnMasks {
            capturing_pawns,
            pawn_captures_only: turn.must_try_pawn_capture,
            check,
        }
    }

    /// The destinations of the man of `role` on `from` that may be tried, of `targets` (its
    /// destinations on the own board).
    fn allowed(&self, side: Color, from: Square, role: Role, targets: Bitboard) -> Bitboard {
        let (captures, others) = if role == Role::Pawn {
            let diagonal = attacks::pawn_attacks(side, from);
            let captures = if self.capturing_pawns.contains(from) {
                targets & diagonal
            } else {
                Bitboard::EMPTY
            };
            (captures, targets & !diagonal)
        } else {
            (Bitboard::EMPTY, targets)
        };
        let (captures, others) = if self.pawn_captures_only {
            (captures, Bitboard::EMPTY)
        } else {
            (captures, others)
        };
        match self.check {
            None => captures | others,
            Some((king, _)) if from == king => (captures | others) & attacks::king_attacks(king),
            Some((_, None)) => Bitboard::EMPTY,
            Some((_, Some(line))) => {
                // A pawn capture answers the check if it lands on the line, or could take en
                // passant a pawn standing on it (beside the capturing pawn, on its rank).
                let mut answering = (captures | others) & line;
                for to in captures & !line {
                    if line.contains(Square::from_coords(to.file(), from.rank())) {
                        answering.add(to);
                    }
                }
                answering
            }
        }
    }
}

/// The plain options of `view` as actions, added to `set` from the own board's destination
/// sets.
fn own_board_actions(view: &PlayerView, set: &mut ActionSet) {
    if !view.is_my_turn() {
        return;
    }
    let side = view.side();
    let own = view.own_board();
    let queen_only = view.rules().promotion_always_queen;
    let masks = TurnMasks::of(view);
    if masks.check.is_none() {
        whole_board(own, &masks, queen_only, set);
    } else {
        man_by_man(own, side, &masks, queen_only, set);
    }
    // Attempts rejected this turn are no options (each is an own-board attempt, one action).
    let pawns = own.board().pawns();
    for &rejected in &view.turn().rejected {
        if let Some(x) = action::encode(rejected, side)
            && action::decode(x, side, |sq| pawns.contains(sq)) == Some(Action::Attempt(rejected))
        {
            set.remove(x);
        }
    }
    if view.rules().has_any_question() && view.turn().any_answer.is_none() {
        set.insert(usize::from(ANY_ACTION_ID));
    }
}

/// The a-file, the h-file, the second and the seventh rank (seen from the mover's side).
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_2: u64 = 0xFF << 8;
const RANK_7: u64 = 0xFF << 48;

/// Adds the move of `plane` from each of the (oriented) squares of `from`.
fn insert_plane(set: &mut ActionSet, from: u64, plane: usize) {
    for sq in Bitboard(from) {
        set.insert(usize::from(sq) * action::PLANES + plane);
    }
}

/// The options when no announced check binds the mover, on the board as the mover sees it
/// (Black's mirrored by rank, so that its pawns go north as White's do): the pawns' moves a
/// plane at a time for all pawns at once (each pawn move is one plane of its square: north 1
/// or 2, north-east or north-west 1, and the under-promotions), a slider's rays as runs of
/// planes, knights and the king step by step.
fn whole_board(own: &OwnBoard, masks: &TurnMasks, queen_only: bool, set: &mut ActionSet) {
    let seen = |bb: Bitboard| match own.side() {
        Color::White => bb,
        Color::Black => bb.flip_vertical(),
    };
    let board = own.board();
    let occupied = seen(board.occupied());
    let free = !occupied.0;
    let pawns = seen(board.pawns()).0;
    let capturing = seen(masks.capturing_pawns).0 & pawns;
    // Pawn captures: north-east 1 is plane 7, north-west 1 plane 49.
    let north_east = capturing & !FILE_H & (free >> 9);
    let north_west = capturing & !FILE_A & (free >> 7);
    insert_plane(set, north_east, 7);
    insert_plane(set, north_west, 49);
    let north = if masks.pawn_captures_only {
        0
    } else {
        pawns & (free >> 8)
    };
    if !queen_only {
        // From the seventh rank each step also under-promotes: planes 64 + piece * 3 + column.
        for (from, column) in [(north_west, 0), (north, 1), (north_east, 2)] {
            for piece in 0..3 {
                insert_plane(set, from & RANK_7, 64 + piece * 3 + column);
            }
        }
    }
    if masks.pawn_captures_only {
        return;
    }
    insert_plane(set, north, 0);
    insert_plane(set, north & RANK_2 & (free >> 16), 1);
    let sliders = [
        (board.bishops(), Role::Bishop),
        (board.rooks(), Role::Rook),
        (board.queens(), Role::Queen),
    ];
    for (men, role) in sliders {
        for from in seen(men) {
            // A slider's moves do not depend on its side: White's, on the mirrored board.
            let targets = attacks::attacks(from, role.of(Color::White), occupied) & !occupied;
            set.insert_planes(
                usize::from(from),
                planes::slider(usize::from(from), targets.0),
            );
        }
    }
    for from in seen(board.knights()) {
        let targets = attacks::knight_attacks(from) & !occupied;
        let encoder = StepEncoder::new(from, Color::White);
        set.insert_planes(
            usize::from(from),
            planes::steps(&encoder, from, targets, false),
        );
    }
    for king in board.kings() {
        // The king's destinations with castling, turned to the mover's side.
        let targets = seen(own.destinations(king));
        let from = from_real(king, own.side());
        let encoder = StepEncoder::new(from, Color::White);
        set.insert_planes(
            usize::from(from),
            planes::steps(&encoder, from, targets, false),
        );
    }
}

/// `square` seen from `side` (Black's mirrored by rank), or back: the mirror is its own inverse.
fn from_real(square: Square, side: Color) -> Square {
    match side {
        Color::White => square,
        Color::Black => square.flip_vertical(),
    }
}

/// The options man by man, each man's destinations narrowed by what the turn allows (the
/// path when an announced check binds the mover).
fn man_by_man(
    own: &OwnBoard,
    side: Color,
    masks: &TurnMasks,
    queen_only: bool,
    set: &mut ActionSet,
) {
    own.for_each_man(|from, role, targets| {
        let allowed = masks.allowed(side, from, role, targets);
        if allowed.is_empty() {
            return;
        }
        let encoder = StepEncoder::new(from, side);
        let from_seen = encoder.oriented_from();
        let sliding = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
        let planes = if sliding && allowed == targets {
            // Whole rays: runs of planes (`planes::slider`), on the board as the mover sees it.
            let seen = match side {
                Color::White => allowed,
                Color::Black => allowed.flip_vertical(),
            };
            planes::slider(from_seen, seen.0)
        } else {
            let under = !queen_only && role == Role::Pawn && own.promotes_from(from);
            planes::steps(&encoder, from, allowed, under)
        };
        set.insert_planes(from_seen, planes);
    });
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::action::PLANES;
    use crate::state::{GameConfig, KriegspielState};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::RuleSetId;

    /// Positions with promotions, checks, castling and en passant near (the last two with
    /// queens and rooks in the open, checks that bind under some rule sets).
    pub(crate) const SETUPS: [&str; 5] = [
        "4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1",
        "r3k2r/pPp2ppp/8/3Pp3/8/8/PpP2PPP/R3K2R w KQkq e6 0 1",
        "4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1",
        "r3k2r/8/3q4/2pP4/4Pp2/3Q4/8/R3K2R b KQkq e3 0 1",
        "2b1k3/1PP5/8/8/2B5/8/1p5p/R3K2R w KQ - 0 1",
    ];

    /// The fast path gives exactly the actions of `PlayerView::options` at every step of
    /// random games, for both players' views, under every rule set, from the standard start
    /// and from set-ups with promotions, castling and en passant; the games reach each of
    /// those (and turns under a binding check, the man-by-man path), as counted.
    #[test]
    fn own_board_actions_are_the_options_at_every_step() {
        use umpire_rules::shakmaty::{EnPassantMode, Position};
        let mut compared = 0;
        let mut under_promotions = 0;
        let (mut castles, mut en_passant, mut bound_checks) = (0, 0, 0);
        for id in RuleSetId::ALL {
            let fens = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (k, fen) in fens.enumerate() {
                let config = GameConfig::new(id.as_str(), fen, false).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(11 + k as u64);
                for _ in 0..3 {
                    let mut s = KriegspielState::new(config.clone()).unwrap();
                    let mut steps = 0;
                    while !s.is_terminal() && steps < 3_000 {
                        let mover = s.game().umpire().turn();
                        if s.game()
                            .umpire()
                            .position()
                            .ep_square(EnPassantMode::Legal)
                            .is_some()
                        {
                            en_passant += 1;
                        }
                        if id.rules().check_binds && !s.view(mover).turn().checks.is_empty() {
                            bound_checks += 1;
                        }
                        for side in [Color::White, Color::Black] {
                            let (mut fast, mut slow) = (Vec::new(), Vec::new());
                            legal_actions_of(s.view(side), false, &mut fast);
                            options_actions(s.view(side), &mut slow);
                            assert_eq!(fast, slow, "{} step {steps} {side:?}", id.as_str());
                            under_promotions += fast
                                .iter()
                                .filter(|&&a| usize::from(a) % PLANES >= 64)
                                .count();
                            // The king at home stepping two squares east or west (from
                            // e1 as the mover sees it, square 4; planes 15 and 43).
                            let home = match side {
                                Color::White => Square::E1,
                                Color::Black => Square::E8,
                            };
                            if s.view(side).own_board().board().kings().contains(home) {
                                castles += fast
                                    .iter()
                                    .filter(|&&a| a == 4 * 73 + 15 || a == 4 * 73 + 43)
                                    .count();
                            }
                            compared += 1;
                        }
                        let k = rng.random_range(0..s.mover_count());
                        let a = s.mover_set().nth(k).unwrap();
                        s.apply_action(a as i64).unwrap();
                        steps += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
        assert!(under_promotions > 0);
        assert!(castles > 0 && en_passant > 0 && bound_checks > 0);
    }

    /// A double check under a rule set where checks bind: only the king's steps are options.
    #[test]
    fn after_a_double_check_only_king_steps_remain() {
        let fen = "1n2k3/7p/8/8/4N3/8/3P4/4R1K1 w - - 0 1";
        let config = GameConfig::new("rand", Some(fen.into()), false).unwrap();
        let mut s = KriegspielState::new(config).unwrap();
        let nf6 = action::encode(
            umpire_rules::Attempt::new(Square::E4, Square::F6),
            Color::White,
        )
        .unwrap();
        assert!(s.apply_action(nf6 as i64).unwrap().is_accepted());
        let view = s.view(Color::Black);
        assert_eq!(view.turn().checks.len(), 2);
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        legal_actions_of(view, false, &mut fast);
        options_actions(view, &mut slow);
        assert_eq!(fast, slow);
        let king_steps = attacks::king_attacks(Square::E8).count();
        assert_eq!(
            fast.iter().filter(|&&a| a != ANY_ACTION_ID).count(),
            king_steps
        );
    }
}
