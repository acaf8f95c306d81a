//! [`OwnHistory`]: the player's own moves so far, and the terms they add at the root of a
//! decision against repetition and for progress, in evaluation pawns:
//! - returning a man to a square one of ours recently left, and every earlier visit of the own
//!   men's configuration, cost a little; a third visit (a threefold repetition if the enemy's
//!   men stand where they stood) costs a lot;
//! - once the fifty-move clock passes [`PROGRESS_CLOCK`], a pawn move (which resets it) earns a
//!   bonus growing with the clock.
//!
//! Used by `darkboard` at every decision and by the [`Endgame`](crate::endgame::Endgame)
//! wrapper when it closes the mating net for another agent.

use umpire_rules::shakmaty::Role;
use umpire_rules::{Attempt, OwnBoard};

use super::own_configs::{OwnConfigs, own_hash};

/// What returning a man to a square recently left costs, in evaluation pawns.
const REPEAT_PENALTY: f32 = 0.4;
/// What returning our men to a configuration they have stood in twice costs, in evaluation
/// pawns: with the enemy's men where they were, that is a draw by threefold repetition. It is
/// `darkboard`'s value of a certain mate at the root; the net, whose mate is worth more in its
/// own units, adds the rest ([`third_visit`]).
const THIRD_TIME: f32 = 30.0;

/// Whether a root term written by [`OwnHistory::bonus`] holds the cost of a third visit: no
/// other term comes near it (the small repetition costs stay under a pawn below a third visit,
/// and the progress bonus goes to pawn moves, which never return to a configuration).
pub(crate) fn third_visit(bonus: f32) -> bool {
    bonus <= -THIRD_TIME
}
/// The halfmove clock from which progress (a pawn move) earns a bonus growing with the clock.
const PROGRESS_CLOCK: u32 = 40;
/// The progress bonus per halfmove over [`PROGRESS_CLOCK`], in evaluation pawns.
const PROGRESS_PER_PLY: f32 = 0.3;

/// The progress bonus of a pawn move with the fifty-move clock at most `clock` (capped at 100:
/// from a set-up start the clock is unknown and its bound huge), in evaluation pawns: 0 up to
/// [`PROGRESS_CLOCK`], then [`PROGRESS_PER_PLY`] per ply beyond it.
pub(crate) fn progress_urgency(clock: u32) -> f32 {
    PROGRESS_PER_PLY * clock.min(100).saturating_sub(PROGRESS_CLOCK) as f32
}

/// The player's last accepted attempts and the configurations its men stood in after each.
#[derive(Clone, Debug, Default)]
pub(crate) struct OwnHistory {
    /// The last accepted attempts (most recent last).
    recent: [Option<Attempt>; 4],
    /// The own men after each accepted attempt and each loss, as far as they may recur
    /// (bounded: [`OwnConfigs`]).
    seen: OwnConfigs,
}

impl OwnHistory {
    /// Our attempt `a` was accepted; `own` is our men after it.
    pub(crate) fn moved(&mut self, a: Attempt, own: &OwnBoard) {
        self.recent.rotate_left(1);
        self.recent[3] = Some(a);
        self.seen.push(own);
    }

    /// The enemy took one of our men; `own` is our men after it: a configuration no own move
    /// left, which a repetition counts as much as one that did (game 39 of session 7's `mcts`
    /// against `raider` row was drawn by the third standing of a position first reached so).
    pub(crate) fn taken(&mut self, own: &OwnBoard) {
        self.seen.push(own);
    }

    /// The root terms of each of `options` from `own` with the fifty-move clock at most
    /// `clock` (capped at 100), in evaluation pawns, written to `out` (cleared first).
    pub(crate) fn bonus(
        &self,
        own: &OwnBoard,
        clock: u32,
        options: &[Attempt],
        out: &mut Vec<f32>,
    ) {
        out.clear();
        for a in options {
            let mut b = 0.0f32;
            // Moving a man back to where one of ours recently came from repeats positions.
            if self.recent.iter().flatten().any(|r| r.from == a.to) {
                b -= REPEAT_PENALTY;
            }
            let mut after = own.clone();
            after.play(*a);
            let h = own_hash(&after);
            let repeats = self.seen.count(h);
            b -= REPEAT_PENALTY * repeats as f32;
            // A third time may complete a threefold repetition (the enemy's men unchanged).
            if repeats >= 2 {
                b -= THIRD_TIME;
            }
            out.push(b);
        }
        // The fifty-move clock runs: a pawn move resets it (captures reset it too, but are
        // rewarded by the evaluations already). At most 100: from a set-up start the clock is
        // unknown and its bound huge.
        let urgency = progress_urgency(clock);
        if urgency > 0.0 {
            let board = own.board();
            for (b, a) in out.iter_mut().zip(options) {
                if board.role_at(a.from) == Some(Role::Pawn) {
                    *b += urgency;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Color;
    use umpire_testkit::pos;

    #[test]
    fn a_configuration_left_by_captures_counts_towards_the_third_visit() {
        let own = OwnBoard::of(&pos("8/8/8/7k/8/8/1Q6/K7 w - - 0 1"), Color::White);
        let back = Attempt::from_uci("b2b1").unwrap();
        let mut after = own.clone();
        after.play(back);
        let mut history = OwnHistory::default();
        let mut out = Vec::new();
        history.taken(&after);
        history.bonus(&own, 0, &[back], &mut out);
        assert!(out[0] > -THIRD_TIME, "a second visit is no threefold");
        history.taken(&after);
        history.bonus(&own, 0, &[back], &mut out);
        assert!(out[0] <= -THIRD_TIME, "a third visit: {}", out[0]);
        assert!(third_visit(out[0]));
    }

    #[test]
    fn only_a_third_visit_reads_as_one() {
        let own = OwnBoard::of(&pos("8/8/8/7k/8/8/1Q6/K7 w - - 0 1"), Color::White);
        let back = Attempt::from_uci("b2b1").unwrap();
        let pawnless = Attempt::from_uci("b2c2").unwrap();
        let mut after = own.clone();
        after.play(back);
        let mut history = OwnHistory::default();
        let mut out = Vec::new();
        // A move back to a square just left, to a configuration seen once: small costs.
        history.moved(Attempt::from_uci("b1b2").unwrap(), &own);
        history.taken(&after);
        history.bonus(&own, 100, &[back, pawnless], &mut out);
        assert!(out.iter().all(|&b| !third_visit(b)), "{out:?}");
        history.taken(&after);
        history.bonus(&own, 100, &[back, pawnless], &mut out);
        assert!(third_visit(out[0]) && !third_visit(out[1]), "{out:?}");
    }
}
