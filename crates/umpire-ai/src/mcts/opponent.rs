//! [`Opponent`]: how the search chooses the hidden opponent's reply after the agent's accepted
//! command, and the adversarial bandit that does it by default.
//!
//! The bandit keeps one reply table per point where the opponent moves (the agent's node, its
//! command and what the agent heard of it), shared by every determinization that reaches it. A
//! table's arms are moves, named by their squares and promotion; in one determinization only
//! the moves legal there are available, so the choice is a subset-armed UCB1 (Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", 2012): an arm's exploration term
//! counts the visits in which it was available, not all the table's visits. The opponent
//! *minimises* the agent's mean value. New arms are let in by progressive widening, at most
//! `ceil(sqrt(visits))` tried moves among those available, the likeliest first by a prior
//! (captures of the most valuable man by the cheapest, promotions, direct checks; ties at
//! random): with few visits the opponent plays like the capture policy, with more it finds the
//! replies that hurt the agent most. What the agent hears of the reply is all its next node
//! is named by; the table's statistics never reach the agent's choices except through values.
//!
//! Allocation-free apart from a table's first arms (the arm list grows, at most by one per
//! selection).

use rand::{Rng, RngExt};
use umpire_rules::shakmaty::{Bitboard, Chess, Move, Piece, Position, attacks};

use super::tree::{Arm, Replies};
use crate::eval::material_value;

/// How the search models the hidden opponent's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// The playout policy ([`policy_move`](super::policy_move)): the best capture most of the
    /// time, else a uniformly random move. Deeper search then plans against a near-random
    /// opponent.
    Policy,
    /// A subset-armed UCB1 bandit per reply point (the agent's node, its command and what it
    /// heard of it), over the moves legal in each determinization, that minimises the agent's
    /// value; new moves are let in by progressive widening (at most `ceil(sqrt(visits))`
    /// tried), captures of the most valuable man first, then promotions, then direct checks.
    Bandit,
}

/// The key of a move: from square, to square and promotion.
fn move_key(m: &Move) -> u16 {
    let from = m.from().map_or(64, |s| s as u16);
    let promotion = m.promotion().map_or(0, |r| r as u16);
    from | (m.to() as u16) << 7 | promotion << 13
}

/// How likely the opponent is to try `m` first: captures (the most valuable victim, then the
/// cheapest attacker), promotions, direct checks of the agent's king; 0 for quiet moves.
fn prior(pos: &Chess, m: &Move) -> f64 {
    let board = pos.board();
    let mut p = 0.0;
    if let Some(victim) = m.capture() {
        p += 100.0 + 10.0 * material_value(victim) - material_value(m.role()) / 10.0;
    }
    let role = m.promotion().unwrap_or(m.role());
    if m.promotion().is_some() {
        p += 50.0 + material_value(role);
    }
    if let Some(king) = board.king_of(!pos.turn()) {
        let from = m.from().map_or(Bitboard::EMPTY, Bitboard::from_square);
        let occupied = (board.occupied() & !from) | Bitboard::from_square(m.to());
        let piece = Piece {
            color: pos.turn(),
            role,
        };
        if attacks::attacks(m.to(), piece, occupied).contains(king) {
            p += 40.0;
        }
    }
    p
}

/// The most legal moves a chess position has (218), rounded up.
const MAX_MOVES: usize = 256;

/// The opponent's reply in `pos` from `table`: the move and its arm, `None` if the side to
/// move has no legal move. The arm's availability is counted here; its value is added at the
/// backup. `exploration` is the UCB1 constant.
pub(crate) fn bandit_reply<R: Rng>(
    table: &mut Replies,
    pos: &Chess,
    rng: &mut R,
    exploration: f64,
) -> Option<(Move, u32)> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    table.visits += 1;
    let mut arm_of = [u32::MAX; MAX_MOVES];
    let mut tried = 0usize;
    for (i, m) in moves.iter().enumerate().take(MAX_MOVES) {
        let key = move_key(m);
        if let Some(j) = table.arms.iter().position(|a| a.key == key) {
            arm_of[i] = j as u32;
            table.arms[j].available += 1;
            tried += 1;
        }
    }
    let allowed = f64::from(table.visits).sqrt().ceil() as usize;
    if tried < allowed && tried < moves.len() {
        // Widen: the untried move with the highest prior, ties uniformly.
        let mut pick = None;
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0u32;
        for (i, m) in moves.iter().enumerate().take(MAX_MOVES) {
            if arm_of[i] != u32::MAX {
                continue;
            }
            let p = prior(pos, m);
            if p > best {
                best = p;
                pick = Some(i);
                ties = 1;
            } else if p == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    pick = Some(i);
                }
            }
        }
        if let Some(i) = pick {
            let m = moves[i];
            table.arms.push(Arm {
                key: move_key(&m),
                visits: 0,
                available: 1,
                total: 0.0,
            });
            return Some((m, table.arms.len() as u32 - 1));
        }
    }
    // Exploit and explore among the tried moves available here: the opponent's UCB1 on the
    // negated value.
    let mut pick = None;
    let mut best = f64::NEG_INFINITY;
    for (i, &j) in arm_of.iter().enumerate().take(moves.len().min(MAX_MOVES)) {
        if j == u32::MAX {
            continue;
        }
        let arm = &table.arms[j as usize];
        let score = if arm.visits == 0 {
            f64::INFINITY
        } else {
            -arm.mean()
                + exploration * (f64::from(arm.available).ln() / f64::from(arm.visits)).sqrt()
        };
        if score > best {
            best = score;
            pick = Some((moves[i], j));
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use umpire_testkit::pos;

    #[test]
    fn the_first_reply_is_the_best_capture_then_the_worst_for_the_agent_wins() {
        // Black to move: Nxg2 is the only capture; Ne2+ and Nh3+ check.
        let p = pos("6k1/5ppp/8/8/3Q1n2/8/5PPP/6K1 b - - 0 1");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut table = Replies::default();
        let (first, arm) = bandit_reply(&mut table, &p, &mut rng, 0.5).unwrap();
        assert_eq!(first.to().to_string(), "g2");
        // The agent's values: the capture is good for the agent here (Kxg2 follows), every
        // other reply bad; the opponent must come to prefer the others.
        table.arms[arm as usize].visits = 1;
        table.arms[arm as usize].total = 0.9;
        let mut others = 0;
        for _ in 0..200 {
            let (m, arm) = bandit_reply(&mut table, &p, &mut rng, 0.5).unwrap();
            let v = if m.to().to_string() == "d4" {
                0.9
            } else {
                -0.5
            };
            if v < 0.0 {
                others += 1;
            }
            let a = &mut table.arms[arm as usize];
            a.visits += 1;
            a.total += v;
        }
        assert!(others > 150, "{others}");
        // Widening keeps the arms few: at most ceil(sqrt(visits)).
        assert!(table.arms.len() <= 15, "{}", table.arms.len());
        assert!(table.arms.len() >= 2);
    }

    #[test]
    fn checks_come_before_quiet_moves() {
        let p = pos("6k1/8/8/8/8/8/8/K3n3 b - - 0 1");
        // Black's knight on e1 has Nc2+ (check of the king on a1) and quiet moves.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut table = Replies::default();
        let (m, _) = bandit_reply(&mut table, &p, &mut rng, 0.5).unwrap();
        assert_eq!(m.to().to_string(), "c2");
    }
}
