//! Safe play: what a move risks, from the positions the player cannot rule out.
//!
//! In each world (a position drawn from the belief, which places the enemy man that just took
//! on the announced capture square), an attempt legal there is played and the captures that
//! may follow are played out ([`capture_score`]): the change of the material balance against
//! the world as it stands is what the attempt wins or loses there (the man moved and left
//! hanging, the recaptures, a check into a defended square). [`exchange_delta`] averages it over
//! the worlds in which the attempt is legal.

use umpire_rules::Attempt;
use umpire_rules::shakmaty::{Chess, Position};

use crate::darkboard::mate::answers_to;
use crate::eval::raw_score;
use crate::gauntlet::{MATE_SCORE, capture_score};

/// A move that loses at least this much material on average (pawns) is a blunder the root
/// pick avoids if a sufficiently searched alternative does not.
pub const BLUNDER_PAWNS: f64 = 2.0;

/// The most worlds [`exchange_delta`] weighs (a bound on its time).
pub const SAFETY_WORLDS: usize = 16;

/// The material change (pawns, from the mover's side; negative: a loss) of `attempt` after the
/// captures that may follow, averaged over the `worlds` (positions with the mover to move) in
/// which it is legal; `None` if it is legal in none. Mates are clamped to ±[`MATE_SCORE`].
pub fn exchange_delta(worlds: &[Chess], attempt: Attempt) -> Option<f64> {
    let mut total = 0.0;
    let mut legal = 0u32;
    for pos in worlds.iter().take(SAFETY_WORLDS) {
        let side = pos.turn();
        let Some(m) = pos
            .legal_moves()
            .into_iter()
            .find(|m| answers_to(m, attempt))
        else {
            continue;
        };
        // What we keep after the move and the captures it opens, against the balance now (a
        // man already hanging costs every move that does not save it alike).
        let standing = raw_score(pos.board(), side);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let kept = -capture_score(&after).clamp(-MATE_SCORE, MATE_SCORE);
        total += kept - standing;
        legal += 1;
    }
    (legal > 0).then(|| total / f64::from(legal))
}

/// What the mover stands to lose if it made no move at all (pawns, negative: a loss): the
/// enemy to move in each of the `worlds` (positions with the mover to move) plays out its
/// captures, averaged over the worlds where the turn can pass (the mover not in check);
/// `None` where it can in none. A man already hanging costs every move that does not save it
/// alike, so a move's [`exchange_delta`] is fairly judged against this.
pub fn standing_delta(worlds: &[Chess]) -> Option<f64> {
    let mut total = 0.0;
    let mut counted = 0u32;
    for pos in worlds.iter().take(SAFETY_WORLDS) {
        let side = pos.turn();
        let Ok(passed) = pos.clone().swap_turn() else {
            continue;
        };
        let standing = raw_score(pos.board(), side);
        let kept = -capture_score(&passed).clamp(-MATE_SCORE, MATE_SCORE);
        total += kept - standing;
        counted += 1;
    }
    (counted > 0).then(|| total / f64::from(counted))
}

#[cfg(test)]
mod tests {
    use super::*;

    use umpire_testkit::pos;

    fn attempt(uci: &str) -> Attempt {
        Attempt::from_uci(uci).unwrap()
    }

    #[test]
    fn a_check_into_a_defended_square_loses_the_queen() {
        let p = pos("6k1/8/8/8/3q4/8/5PPP/5RK1 b - - 0 1");
        let delta = exchange_delta(std::slice::from_ref(&p), attempt("d4f2")).unwrap();
        assert!(delta <= -7.0, "{delta}");
        // A quiet queen move risks nothing.
        let quiet = exchange_delta(std::slice::from_ref(&p), attempt("d4d5")).unwrap();
        assert!(quiet.abs() < 1.0, "{quiet}");
    }

    #[test]
    fn an_undefended_pawn_is_won() {
        let p = pos("6k1/8/8/8/3q4/8/5P2/6K1 b - - 0 1");
        // f2 is defended by the king: the queen is lost.
        assert!(exchange_delta(std::slice::from_ref(&p), attempt("d4f2")).unwrap() <= -7.0);
        let far = pos("6k1/8/8/8/3q4/8/K4P2/8 b - - 0 1");
        let won = exchange_delta(std::slice::from_ref(&far), attempt("d4f2")).unwrap();
        assert!(won >= 0.9, "{won}");
    }

    #[test]
    fn an_attempt_illegal_in_every_world_has_no_delta() {
        let p = pos("6k1/8/8/8/3q4/8/5PPP/5RK1 b - - 0 1");
        assert_eq!(exchange_delta(&[p], attempt("d4g1")), None);
    }

    #[test]
    fn a_hanging_man_is_lost_by_standing_still() {
        // The white rook on b8 is attacked by the rook on a8 and defended by nothing.
        let p = pos("rR6/7k/8/8/8/8/8/2K5 w - - 0 1");
        let still = standing_delta(std::slice::from_ref(&p)).unwrap();
        assert!(still <= -4.0, "{still}");
        // Nothing hangs: standing still loses nothing.
        let quiet = pos("r3k3/8/8/8/8/8/8/1R1K4 w - - 0 1");
        assert!(standing_delta(std::slice::from_ref(&quiet)).unwrap().abs() < 1.0);
        // In check the turn cannot pass.
        let check = pos("4k3/8/8/8/8/8/8/r1K5 w - - 0 1");
        assert_eq!(standing_delta(std::slice::from_ref(&check)), None);
    }
}
