//! Rejuvenation: a sample that collapsed at a bottleneck refilled with fresh consistent
//! positions from an older checkpoint (issue 30, goal 4).
//!
//! Where an opponent turn and the player's next commands leave few positions (in wild16 games
//! a capture or a check can leave 3–5 % of the children of every held parent), the refresh of
//! `belief/repair.rs` cannot help: the lookahead already expanded every held parent, and the
//! survivors are all the consistent children those parents have. What is missing is other
//! parents, and other ancestors: measured on game 3 of the benchmarks (`docs/BENCHMARKS.md`,
//! "Seventh round"), replays from the turn before the last double the positions held at ply 40
//! and leave the marginals' distance as it was (their survivors share the held sample's older
//! ancestry); replays from the oldest recent checkpoint bring it down by a quarter. So each
//! replay starts from the oldest recent checkpoint at most [`REJUVENATE_AGE`] turns back (the
//! checkpoints are spaced about geometrically in age, the oldest the first sampled turn) and
//! draws a fresh sample of every turn since, with fresh random choices, the lookahead and half
//! the particles; its survivors are fully consistent
//! (they passed every observation since the checkpoint, and the checkpoint's every one
//! before). They are added to the held set (a union, each position once), replay after replay,
//! until the set is no longer thin, [`MAX_REPLAYS`] were run, or the work allowed
//! ([`REJUVENATE_WORK`] units a particle) is spent.
//!
//! After the replays, the held histories are varied one opponent move at a time
//! (`belief/history_moves.rs`), within [`super::HISTORY_MOVE_WORK`] units a particle.
//!
//! Each replay is an independent draw of the same sampler from the same checkpoint, so a
//! position is held with the chance that any replay (or the held sample) found it: equal for
//! positions the sampler reaches equally, the uniform target of the belief. A replay that runs
//! out of work is dropped whole (what it holds is not checked against the later observations).
//!
//! It runs only where the observations that follow are known (a record read at a given ply:
//! `umpire belief --ply`, [`crate::review::PlyStream::read_at_ply`]): there a person waits for
//! one answer and the time is better spent on its quality; an agent's update, which must stay
//! within its ply's time, never pays for it.

use umpire_rules::Observation;

use super::Belief;
use super::history_moves::HISTORY_MOVE_WORK;
use super::repair::DEPLETED;

/// The work ([`Belief::work`] units) all the replays of one rejuvenation may do together, per
/// particle.
pub const REJUVENATE_WORK: u64 = 100;

/// Rejuvenation runs only this many plies or fewer before the ply that is read (the end of
/// the observations known): the work is spent where the sample is read. Four plies (the last
/// two of the player's turns) rather than eight (session 16): at ply 40 of game 3 of
/// `docs/BENCHMARKS.md`, "Session 16", whose sample thins at three turns before the read, the
/// distance to the exact set is the same (0.0245 against 0.0246, twelve seeds) at a fifth less
/// CPU; two plies is further (0.0284, six seeds).
pub const REJUVENATE_HORIZON: usize = 4;

/// A rejuvenation replays from the oldest recent checkpoint at most this many opponent turns
/// back: far enough to draw ancestry of its own (the first sampled turn, in the benchmarks' game
/// 3 read at ply 40, 13 turns back), near enough that a replay at half the particles fits in
/// [`REJUVENATE_WORK`] (one of those 13 turns cost about half of it there; one that runs out is
/// dropped).
pub const REJUVENATE_AGE: u32 = 16;

/// The most replays of one rejuvenation.
const MAX_REPLAYS: u32 = 16;

/// The replays run with the particles divided by this.
const REPLAY_SHARE: usize = 2;

impl Belief {
    /// Whether the held sample is still thin after the player's command (and the refresh):
    /// sampled, fewer than the particles over `DEPLETED`, not in a repair, not yet
    /// rejuvenated this turn.
    fn thin_for_rejuvenation(&self) -> bool {
        !self.exact
            && !self.over
            && !self.given_up
            && self.budget.is_none()
            && self.regrowth.is_none()
            && !self.rejuvenated
            && self.distinct > 0
            && self.distinct * DEPLETED < self.particles
    }

    /// Adds to a thin sample the survivors of replays from an older checkpoint (see the
    /// module's note); `known`: the observations known to follow the last one taken in (none:
    /// nothing is done).
    pub(super) fn rejuvenate(&mut self, known: &[Observation]) {
        if known.is_empty() || !self.thin_for_rejuvenation() {
            return;
        }
        if known.iter().filter(|o| o.moved).count() > REJUVENATE_HORIZON {
            return;
        }
        self.rejuvenated = true;
        let mut budget = REJUVENATE_WORK.saturating_mul(self.particles as u64);
        // The checkpoints stay out of the belief while it replays (a replay pushes its own).
        let recent = std::mem::take(&mut self.recent);
        // The oldest checkpoint at most `REJUVENATE_AGE` turns back (the newest is one turn
        // back, so there is one while any is kept).
        let now = self.turns;
        let Some(cp) = recent
            .iter()
            .find(|cp| now.saturating_sub(cp.turns) <= REJUVENATE_AGE)
        else {
            self.recent = recent;
            return;
        };
        let saved = self.save();
        let mut held = saved.states.clone();
        let (bound, particles) = (self.bound, self.particles);
        let small = (particles / REPLAY_SHARE).max(1);
        let mut replays = 0;
        while budget > 0 && replays < MAX_REPLAYS && held.len() * DEPLETED < particles {
            replays += 1;
            self.budget = Some(budget);
            let alive = self.replay(cp, bound, small, known);
            let left = self.budget.unwrap_or(0).min(budget);
            let spent = budget - left;
            budget = left;
            if alive {
                held.append(&mut self.states);
                self.states = std::mem::take(&mut held);
                self.dedup();
                held = std::mem::take(&mut self.states);
            } else if spent == 0 {
                break;
            }
            // A replay that died (no consistent descendant found) gives way to the next.
        }
        self.budget = None;
        self.recent = recent;
        let estimate = saved.distinct as f64 * saved.scale;
        self.put_back(saved);
        // The replays ran with fewer particles, and their own turns reset the flag.
        (self.bound, self.particles) = (bound, particles);
        self.rejuvenated = true;
        self.states = held;
        self.dedup();
        // Vary the held histories one opponent move at a time (`belief/history_moves.rs`).
        self.move_histories(HISTORY_MOVE_WORK.saturating_mul(particles as u64));
        if self.distinct > 0 {
            // The size estimate stays what it was: more positions held, each standing for fewer.
            self.scale = (estimate / self.distinct as f64).max(1.0);
        }
        self.compact_witnesses();
    }
}
