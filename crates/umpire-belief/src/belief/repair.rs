//! Repair: when every sampled hypothesis died, regrow the sample from the most recent set that
//! still has consistent descendants (issues 28 and 30).
//!
//! Every sampled opponent turn keeps its parents as a [`Checkpoint`] (the last
//! [`RECENT_CHECKPOINTS`] of them), beside the last exact set. When the held set dies, the
//! repair replays the observations since the most recent checkpoint from its hypotheses, with
//! fresh random choices and the lookahead of `belief/lookahead.rs`: each opponent turn of the
//! replay keeps only children that the player's next commands (already taken in, so known)
//! leave standing. If that replay dies too (none of the checkpoint's hypotheses has a
//! descendant the sampler finds consistent with everything since), the next older checkpoint
//! is tried, and so on back to the last exact set (at one and then four times the bound and the
//! particles). This is the stage graph of Richards and Amir: backtrack to the most recent stage
//! with surviving members and regrow from there, pruned by every observation. All replays of
//! one repair share its budget ([`BeliefConfig::repair_budget`](super::BeliefConfig)); if they
//! fail or the budget runs out, the belief is empty, says it is not exact, and is not repaired
//! again ([`Belief::is_dead`]).
//!
//! The same replay refreshes a sample that is thinning out: when one of the player's own
//! commands leaves fewer than a quarter of the particles, the last opponent turn is replayed
//! from its parents (the newest checkpoint) with the lookahead through the player's commands
//! since, within [`REFRESH_WORK`] units a particle; the result replaces the held set if it holds
//! more positions. The checkpoints are spaced about geometrically in age
//! ([`Belief::thin_checkpoints`]), so that a repair can go back past a bottleneck of the sample
//! (a turn where few positions survived, whose descendants may all die later) without keeping
//! every turn.

use umpire_rules::Observation;

use super::{Belief, Checkpoint, RECENT_CHECKPOINTS, REPAIR_SCALES};

/// A sample of fewer than the particles divided by this, after one of the player's own
/// commands, is refreshed ([`Belief::refresh`]).
pub(super) const DEPLETED: usize = 4;

/// The work ([`Belief::work`] units) one refresh may do, per particle: above what one opponent
/// turn expanded with the lookahead costs at most (its children stop at 8 times the particles,
/// each counted twice, plus 8 a parent), so that the lookahead's own stop decides and the
/// budget only catches the player's commands since.
pub const REFRESH_WORK: u64 = 40;

/// Refreshes tried per opponent turn, at most.
pub(super) const REFRESHES_PER_TURN: u8 = 2;

/// A repair under way: the checkpoints still to try (newest first, then the last exact set at
/// growing scales) and the replay of the one being tried, a belief of its own that catches up
/// with the transcript a budget's work per observation.
#[derive(Clone, Debug)]
pub(super) struct Regrowth {
    /// Checkpoints to try next, each with the scale of its replay's bound and particles.
    candidates: Vec<(Checkpoint, usize)>,
    /// The replay being caught up, and the next observation of the transcript it takes in.
    replay: Option<(Box<Belief>, usize)>,
}

/// How far a replay got.
enum Progress {
    /// Every observation of the transcript is taken in and positions are held.
    CaughtUp,
    /// The work of this observation is spent; observations remain.
    Behind,
    /// Every position of the replay was ruled out.
    Died,
}

impl Belief {
    /// Every sampled hypothesis died: starts a repair from the recent checkpoints (newest
    /// first), then the last exact set at one and four times the bound and the particles.
    pub(super) fn start_regrowth(&mut self) {
        let mut candidates: Vec<(Checkpoint, usize)> =
            self.recent.drain(..).rev().map(|cp| (cp, 1)).collect();
        if let Some(cp) = &self.checkpoint {
            candidates.extend(REPAIR_SCALES.iter().map(|&scale| (cp.clone(), scale)));
        }
        self.regrowth = Some(Box::new(Regrowth {
            candidates,
            replay: None,
        }));
    }

    /// Goes on with the repair under way within [`BeliefConfig::repair_budget`] units of work
    /// (plus the observation being taken in when it runs out), `known` the observations known
    /// to follow the last one taken in (the lookahead of the replay's last turns): replays are
    /// caught up observation by observation, a dead one gives way to the next older checkpoint;
    /// the first that catches up replaces the (empty) belief. When none is left the belief is
    /// dead for good.
    ///
    /// [`BeliefConfig::repair_budget`]: super::BeliefConfig::repair_budget
    pub(super) fn advance_regrowth(&mut self, known: &[Observation]) {
        let Some(mut regrowth) = self.regrowth.take() else {
            return;
        };
        let budget = self.repair_budget;
        let mut spent = 0u64;
        loop {
            let (mut replay, next) = match regrowth.replay.take() {
                Some(r) => r,
                None => {
                    if regrowth.candidates.is_empty() {
                        self.give_up();
                        return;
                    }
                    let (cp, scale) = regrowth.candidates.remove(0);
                    // The older recent checkpoints stay with the replay to repair from later.
                    let older: Vec<Checkpoint> = regrowth
                        .candidates
                        .iter()
                        .filter(|(c, _)| !c.exact)
                        .map(|(c, _)| c.clone())
                        .rev()
                        .collect();
                    self.repairs += 1;
                    let mut replay = Box::new(self.clone());
                    replay.recent = older.into();
                    let next = replay.begin_replay(
                        &cp,
                        self.bound.saturating_mul(scale),
                        self.particles.saturating_mul(scale),
                    );
                    (replay, next)
                }
            };
            let before = replay.work;
            let (progress, next) = replay.catch_up(&self.transcript, next, budget - spent, known);
            let done = replay.work - before;
            spent = spent.saturating_add(done);
            self.work += done;
            self.last_repair_work += done;
            match progress {
                Progress::CaughtUp => {
                    self.adopt(*replay);
                    return;
                }
                Progress::Behind => {
                    regrowth.replay = Some((replay, next));
                    self.regrowth = Some(regrowth);
                    return;
                }
                Progress::Died if spent >= budget => {
                    self.regrowth = Some(regrowth);
                    return;
                }
                Progress::Died => {}
            }
        }
    }

    /// Takes the caught-up replay's set as the belief's (the counters stay the belief's own).
    fn adopt(&mut self, replay: Belief) {
        let (repairs, refreshes, work, last) = (
            self.repairs,
            self.refreshes,
            self.work,
            self.last_repair_work,
        );
        let kept = (self.bound, self.particles, self.plies, self.last_exact);
        *self = replay;
        (self.bound, self.particles, self.plies, self.last_exact) = kept;
        (
            self.repairs,
            self.refreshes,
            self.work,
            self.last_repair_work,
        ) = (repairs, refreshes, work, last);
        // Checkpoints made at a larger scale: bounded by the particles again. Where the held sets
        // are kept in the genealogy's order (`belief/stratified.rs`) their first particles are
        // one branch of it: a uniform choice, in order, instead.
        let ordered = self.known_ahead && !self.uniform_choice;
        for cp in &mut self.recent {
            if ordered && cp.states.len() > self.particles {
                let keep = super::stratified::uniform_choice(
                    &mut self.rng,
                    cp.states.len(),
                    self.particles,
                );
                super::stratified::keep_in_order(&mut cp.states, &keep);
            }
            cp.states.truncate(self.particles);
        }
        self.regrowth = None;
        self.compact_witnesses();
    }

    /// No checkpoint had a consistent descendant the replays found: the belief is empty, not
    /// exact, and not repaired again.
    fn give_up(&mut self) {
        self.states.clear();
        self.exact = false;
        self.distinct = 0;
        self.given_up = true;
        self.recent.clear();
        self.regrowth = None;
    }

    /// Sets the belief to the checkpoint `cp` with `bound` and `particles`, ready to replay
    /// the transcript from the index returned.
    fn begin_replay(&mut self, cp: &Checkpoint, bound: usize, particles: usize) -> usize {
        self.restore(cp, bound, particles);
        self.given_up = false;
        self.budget = None;
        cp.transcript_len
    }

    /// Puts the belief back to what it held at `cp`, to be replayed with `bound` and
    /// `particles`.
    pub(super) fn restore(&mut self, cp: &Checkpoint, bound: usize, particles: usize) {
        self.bound = bound;
        self.particles = particles;
        self.states = cp.states.clone();
        self.turn = cp.turn.clone();
        self.pending = cp.pending.clone();
        self.exact = cp.exact;
        self.turns = cp.turns;
        self.scale = cp.scale;
        self.relvar = cp.relvar;
        self.count_distinct();
        self.over = false;
    }

    /// Takes in the observations of `transcript` from `next` (the lookahead knows the rest, and
    /// after it `known`, the observations known to follow the last one taken in), until every
    /// one is taken in, the held set dies, or `slice` work units are spent (the observation
    /// that passes it is finished). Returns how far it got and the next index.
    fn catch_up(
        &mut self,
        transcript: &[Observation],
        mut next: usize,
        slice: u64,
        known: &[Observation],
    ) -> (Progress, usize) {
        let start = self.work;
        if self.transcript.len() < transcript.len() {
            let from = self.transcript.len();
            self.transcript.extend_from_slice(&transcript[from..]);
        }
        // What follows each observation taken in: the rest of the transcript, then `known`.
        let ahead: Vec<Observation> = if known.is_empty() {
            Vec::new()
        } else {
            let mut ahead = transcript[next.min(transcript.len())..].to_vec();
            ahead.extend_from_slice(known);
            ahead
        };
        let first = next;
        while let Some(obs) = transcript.get(next) {
            if self.work - start >= slice {
                return (Progress::Behind, next);
            }
            self.cursor = next;
            let later = if known.is_empty() {
                &transcript[next + 1..]
            } else {
                &ahead[next - first + 1..]
            };
            self.update(obs, later);
            next += 1;
            if self.states.is_empty() {
                return (Progress::Died, next);
            }
        }
        (Progress::CaughtUp, next)
    }

    /// Replays the observations since `cp` from its hypotheses with `bound` and `particles`,
    /// fresh random choices and the lookahead (the observations since are known, and after
    /// them `known`, those known to follow the last one taken in); returns whether any
    /// hypothesis survived every one of them within the repair budget.
    pub(super) fn replay(
        &mut self,
        cp: &Checkpoint,
        bound: usize,
        particles: usize,
        known: &[Observation],
    ) -> bool {
        self.restore(cp, bound, particles);
        let since = self.transcript.len().saturating_sub(cp.transcript_len);
        let mut later: Vec<Observation> = self.transcript[cp.transcript_len..].to_vec();
        later.extend_from_slice(known);
        for k in 0..since {
            let obs = &later[k];
            self.cursor = cp.transcript_len + k;
            self.update(obs, &later[k + 1..]);
            if self.budget == Some(0) {
                // Out of budget before the replay caught up: what it holds is not checked
                // against the later observations.
                self.states.clear();
            }
            if self.states.is_empty() {
                return false;
            }
        }
        true
    }
}

impl Belief {
    /// Whether the held sample is thin enough after one of the player's own commands to be
    /// refreshed: sampled, fewer than the particles over [`DEPLETED`], not in a repair.
    pub(super) fn depleted(&self) -> bool {
        !self.exact
            && !self.over
            && !self.given_up
            && self.budget.is_none()
            && self.refreshed < REFRESHES_PER_TURN
            && self.distinct * DEPLETED < self.particles
    }

    /// Replays the last opponent turn from its parents (the newest checkpoint) with the
    /// lookahead through the player's commands since (and `known`, the observations known to
    /// follow), within [`REFRESH_WORK`] units a particle; keeps the result if it holds more
    /// positions than the thinned sample, else restores it.
    pub(super) fn refresh(&mut self, known: &[Observation]) {
        let tried = self.refreshed + 1;
        self.refreshed = tried;
        let Some(cp) = self.recent.pop_back() else {
            return;
        };
        let kept_len = self.recent.len();
        let saved = self.save();
        // The replay's own turn clears the flag; the rejuvenation stays once an opponent turn.
        let rejuvenated = self.rejuvenated;
        let (bound, particles) = (self.bound, self.particles);
        self.budget = Some(REFRESH_WORK.saturating_mul(particles as u64));
        let grown = self.replay(&cp, bound, particles, known) && self.distinct > saved.distinct;
        self.budget = None;
        if grown {
            self.refreshes += 1;
            // The replay's own turn reset the count.
            self.refreshed = tried;
            self.rejuvenated = rejuvenated;
            self.compact_witnesses();
            return;
        }
        // The replay pushed a checkpoint of its own turn (the same parents): drop it and put the
        // old one back. (Its turn count equals the old one's, so it cannot be told apart by
        // that: before, every refresh that did not grow the sample left the two side by side.)
        self.recent.truncate(kept_len);
        self.recent.push_back(cp);
        self.put_back(saved);
        self.refreshed = tried;
        self.rejuvenated = rejuvenated;
    }

    /// Keeps at most [`RECENT_CHECKPOINTS`] recent checkpoints, spaced about geometrically in
    /// age: while there are more, drops the one (other than the oldest and the newest) whose
    /// neighbours are closest together for its age ([`checkpoint_to_drop`]).
    pub(super) fn thin_checkpoints(&mut self) {
        while self.recent.len() > RECENT_CHECKPOINTS {
            let turns: Vec<u32> = self.recent.iter().map(|cp| cp.turns).collect();
            let drop = checkpoint_to_drop(&turns, self.turns);
            self.recent.remove(drop);
        }
    }
}

impl Belief {
    /// What a replay changes, to put back after it ([`Belief::put_back`]).
    pub(super) fn save(&self) -> Saved {
        Saved {
            states: self.states.clone(),
            distinct: self.distinct,
            scale: self.scale,
            relvar: self.relvar,
            turn: self.turn.clone(),
            pending: self.pending.clone(),
            over: self.over,
            turns: self.turns,
            cursor: self.cursor,
        }
    }

    /// Puts back what [`Belief::save`] kept (the set is sampled: a replay starts from a
    /// sampled checkpoint).
    pub(super) fn put_back(&mut self, saved: Saved) {
        let Saved {
            states,
            distinct,
            scale,
            relvar,
            turn,
            pending,
            over,
            turns,
            cursor,
        } = saved;
        self.states = states;
        self.distinct = distinct;
        self.scale = scale;
        self.relvar = relvar;
        self.turn = turn;
        self.pending = pending;
        self.over = over;
        self.turns = turns;
        self.cursor = cursor;
        self.exact = false;
    }
}

/// What a refresh or a rejuvenation restores after its replay.
pub(super) struct Saved {
    pub(super) states: Vec<super::Hypothesis>,
    pub(super) distinct: usize,
    pub(super) scale: f64,
    relvar: f64,
    turn: Vec<umpire_rules::Command>,
    pending: Vec<Observation>,
    over: bool,
    turns: u32,
    cursor: usize,
}

/// Which of the recent checkpoints (their opponent turns, oldest first, at least three) to drop
/// at turn `now`: of those between the oldest and the newest, the one whose neighbours are
/// closest together for its age. The oldest stays (the first sampled turn since the last
/// exact set: the farthest back a repair or a rejuvenation can go before that set), so the
/// others spread between it and the newest at about doubling ages: after 70 turns, ages 71,
/// 39, 15, 8, 3 and 1. (Until session 16 the oldest could be dropped too, with no older
/// neighbour to weigh it against, and it always was: the checkpoints stayed the last six
/// turns, so a repair went from six turns back straight to the last exact set.)
pub(super) fn checkpoint_to_drop(turns: &[u32], now: u32) -> usize {
    let score = |i: usize| {
        let age = now.saturating_sub(turns[i]) + 1;
        f64::from(turns[i + 1].saturating_sub(turns[i - 1])) / f64::from(age)
    };
    (1..turns.len().saturating_sub(1))
        .min_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::checkpoint_to_drop;
    use crate::belief::RECENT_CHECKPOINTS;

    /// A checkpoint a turn for 400 turns, thinned as `thin_checkpoints` thins them: the oldest
    /// (turn 0) stays, and from turn 20 on each checkpoint is at least one and a half times as
    /// old as the next newer one. Fails if the oldest may be dropped (the checkpoints then stay
    /// the last six turns, ratios 1.2–2).
    #[test]
    fn the_recent_checkpoints_spread_at_about_doubling_ages() {
        let mut turns: Vec<u32> = Vec::new();
        for now in 0..400u32 {
            turns.push(now);
            while turns.len() > RECENT_CHECKPOINTS {
                let drop = checkpoint_to_drop(&turns, now);
                turns.remove(drop);
            }
            assert_eq!(turns[0], 0, "turn {now}: {turns:?}");
            assert!(
                turns.windows(2).all(|w| w[0] < w[1]),
                "turn {now}: {turns:?}"
            );
            if now >= 20 {
                let ages: Vec<u32> = turns.iter().map(|t| now - t + 1).collect();
                assert_eq!(ages.len(), RECENT_CHECKPOINTS);
                assert!(
                    ages.windows(2).all(|a| 2 * a[0] >= 3 * a[1]),
                    "turn {now}: ages {ages:?}"
                );
            }
        }
    }
}
