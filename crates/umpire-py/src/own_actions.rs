//! [`OwnActions`]: a side's own-board actions kept from one of its turns to the next, worked out
//! again only for the men a change of its own board touched.
//!
//! Between two turns of a player its own board changes by little: the man it moved (and the
//! rook of a castling), a man the enemy took, the men whose lines those squares opened or
//! closed. [`OwnActions`] keeps the sorted actions of every own man's destinations but the
//! pawns' diagonal steps (the part of the options that does not depend on what the player heard
//! this turn), remembers the board they were worked out for, and on the next turn works out
//! again only the men on changed squares, the sliders, knights and pawns whose destinations
//! reach a changed square, and the king (its castlings). The turn's pawn captures are added
//! from what the player heard, as [`crate::legal`] masks them. Turns where more is masked (an
//! announced check under `check_binds`, "Any?" answered yes, attempts already rejected) are
//! worked out in full by [`legal_actions_of`]. Either way the result is exactly
//! [`legal_actions_of`]'s: the tests compare them at every step of random games.

use umpire_rules::OwnBoard;
use umpire_rules::shakmaty::{Bitboard, Color, Role, Square, attacks};
use umpire_view::PlayerView;

use crate::action::{ANY_ACTION_ID, PLANES, StepEncoder};
use crate::legal::{TurnMasks, legal_actions_of};

/// The plane of an under-promotion of a pawn to `piece` (0 knight, 1 bishop, 2 rook) with a
/// file step of `column - 1`.
fn under_plane(piece: usize, column: usize) -> usize {
    64 + piece * 3 + column
}

/// The planes (bit `p` for plane `p`) of the steps of the man on `from` to `targets`, with the
/// under-promotions of a pawn that promotes unless `queen_only`.
fn planes_of(
    from: Square,
    side: Color,
    targets: Bitboard,
    promotes: bool,
    queen_only: bool,
) -> u128 {
    let encoder = StepEncoder::new(from, side);
    let base = encoder.first_action();
    let mut planes = 0u128;
    for to in targets {
        let Some(x) = encoder.to(to) else {
            continue;
        };
        planes |= 1 << (x - base);
        if promotes && !queen_only {
            let step = to.file() as i32 - from.file() as i32;
            let column = usize::try_from(step + 1).unwrap_or(1);
            for piece in 0..3 {
                planes |= 1 << under_plane(piece, column);
            }
        }
    }
    planes
}

/// Appends the actions of `planes` from the man whose first action is `base`, ascending.
fn push_planes(base: usize, mut planes: u128, out: &mut Vec<u16>) {
    while planes != 0 {
        // Below 4,672: a from-square's first action plus a plane below 73.
        out.push((base + planes.trailing_zeros() as usize) as u16);
        planes &= planes - 1;
    }
}

/// `bb` by the mover's orientation: square `s` at bit `s` for White, `s ^ 56` for Black (the
/// order of the action ids' from-squares).
fn oriented(bb: Bitboard, side: Color) -> u64 {
    match side {
        Color::White => bb.0,
        Color::Black => bb.flip_vertical().0,
    }
}

/// The square of oriented index `f` for `side`.
fn unoriented(f: u32, side: Color) -> Square {
    let flip = if side == Color::Black { 56 } else { 0 };
    // Below 64: a bit index of a `u64`.
    Square::new(f ^ flip)
}

/// A side's sorted own-board actions (every own man's destinations except the pawns'
/// diagonal steps, with under-promotions where the rules allow them), kept with the board they
/// were worked out for.
#[derive(Clone, Debug, Default)]
pub struct OwnActions {
    /// The own board the list belongs to (`None`: nothing worked out yet).
    board: Option<OwnBoard>,
    /// The actions, ascending.
    list: Vec<u16>,
}

impl OwnActions {
    /// Copies `source` into `self` keeping `self`'s buffer.
    pub fn copy_from(&mut self, source: &OwnActions) {
        self.board.clone_from(&source.board);
        self.list.clone_from(&source.list);
    }

    /// The kept actions (for the tests).
    pub fn list(&self) -> &[u16] {
        &self.list
    }

    /// Brings the list up to `own` (the player's own board now), working out again only the
    /// men a change touched; `scratch` is a buffer to build in.
    pub fn update(&mut self, own: &OwnBoard, queen_only: bool, scratch: &mut Vec<u16>) {
        let board = own.board();
        let changed = match &self.board {
            Some(old) if old == own => return,
            Some(old) if old.side() == own.side() => {
                Role::ALL.iter().fold(Bitboard::EMPTY, |acc, &r| {
                    acc | (old.board().by_role(r) ^ board.by_role(r))
                })
            }
            _ => {
                self.list.clear();
                Bitboard::FULL
            }
        };
        let side = own.side();
        let occupied = board.occupied();
        // The men to work out again: those on changed squares, the king (its castlings depend
        // on rights and on the squares between it and its rooks), and every man whose
        // destinations reach a changed square. A slider's destinations change only if a
        // changed square is among its attacks on the new board (the nearest changed square on
        // a ray is seen from the slider on both boards), that is if the slider is among the
        // changed square's attacks of its kind; a knight's if one of its steps changed; a
        // pawn's forward steps if one of the two squares ahead changed.
        let mut redo = (changed & occupied) | board.kings();
        let diagonal = board.bishops() | board.queens();
        let straight = board.rooks() | board.queens();
        if changed != Bitboard::FULL {
            for x in changed {
                redo |= attacks::knight_attacks(x) & board.knights();
                redo |= attacks::bishop_attacks(x, occupied) & diagonal;
                redo |= attacks::rook_attacks(x, occupied) & straight;
            }
        }
        let step = side.fold_wb(8, -8);
        redo |= (changed.shift(-step) | changed.shift(-2 * step)) & board.pawns();
        // Squares whose actions are dropped: the men worked out again and the squares left.
        let dropped = oriented(redo | changed, side);
        scratch.clear();
        let old = &self.list;
        let mut i = 0;
        let mut squares = dropped;
        while squares != 0 {
            let f = squares.trailing_zeros();
            squares &= squares - 1;
            let first = f as usize * PLANES;
            // The kept actions of the squares before, then those of this square skipped.
            let kept = i + old[i..].partition_point(|&a| usize::from(a) < first);
            scratch.extend_from_slice(&old[i..kept]);
            i = kept + old[kept..].partition_point(|&a| usize::from(a) < first + PLANES);
            let from = unoriented(f, side);
            if let Some(role) = board.role_at(from) {
                let targets = if role == Role::Pawn {
                    own.destinations(from) & !attacks::pawn_attacks(side, from)
                } else {
                    own.destinations(from)
                };
                let promotes = role == Role::Pawn && own.promotes_from(from);
                push_planes(
                    first,
                    planes_of(from, side, targets, promotes, queen_only),
                    scratch,
                );
            }
        }
        scratch.extend_from_slice(&old[i..]);
        std::mem::swap(&mut self.list, scratch);
        self.board = Some(own.clone());
    }

    /// Writes `view`'s legal actions ([`legal_actions_of`] without the guided filters) to
    /// `out` (cleared first), from the kept list brought up to date where the turn masks only
    /// pawn captures, in full otherwise. `scratch` is a buffer to build in.
    pub fn legal_actions(&mut self, view: &PlayerView, out: &mut Vec<u16>, scratch: &mut Vec<u16>) {
        out.clear();
        let turn = view.turn();
        let masks = TurnMasks::of(view);
        // At most eight actions a capturing pawn (two diagonals, four promotion pieces each):
        // the captures' buffer holds eight pawns' (a set-up with more is worked out in full).
        if !view.is_my_turn()
            || masks.check.is_some()
            || masks.pawn_captures_only
            || !turn.rejected.is_empty()
            || masks.capturing_pawns.count() > 8
        {
            legal_actions_of(view, false, out);
            return;
        }
        let own = view.own_board();
        let side = view.side();
        let queen_only = view.rules().promotion_always_queen;
        self.update(own, queen_only, scratch);
        // The pawn captures the turn allows, ascending.
        let mut buffer = [0u16; 64];
        let mut held = 0;
        let occupied = own.board().occupied();
        let mut pawns = oriented(masks.capturing_pawns, side);
        while pawns != 0 {
            let f = pawns.trailing_zeros();
            pawns &= pawns - 1;
            let from = unoriented(f, side);
            let targets = attacks::pawn_attacks(side, from) & !occupied;
            let mut planes = planes_of(from, side, targets, own.promotes_from(from), queen_only);
            while planes != 0 && held < buffer.len() {
                buffer[held] = (f as usize * PLANES + planes.trailing_zeros() as usize) as u16;
                held += 1;
                planes &= planes - 1;
            }
        }
        let captures = &buffer[..held];
        // The kept list and the captures merged (no action is in both: the list holds no
        // pawn's diagonal step).
        let list = &self.list;
        let (mut i, mut j) = (0, 0);
        while i < list.len() && j < captures.len() {
            // The kept actions below the next capture, in one copy.
            let below = i + list[i..].partition_point(|&a| a < captures[j]);
            out.extend_from_slice(&list[i..below]);
            i = below;
            out.push(captures[j]);
            j += 1;
        }
        out.extend_from_slice(&list[i..]);
        out.extend_from_slice(&captures[j..]);
        if view.rules().has_any_question() && turn.any_answer.is_none() {
            out.push(ANY_ACTION_ID);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{GameConfig, KriegspielState};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::RuleSetId;

    /// Set-ups with promotions (and under-promotions), castling on both wings, en passant and
    /// checks near.
    const SETUPS: [&str; 4] = [
        "4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1",
        "r3k2r/pPp2ppp/8/3Pp3/8/8/PpP2PPP/R3K2R w KQkq e6 0 1",
        "4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ];

    /// The kept list equals the list worked out from nothing for the same board.
    fn assert_kept_is_fresh(kept: &mut OwnActions, view: &PlayerView, what: &str) {
        let queen_only = view.rules().promotion_always_queen;
        let mut scratch = Vec::new();
        kept.update(view.own_board(), queen_only, &mut scratch);
        let mut fresh = OwnActions::default();
        fresh.update(view.own_board(), queen_only, &mut scratch);
        assert_eq!(kept.list(), fresh.list(), "{what}");
    }

    /// The incremental legal actions equal the full recomputation ([`legal_actions_of`], itself
    /// tested against `PlayerView::options`) after every step of random games, under every
    /// rule set, from the standard start and from set-ups; and a side's kept list, brought up
    /// to date after every step (its own moves, its men taken, castlings, promotions), equals
    /// the one worked out from nothing.
    #[test]
    fn incremental_actions_are_the_full_recomputation_at_every_step() {
        let mut steps = 0;
        let mut captures_added = 0;
        for id in RuleSetId::ALL {
            let fens = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (k, fen) in fens.enumerate() {
                let config = GameConfig::new(id.as_str(), fen, false).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(29 + k as u64);
                for game in 0..5 {
                    let mut s = KriegspielState::new(config.clone()).unwrap();
                    // Kept by every step for both sides, where the state keeps the mover's only.
                    let mut kept = [OwnActions::default(), OwnActions::default()];
                    let mut n = 0;
                    while !s.is_terminal() && n < 2_000 {
                        let mover = s.game().umpire().turn();
                        let mut full = Vec::new();
                        legal_actions_of(s.view(mover), false, &mut full);
                        let what = format!("{} fen {k} game {game} step {n}", id.as_str());
                        assert_eq!(s.mover_actions(), &full[..], "{what}");
                        let t = s.view(mover).turn();
                        if t.pawn_tries.is_some_and(|n| n > 0) && t.rejected.is_empty() {
                            captures_added += 1;
                        }
                        for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
                            assert_kept_is_fresh(&mut kept[i], s.view(side), &what);
                        }
                        let actions = s.mover_actions();
                        let a = actions[rng.random_range(0..actions.len())];
                        s.apply_action(i64::from(a)).unwrap();
                        n += 1;
                        steps += 1;
                        // A copy steps on as the original does (a vector's reset copies).
                        if n % 97 == 0 {
                            let mut copy = KriegspielState::new(config.clone()).unwrap();
                            copy.clone_from(&s);
                            s = copy;
                        }
                    }
                }
            }
        }
        assert!(steps > 40_000, "{steps}");
        assert!(captures_added > 100, "{captures_added}");
    }

    /// A man's lines opened and closed by the other men's moves: a rook behind a pawn that
    /// advances, a bishop whose diagonal a knight leaves.
    #[test]
    fn lines_opened_by_a_move_are_worked_out_again() {
        let fen = "4k3/8/8/8/8/8/P7/R1B1K1N1 w - - 0 1";
        let config = GameConfig::new("wild16", Some(fen.into()), false).unwrap();
        let mut s = KriegspielState::new(config).unwrap();
        let a2a4 = crate::action::encode(
            umpire_rules::Attempt::new(Square::A2, Square::A4),
            Color::White,
        )
        .unwrap();
        let rook_up = |s: &KriegspielState| {
            let mut full = Vec::new();
            legal_actions_of(s.view(Color::White), false, &mut full);
            full.iter()
                .filter(|&&a| usize::from(a) / PLANES == 0 && usize::from(a) % PLANES < 7)
                .count()
        };
        assert_eq!(rook_up(&s), 0);
        assert!(s.apply_action(a2a4 as i64).unwrap().is_accepted());
        // Black's move, then White's turn: the rook sees a2 and a3.
        let black = s
            .mover_actions()
            .iter()
            .find(|&&a| a != ANY_ACTION_ID)
            .copied();
        let mut tries = 0;
        let mut a = black.unwrap();
        while s.game().umpire().turn() == Color::Black && tries < 100 {
            s.apply_action(i64::from(a)).unwrap();
            if let Some(&next) = s.mover_actions().iter().find(|&&x| x != ANY_ACTION_ID) {
                a = next;
            }
            tries += 1;
        }
        assert_eq!(s.game().umpire().turn(), Color::White);
        assert_eq!(rook_up(&s), 2);
        let mut full = Vec::new();
        legal_actions_of(s.view(Color::White), false, &mut full);
        assert_eq!(s.mover_actions(), &full[..]);
    }
}
