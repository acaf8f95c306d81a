//! Where the enemy's men can be after the moves they have made (B4), bounded from below by
//! move counts from the standard start.

use umpire_rules::shakmaty::{Bitboard, Board, Color, Rank, Role, Square, attacks};
use umpire_rules::{Announcement, Command};

use crate::PlayerView;

/// Beyond this many enemy moves a pawn may have promoted (five moves take a pawn from its
/// start to the last rank), and the bound below no longer covers every man: no bound then.
const MAX_ENEMY_MOVES: u8 = 4;

/// Squares some enemy man can stand on now, over-approximated; `None` when no useful bound is
/// known (not the standard start, or too many enemy moves). [`PlayerView`] works it out for
/// each of its player's turns, when first asked for.
///
/// For each enemy man, the cheapest way to each square costs its own moves plus one move of
/// every other enemy man that started on a square it passes or lands on (that man must have
/// left first; distinct men make distinct moves; castling moves two men but never clears two
/// squares of one path). Squares where the player captured are not counted (a man taken at
/// home left without a move of its side). The player's men are ignored: they can only make
/// paths dearer. A pawn may step diagonally at any time (a capture is assumed possible).
///
/// It is worked out as of the turn's start: from the first `upto` observations of the view's
/// transcript, `plies` moves having been played then.
pub(crate) fn enemy_reach(view: &PlayerView, upto: usize, plies: u32) -> Option<Bitboard> {
    // The enemy has made at most half the moves played, rounded up.
    if !view.standard_start() || plies > 2 * u32::from(MAX_ENEMY_MOVES) + 1 {
        return None;
    }
    let me = view.side();
    let enemy = !me;
    let mut moves = 0u32;
    let mut cleared = Bitboard::EMPTY;
    let transcript = view.transcript();
    for o in transcript.get(..upto).unwrap_or(transcript) {
        if !o.moved {
            continue;
        }
        if o.actor == enemy {
            moves += 1;
        } else if matches!(o.own.map(|c| c.command), Some(Command::Attempt(_))) {
            for a in &o.announcements {
                if let Announcement::Capture { square, .. } = *a {
                    cleared.add(square);
                }
            }
        }
    }
    let moves = u8::try_from(moves).ok().filter(|&m| m <= MAX_ENEMY_MOVES)?;
    let start = Board::new();
    let men = start.by_color(enemy);
    let blockers = men & !cleared;
    let mut reach = Bitboard::EMPTY;
    for from in men {
        let role = start.role_at(from)?;
        reach |= reach_of(enemy, role, from, blockers.without(from), moves);
    }
    Some(reach)
}

/// The squares the man `role` of `color` starting on `from` can reach at cost at most `budget`.
fn reach_of(color: Color, role: Role, from: Square, blockers: Bitboard, budget: u8) -> Bitboard {
    let mut cost = [u8::MAX; 64];
    cost[usize::from(from)] = 0;
    // Every step costs at least one, so `budget + 1` rounds of relaxation settle all costs
    // up to the budget.
    for _ in 0..=budget {
        let mut changed = false;
        for x in Bitboard::FULL {
            let here = cost[usize::from(x)];
            if here >= budget {
                continue;
            }
            for (to, path) in steps(color, role, from, x) {
                let c = here + 1 + (path & blockers).count() as u8;
                if c < cost[usize::from(to)] {
                    cost[usize::from(to)] = c;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Bitboard::FULL
        .into_iter()
        .filter(|&s| cost[usize::from(s)] <= budget)
        .collect()
}

/// One move of the man from `x` on an empty board: each destination with the squares that
/// must be empty or emptied for it (passed squares and the destination).
fn steps(
    color: Color,
    role: Role,
    start: Square,
    x: Square,
) -> impl Iterator<Item = (Square, Bitboard)> {
    let mut targets = match role {
        Role::Pawn => {
            let mut bb = attacks::pawn_attacks(color, x);
            if let Some(one) = x.offset(color.fold_wb(8, -8)) {
                bb.add(one);
                if x.rank() == color.fold_wb(Rank::Second, Rank::Seventh)
                    && let Some(two) = one.offset(color.fold_wb(8, -8))
                {
                    bb.add(two);
                }
            }
            bb
        }
        Role::King => attacks::king_attacks(x),
        role => attacks::attacks(x, role.of(color), Bitboard::EMPTY),
    };
    if role == Role::King && x == start {
        // Castling: the king moves two squares along its home rank.
        for to in [x.offset(2), x.offset(-2)].into_iter().flatten() {
            if to.rank() == x.rank() {
                targets.add(to);
            }
        }
    }
    targets
        .into_iter()
        .map(move |to| (to, attacks::between(x, to).with(to)))
}
