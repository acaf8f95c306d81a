//! [`best_move`]: a shallow full-information search (the cheating yardstick's): alpha-beta to
//! a fixed depth, then captures only, scored by [`crate::eval::raw_score`] in pawns.

use umpire_rules::shakmaty::{Chess, Move, MoveList, Position};

use crate::eval::raw_score;

/// The score of a mate, in pawns (far above any material count).
pub const MATE_SCORE: f64 = 1000.0;

/// The most captures the quiescence search follows below the fixed depth.
const QUIESCENCE_PLIES: u32 = 4;

/// The most positions one search visits, whatever the position (a bound on its time).
const MAX_NODES: u64 = 200_000;

struct Search {
    nodes: u64,
}

impl Search {
    /// The score of `pos` for its side to move, searched `depth` plies, then captures.
    fn negamax(&mut self, pos: &Chess, depth: u32, qdepth: u32, mut alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -MATE_SCORE } else { 0.0 };
        }
        if pos.is_insufficient_material() {
            return 0.0;
        }
        let turn = pos.turn();
        let quiet = depth == 0;
        if quiet {
            // Standing pat: the side to move need not capture.
            let stand = raw_score(pos.board(), turn);
            if stand >= beta || qdepth == 0 || self.nodes >= MAX_NODES {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut best = if quiet { alpha } else { f64::NEG_INFINITY };
        for m in ordered(&moves) {
            if quiet && !m.is_capture() {
                continue;
            }
            if self.nodes >= MAX_NODES && best > f64::NEG_INFINITY {
                break;
            }
            let mut next = pos.clone();
            next.play_unchecked(m);
            let (d, q) = if quiet {
                (0, qdepth - 1)
            } else {
                (depth - 1, qdepth)
            };
            let score = -self.negamax(&next, d, q, -beta, -alpha.max(best));
            if score > best {
                best = score;
            }
            if best >= beta {
                break;
            }
        }
        best
    }
}

/// The score of `pos` for its side to move once the captures are played out (the side to move
/// may stand pat; at most [`QUIESCENCE_PLIES`] captures deep), in pawns; a mate or stalemate
/// scores as in [`best_move`].
pub fn capture_score(pos: &Chess) -> f64 {
    let mut search = Search { nodes: 0 };
    search.negamax(pos, 0, QUIESCENCE_PLIES, f64::NEG_INFINITY, f64::INFINITY)
}

/// The captures first, the most valuable victim first.
fn ordered(moves: &MoveList) -> Vec<Move> {
    let mut out: Vec<Move> = moves.iter().copied().collect();
    out.sort_by_key(|m| std::cmp::Reverse(m.capture().map_or(0, |r| r as u8 + 1)));
    out
}

/// The legal moves of `pos` with the best score for its side to move after a search of `depth`
/// plies (at least 1) and the captures beyond, with that score; `None` when there is no legal
/// move. Ties are all returned, so that the caller may pick among them.
pub fn best_move(pos: &Chess, depth: u32) -> Option<(Vec<Move>, f64)> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut search = Search { nodes: 0 };
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    for m in ordered(&moves) {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let score = -search.negamax(
            &next,
            depth.max(1) - 1,
            QUIESCENCE_PLIES,
            f64::NEG_INFINITY,
            f64::INFINITY,
        );
        // Scores within a hundredth of a pawn are ties.
        if score > best_score + 0.01 {
            best_score = score;
            best.clear();
            best.push(m);
        } else if score >= best_score - 0.01 {
            best.push(m);
        }
    }
    Some((best, best_score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Square;

    use umpire_testkit::pos;

    #[test]
    fn a_mate_in_one_is_found() {
        let (moves, score) = best_move(&pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), 2).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].to(), Square::A8);
        assert!(score >= MATE_SCORE - 1.0, "{score}");
    }

    #[test]
    fn a_defended_pawn_is_not_taken_with_the_queen() {
        // Qxf2+ wins a pawn and loses the queen to Rxf2.
        let p = pos("6k1/8/8/8/3q4/8/5PPP/5RK1 b - - 0 1");
        let (moves, _) = best_move(&p, 2).unwrap();
        assert!(moves.iter().all(|m| m.to() != Square::F2), "{moves:?}");
    }
}
