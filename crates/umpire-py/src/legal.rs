//! A player's legal actions, worked out from its view alone: the hot path of every step.
//!
//! [`legal_actions_of`] gives the actions of [`PlayerView::options`] (or, guided, of the sound
//! guided space), sorted. The plain options are computed here straight from the own board's
//! destination sets, man by man, as action ids: what the rule set rules out this turn
//! (`umpire_view::ruled_out`: pawn captures after "no" or without an announced try, moves
//! that cannot answer an announced check under `check_binds`) and the pawn-capture obligation
//! after "yes" become masks on a man's destinations instead of a test per attempt, and no
//! attempt list is built. [`options_actions`], the same through `PlayerView::options` and the
//! encoding of each attempt, is the reference the tests compare it with at every step.

use umpire_rules::shakmaty::{Bitboard, Color, Role, Square, attacks};
use umpire_rules::{AttemptList, CheckKind, PawnCaptureInfo};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

use crate::action::{self, ANY_ACTION, ANY_ACTION_ID, Action, PLANES, StepEncoder};

/// Words of the bit set of the 4,672 moves.
const WORDS: usize = ANY_ACTION.div_ceil(64);

/// The sorted actions of a set of moves: a bit set with a summary of its non-empty words
/// (cheaper than sorting a list, and than scanning all 73 words).
struct ActionSet {
    bits: [u64; WORDS],
    used: u128,
}

impl ActionSet {
    fn new() -> ActionSet {
        ActionSet {
            bits: [0; WORDS],
            used: 0,
        }
    }

    fn insert(&mut self, x: usize) {
        self.bits[x / 64] |= 1 << (x % 64);
        self.used |= 1 << (x / 64);
    }

    fn remove(&mut self, x: usize) {
        self.bits[x / 64] &= !(1 << (x % 64));
    }

    /// Appends the actions in ascending order (taken by reference: the set is 600 bytes, and
    /// moving it would copy them).
    fn drain_into(&mut self, out: &mut Vec<u16>) {
        while self.used != 0 {
            let w = self.used.trailing_zeros();
            self.used &= self.used - 1;
            let mut word = self.bits[w as usize];
            while word != 0 {
                // Below 4,672: a word index below 73 times 64 plus a bit index.
                out.push((w * 64 + word.trailing_zeros()) as u16);
                word &= word - 1;
            }
        }
    }
}

/// The legal actions a player with `view` has, sorted: its options (every attempt possible on
/// its own board, not rejected this turn and not ruled out by what it heard; only pawn
/// captures while "Any?" obliges it), narrowed by the sound guided filters when `guided`, and
/// "Any?" where it may be asked; nothing when it is not to move. Appends to `out`. A function
/// of the view alone.
pub fn legal_actions_of(view: &PlayerView, guided: bool, out: &mut Vec<u16>) {
    if guided {
        let mut list = AttemptList::new();
        let may_ask = GuidedSpace::new(view, FilterSet::all_sound()).options(&mut list);
        encode_sorted(view.side(), &list, may_ask, out);
    } else {
        own_board_actions(view, out);
    }
}

/// [`legal_actions_of`] without the guided filters, through [`PlayerView::options`] and the
/// encoding of each attempt: the reference for the fast path.
pub fn options_actions(view: &PlayerView, out: &mut Vec<u16>) {
    let mut list = AttemptList::new();
    let may_ask = view.options(&mut list);
    encode_sorted(view.side(), &list, may_ask, out);
}

fn encode_sorted(side: Color, list: &AttemptList, may_ask: bool, out: &mut Vec<u16>) {
    let mut set = ActionSet::new();
    for &a in list.iter() {
        if let Some(x) = action::encode(a, side) {
            set.insert(x);
        }
    }
    set.drain_into(out);
    if may_ask {
        out.push(ANY_ACTION_ID);
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

/// The plain options of `view` as sorted actions, from the own board's destination sets.
fn own_board_actions(view: &PlayerView, out: &mut Vec<u16>) {
    if !view.is_my_turn() {
        return;
    }
    let side = view.side();
    let own = view.own_board();
    let queen_only = view.rules().promotion_always_queen;
    let masks = TurnMasks::of(view);
    let mut set = ActionSet::new();
    own.for_each_man(|from, role, targets| {
        let allowed = masks.allowed(side, from, role, targets);
        let promotes = role == Role::Pawn && own.promotes_from(from);
        let encoder = StepEncoder::new(from, side);
        for to in allowed {
            let Some(x) = encoder.to(to) else {
                continue;
            };
            set.insert(x);
            if promotes && !queen_only {
                // The under-promotions: planes 64 + piece * 3 + (file step + 1).
                let base = (x / PLANES) * PLANES + 64;
                let step = to.file() as i32 - from.file() as i32;
                let column = usize::try_from(step + 1).unwrap_or(1);
                for piece in 0..3 {
                    set.insert(base + piece * 3 + column);
                }
            }
        }
    });
    // Attempts rejected this turn are no options (each is an own-board attempt, one action).
    let pawns = own.board().pawns();
    for &rejected in &view.turn().rejected {
        if let Some(x) = action::encode(rejected, side)
            && action::decode(x, side, |sq| pawns.contains(sq)) == Some(Action::Attempt(rejected))
        {
            set.remove(x);
        }
    }
    set.drain_into(out);
    if view.rules().has_any_question() && view.turn().any_answer.is_none() {
        out.push(ANY_ACTION_ID);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{GameConfig, KriegspielState};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::RuleSetId;

    /// Positions with promotions, checks and en passant near.
    const SETUPS: [&str; 3] = [
        "4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1",
        "r3k2r/pPp2ppp/8/3Pp3/8/8/PpP2PPP/R3K2R w KQkq e6 0 1",
        "4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1",
    ];

    /// The fast path gives exactly the actions of `PlayerView::options` at every step of
    /// random games, for both players' views, under every rule set, from the standard start
    /// and from set-ups with promotions, castling and en passant.
    #[test]
    fn own_board_actions_are_the_options_at_every_step() {
        let mut compared = 0;
        let mut under_promotions = 0;
        for id in RuleSetId::ALL {
            let fens = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (k, fen) in fens.enumerate() {
                let config = GameConfig::new(id.as_str(), fen, false).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(11 + k as u64);
                for _ in 0..2 {
                    let mut s = KriegspielState::new(config.clone()).unwrap();
                    let mut steps = 0;
                    while !s.is_terminal() && steps < 3_000 {
                        for side in [Color::White, Color::Black] {
                            let (mut fast, mut slow) = (Vec::new(), Vec::new());
                            legal_actions_of(s.view(side), false, &mut fast);
                            options_actions(s.view(side), &mut slow);
                            assert_eq!(fast, slow, "{} step {steps} {side:?}", id.as_str());
                            under_promotions += fast
                                .iter()
                                .filter(|&&a| usize::from(a) % PLANES >= 64)
                                .count();
                            compared += 1;
                        }
                        let actions = s.mover_actions();
                        let a = actions[rng.random_range(0..actions.len())];
                        s.apply_action(a as i64).unwrap();
                        steps += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
        assert!(under_promotions > 0);
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
