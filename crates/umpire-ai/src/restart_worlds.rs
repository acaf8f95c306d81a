//! [`restart_worlds`]: a dead belief restarted from several worlds that fit what the player
//! knows, not from one guess.
//!
//! Issue 28: a belief restarted from the freshest guess ([`crate::restart::restart`]) is exact
//! about that one guess; the enemy men it misplaces are soon contradicted by an observation,
//! the belief dies again and is restarted, at almost every move (48 restarts by move 100 in one
//! replayed game), and every search walks the one guessed world. Here the restart builds one
//! small belief from each of several starts: every kept guess that makes a legal position
//! with the player's own men (adjusted as [`crate::restart::restart`] does, the taker put on
//! the announced capture square and announced checkers placed), then variants drawn at random
//! (from the agent's guess random state, so deterministic from its seed): a start where one
//! enemy man (not the king, not the taker, not a checker) stands one quiet move away from
//! where the guess had it, or two such moves: moves the enemy may have made unseen. A variant
//! gives no check the start does not give (nor takes one away), so every world fits this
//! turn's announcements and the player's own board; every world is a legal position with the
//! player to move and the player's own men exactly as they stand.
//!
//! Work is bounded: at most [`RESTART_WORLDS`] beliefs, one per start; the one-move variants
//! of the kept guesses (8 in `mcts`; at most 15 men × 27 squares each) are built once, and at most
//! `4 × RESTART_WORLDS` draws are made, each building at most one more set of variants. The
//! agent feeds every belief each observation: the first with the agent's own bound, the others
//! ("spares") with [`SPARE_BOUND`] positions and no repair (a spare that empties is dropped), so
//! an observation costs at most [`RESTART_WORLDS`] small updates (issue 28: spares that
//! repaired themselves made a 4,000-node decision take 56 ms instead of 14).

use rand::{Rng, RngExt};
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, Rank, Role, attacks,
};
use umpire_view::PlayerView;

use crate::restart::adjusted;

/// The most worlds (one belief each) a restart builds.
pub const RESTART_WORLDS: usize = 32;

/// The bound of each restarted world's belief (a uniform sample of this many beyond it): with
/// [`RESTART_WORLDS`] beliefs, about twice the positions of one belief of the agent's bound,
/// so that feeding them costs a few times one belief's update at most.
pub const SPARE_BOUND: usize = 16;

/// Beliefs of the player of `view`, one per world (at most [`RESTART_WORLDS`], the freshest
/// guess's first): the kept `guesses` (oldest first) adjusted to the player's own men and this
/// turn's announcements, then quiet variants of them drawn with `rng` (see the [module
/// documentation](self)). Each is built with `config` and a seed derived from `config.seed`;
/// all but the first with at most [`SPARE_BOUND`] positions and no repair work. Empty if no
/// guess fits.
pub fn restart_worlds<R: Rng>(
    view: &PlayerView,
    guesses: &[Chess],
    config: BeliefConfig,
    rng: &mut R,
) -> Vec<Belief> {
    let side = view.side();
    let keep = view
        .turn()
        .capture_at
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    let mut worlds: Vec<Chess> = Vec::new();
    for guess in guesses.iter().rev() {
        if let Some(start) = adjusted(view, guess, true)
            && !worlds.iter().any(|s| s.board() == start.board())
        {
            worlds.push(start);
        }
    }
    // Then variants drawn at random: one unseen quiet move of a start, or two.
    let pool: Vec<Chess> = worlds
        .iter()
        .flat_map(|s| quiet_variants(s, side, keep))
        .collect();
    let mut tries = 0;
    while worlds.len() < RESTART_WORLDS && !pool.is_empty() && tries < 4 * RESTART_WORLDS {
        tries += 1;
        let mut world = pool[rng.random_range(0..pool.len())].clone();
        if rng.random_bool(0.5) {
            let further = quiet_variants(&world, side, keep);
            if !further.is_empty() {
                world = further[rng.random_range(0..further.len())].clone();
            }
        }
        if !worlds.iter().any(|w| w.board() == world.board()) {
            worlds.push(world);
        }
    }
    worlds
        .into_iter()
        .enumerate()
        .filter_map(|(i, start)| {
            let mut c = config;
            c.seed = config.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            if i > 0 {
                // A spare that dies is dropped, not repaired.
                c.bound = c.bound.min(SPARE_BOUND);
                c.repair_budget = 1;
            }
            Belief::new(*view.rules(), start, side, c).ok()
        })
        .collect()
}

/// The positions where one enemy man of `start` (`side` to move; not the king, not on `keep`,
/// not one that attacks `side`'s king) stands one quiet move away instead: a step or slide to
/// an empty square, a pawn's single push short of its last rank. Only those that are legal,
/// give `side` moves, and leave the set of men attacking `side`'s king as it was. In a fixed
/// order (by square of the man, then of its target).
pub(crate) fn quiet_variants(start: &Chess, side: Color, keep: Bitboard) -> Vec<Chess> {
    let board = start.board();
    let enemy = !side;
    let occupied = board.occupied();
    let Some(king) = board.king_of(side) else {
        return Vec::new();
    };
    let checkers = board.attacks_to(king, enemy, occupied);
    let last = if enemy == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    let mut out = Vec::new();
    for from in board.by_color(enemy) & !board.kings() & !keep & !checkers {
        let Some(piece) = board.piece_at(from) else {
            continue;
        };
        let targets = if piece.role == Role::Pawn {
            let step = if enemy == Color::White { 8 } else { -8 };
            from.offset(step)
                .filter(|to| !occupied.contains(*to) && to.rank() != last)
                .map_or(Bitboard::EMPTY, Bitboard::from_square)
        } else {
            attacks::attacks(from, piece, occupied) & !occupied
        };
        for to in targets {
            let mut setup = start.to_setup(EnPassantMode::Legal);
            setup.board.discard_piece_at(from);
            setup.board.set_piece_at(to, piece);
            let moved = setup.board.occupied();
            if setup.board.attacks_to(king, enemy, moved) != checkers {
                continue;
            }
            if let Ok(p) = Chess::from_setup(setup, CastlingMode::Standard)
                && !p.legal_moves().is_empty()
            {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Square;
    use umpire_rules::shakmaty::fen::Fen;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn variants_move_one_enemy_man_quietly_and_keep_the_checks() {
        // White to move; Black's rook on a8 checks nothing, its bishop on h4 gives check
        // (h4-e1 diagonal), its pawn on c7 may step to c6.
        let start = chess("r3k3/2p5/8/8/7b/8/8/4K2R w - - 0 1");
        let variants = quiet_variants(&start, Color::White, Bitboard::EMPTY);
        assert!(!variants.is_empty());
        let white = start.board().by_color(Color::White);
        for v in &variants {
            // Own men exactly as they were; one black man moved; the bishop's check kept.
            assert_eq!(v.board().by_color(Color::White), white);
            assert_eq!(
                v.board().piece_at(Square::H4),
                start.board().piece_at(Square::H4)
            );
            assert_eq!(v.board().king_of(Color::Black), Some(Square::E8));
            let moved =
                (v.board().by_color(Color::Black) ^ start.board().by_color(Color::Black)).count();
            assert_eq!(moved, 2);
            assert_eq!(v.turn(), Color::White);
            assert_eq!(v.checkers(), start.checkers());
        }
        // The pawn's push and a rook move are among them; the rook's move to a1, which would
        // add a check along the first rank, is not; the checking bishop never moves.
        let has = |sq: Square| variants.iter().any(|v| v.board().piece_at(sq).is_some());
        assert!(has(Square::C6));
        assert!(has(Square::A2));
        assert!(!has(Square::A1));
        // A man on a kept square (the taker) never moves.
        let kept = quiet_variants(&start, Color::White, Bitboard::from_square(Square::C7));
        assert!(
            kept.iter()
                .all(|v| v.board().piece_at(Square::C7).is_some())
        );
        assert!(kept.len() < variants.len());
    }
}
