//! Determinizations for a belief that holds too few positions (issue 28's node plateau).
//!
//! A belief restarted from a guess holds one position, and while the real belief is repaired
//! the search plans from such a restart (`fallback.rs`); in replayed level games `mcts` planned
//! from a single position at about a third of its decisions (`docs/BENCHMARKS.md`, "Session 8:
//! the node plateau"). Every iteration then searches the same world, so a larger node budget
//! only fits the plan more tightly to one guess, and 64,000 nodes played no better than 4,000.
//!
//! Measured no stronger (1,000 against 16,000 nodes, 40 games: the larger scored 0.51 with it,
//! 0.64 without), so it is off by default ([`super::MctsConfig::jitter`]).
//!
//! [`jittered`] spreads such a guess: the enemy is given one to [`MAX_TEMPI`] extra quiet moves
//! in it (no capture, no check: the agent would have heard either), so the search averages
//! over where the enemy men may have gone since the guess was drawn. Only the belief's
//! positions and the agent's own men (which every position has right) are used: nothing of the
//! true position.

use rand::{Rng, RngExt};
use umpire_rules::shakmaty::{
    CastlingMode, Chess, EnPassantMode, FromSetup, MoveList, Position, PositionError,
};

/// The most quiet enemy moves added to a guess.
pub(super) const MAX_TEMPI: u32 = 3;

/// Below this many held positions the search adds jittered worlds.
pub(super) const FEW_WORLDS: usize = 16;

/// Jittered worlds added when the belief holds fewer than [`FEW_WORLDS`] positions.
pub(super) const JITTERED_WORLDS: usize = 64;

/// The smallest node budget for which the search adds jittered worlds: the house levels up to
/// 400 nodes keep the search they were spaced with.
pub(super) const JITTER_FROM_NODES: u64 = 1_000;

/// `base` (the agent to move) with one to [`MAX_TEMPI`] quiet enemy moves played in it as if
/// the enemy had moved unseen: no capture and no check. `None` if the enemy has no such move
/// at the first step (or `base` cannot be turned over: the agent is in check).
pub(super) fn jittered<R: Rng>(base: &Chess, rng: &mut R) -> Option<Chess> {
    let side = base.turn();
    let tempi = rng.random_range(1..=MAX_TEMPI);
    let mut pos = base.clone();
    let mut moved = false;
    let mut quiet = MoveList::new();
    for _ in 0..tempi {
        let Some(enemy_to_move) = turned_over(&pos) else {
            break;
        };
        quiet.clear();
        for m in enemy_to_move.legal_moves() {
            if m.is_capture() {
                continue;
            }
            let mut after = enemy_to_move.clone();
            after.play_unchecked(m);
            if !after.is_check() {
                quiet.push(m);
            }
        }
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.random_range(0..quiet.len())];
        let mut after = enemy_to_move;
        after.play_unchecked(m);
        debug_assert_eq!(after.turn(), side);
        pos = after;
        moved = true;
    }
    moved.then_some(pos)
}

/// `pos` with the other side to move (no en passant), `None` if that is no legal position.
fn turned_over(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::shakmaty::Color;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_testkit::pos;

    #[test]
    fn the_agents_men_stay_and_the_enemy_moves_quietly() {
        // White to move; Black's men may move, but Nxg2 (a capture) and Nd3+ (a check) must
        // never be played unseen.
        let base = pos("4k3/pp6/8/8/3P1n2/8/5PPP/4K3 w - - 0 1");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..200 {
            let j = jittered(&base, &mut rng).expect("Black has quiet moves");
            assert_eq!(j.turn(), Color::White);
            assert_eq!(
                j.board().by_color(Color::White),
                base.board().by_color(Color::White)
            );
            assert_eq!(
                j.board().by_color(Color::Black).count(),
                base.board().by_color(Color::Black).count()
            );
            assert!(
                !j.is_check(),
                "{}",
                Fen::from_position(&j, EnPassantMode::Legal)
            );
            distinct.insert(j.board().by_color(Color::Black));
        }
        // Up to three tempi of three men: many placements.
        assert!(distinct.len() > 20, "{}", distinct.len());
    }

    /// A belief of one position (the start, as a restart from a guess would hold): with the
    /// jitter on, at 1,000 nodes the search draws from jittered worlds beside it, at the house
    /// levels' 400 nodes and below it searches the one position as before; off (the default),
    /// never.
    #[test]
    fn a_belief_of_one_position_is_searched_over_jittered_worlds() {
        use crate::mcts::{MctsAgent, MctsConfig};
        use crate::{Agent, Budget};
        use umpire_rules::RuleSet;
        use umpire_view::PlayerView;
        for (nodes, expect) in [(1_000, true), (400, false)] {
            // Off by default.
            let mut plain = MctsAgent::new(
                PlayerView::standard(RuleSet::WILD16, Color::White),
                3,
                Some(Chess::default()),
                MctsConfig {
                    budget: Budget::Nodes(nodes),
                    ..MctsConfig::default()
                },
            );
            plain.choose();
            assert_eq!(plain.stats().jittered, 0);
            let config = MctsConfig {
                budget: Budget::Nodes(nodes),
                jitter: true,
                ..MctsConfig::default()
            };
            let view = PlayerView::standard(RuleSet::WILD16, Color::White);
            let mut agent = MctsAgent::new(view, 3, Some(Chess::default()), config);
            assert_eq!(agent.belief().map(|b| b.held()), Some(1));
            agent.choose();
            let stats = agent.stats();
            assert_eq!(stats.iterations, nodes);
            assert_eq!(stats.held, 1);
            if expect {
                assert_eq!(stats.jittered, JITTERED_WORLDS);
            } else {
                assert_eq!(stats.jittered, 0);
            }
        }
    }

    #[test]
    fn an_agent_in_check_is_left_alone() {
        // White in check from the rook: Black cannot be to move here.
        let base = pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert!(jittered(&base, &mut rng).is_none());
    }
}
