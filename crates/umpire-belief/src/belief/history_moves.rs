//! History moves: a thin sample's hidden histories varied one opponent move at a time, where
//! the observations that follow are known (issue 30, goal 4).
//!
//! At a bottleneck the positions held descend from few early histories: at ply 40 of the
//! benchmarks' game 3 (White) the 500–1,100 positions held descended from 35–80 of the
//! histories held at ply 12 (`docs/BENCHMARKS.md`, "Session 8: early histories"), and the
//! marginals' distance follows that ancestry. A replay of the whole sampler from an older
//! checkpoint (`belief/rejuvenate.rs`) draws new ancestries at the cost of a particle filter
//! each. Here a held history is changed where it matters, in its past: one of its opponent
//! moves (turn `t`, uniform over its turns) is replaced by another move the opponent could
//! have made there while the player heard the same (a uniform choice among that turn's other
//! consistent moves, found by expanding the position before it), and the rest of the history
//! (the player's commands and the opponent's later moves, unchanged) is replayed with the real
//! umpire against every observation taken in, the repetition counts included. A history that
//! still explains every observation is added to the held set (a union, each position once).
//!
//! This is a Metropolis move of Gilks and Berzuini's resample-move over whole hidden histories:
//! the other moves of turn `t` are those of the same position under the same observations, so
//! the proposal is symmetric and a consistent result is accepted, which leaves the uniform
//! distribution over consistent histories in place. Every position added passed every
//! observation, so the independent checks apply unchanged.
//!
//! It runs with the rejuvenation (a thin sample, a record read at a ply), within
//! [`HISTORY_MOVE_WORK`] units a particle; agents and the review of every ply never do.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{Chess, Position};
use umpire_rules::{Attempt, Command, Observation};

use super::{Belief, Hypothesis};
use crate::compare::{Expected, repetition_end};
use crate::parallel::ordered_blocks;
use crate::simulate::{OpponentScratch, Step, expand_opponent, informative_event, own_step};
use crate::witness::{AFTER_ZEROING, BEFORE_ZEROING, Node, ROOT};
use crate::zobrist_key::{scramble, zobrist};

/// The work ([`Belief::work`] units: one per command judged or move judged) the history moves
/// of one rejuvenation may do, per particle.
pub const HISTORY_MOVE_WORK: u64 = 30;

/// A history that explains every observation taken in: its position, repetition fingerprint
/// and the witness nodes from the changed turn on (the first one's parent set, the others'
/// to be linked in order).
struct Moved {
    pos: Chess,
    rep: u64,
    nodes: Vec<Node>,
}

/// The repetition history of a replay (the Zobrist hashes since the last pawn move or
/// capture), where threefold repetition is in force.
struct Repetitions {
    on: bool,
    hashes: Vec<u64>,
}

impl Repetitions {
    /// Takes in the position after a move; whether its count agrees with whether the real game
    /// ended by repetition there (`repeated`).
    fn after_move(&mut self, pos: &Chess, hash: u64, repeated: bool) -> bool {
        if !self.on {
            return true;
        }
        if pos.halfmoves() == 0 {
            self.hashes.clear();
        }
        self.hashes.push(hash);
        let count = self.hashes.iter().filter(|&&h| h == hash).count();
        (count >= 3) == repeated
    }

    /// The fingerprint a hypothesis carries (the belief's: the sum of the scrambled hashes).
    fn fingerprint(&self) -> u64 {
        if !self.on {
            return 0;
        }
        self.hashes
            .iter()
            .fold(0u64, |sum, &h| sum.wrapping_add(scramble(h)))
    }
}

/// The trials of one round: each varies a history drawn from the sources held when the round
/// began (what a round finds becomes a source at the next), so that a round's trials are
/// independent and may run on several threads. Its size is fixed (not the threads'), so the
/// histories found do not depend on the threads.
const ROUND: u32 = 256;

/// Trials per block of a round handed to one thread (about a quarter of a millisecond).
const TRIAL_BLOCK: usize = 8;

/// What one trial did: nothing to vary (every source is the start: stop), or its work and the
/// history found, if any, with the witness node its changed turn hangs from.
enum Trial {
    Stop,
    Done {
        work: u64,
        found: Option<(u32, Moved)>,
    },
}

/// The trials of one block, with the umpires a thread replays them with (kept between blocks).
#[derive(Default)]
struct Trials {
    /// At most [`TRIAL_BLOCK`].
    done: Vec<Trial>,
    own: Option<umpire_rules::Umpire>,
    opponent: OpponentScratch,
}

impl Belief {
    /// Adds to the held set the consistent histories found by changing one opponent move of a
    /// held (or already added) history at a time, within `budget` work units.
    ///
    /// The trials run in rounds of [`ROUND`]: a round draws one salt from the belief's random
    /// sequence, and its `j`-th trial draws from a generator seeded by the salt and `j` alone,
    /// so a trial's result depends neither on the thread that ran it nor on the others of its
    /// round. The results are taken in trial order (work counted, histories added) until the
    /// budget is spent.
    pub(super) fn move_histories(&mut self, budget: u64) {
        let mut sources: Vec<Hypothesis> =
            self.states.iter().filter(|h| h.primary).cloned().collect();
        if sources.is_empty() {
            return;
        }
        let threads = self.threads_for(usize::try_from(budget).unwrap_or(usize::MAX));
        let numbers: Vec<u32> = (0..ROUND).collect();
        let mut spent = 0u64;
        let mut added = Vec::new();
        // The histories a round found, in trial order (at most `ROUND`).
        let mut found: Vec<(u32, Moved)> = Vec::new();
        let mut stop = false;
        while spent < budget && !stop {
            let salt: u64 = self.rng.random();
            {
                let (this, sources) = (&*self, &sources);
                let work = |block: &[u32], out: &mut Trials| {
                    out.done.clear();
                    for &j in block {
                        let trial = this.trial(sources, salt, j, &mut out.own, &mut out.opponent);
                        out.done.push(trial);
                    }
                };
                let take = |out: &mut Trials| {
                    for trial in out.done.drain(..) {
                        let Trial::Done { work, found: f } = trial else {
                            stop = true;
                            return false;
                        };
                        spent += work.max(1);
                        found.extend(f);
                        if spent >= budget {
                            return false;
                        }
                    }
                    true
                };
                ordered_blocks(&numbers, TRIAL_BLOCK, threads, work, take);
            }
            for (mut parent, moved) in found.drain(..) {
                for mut node in moved.nodes {
                    node.parent = parent;
                    parent = self.witnesses.push(node);
                }
                let h = Hypothesis {
                    pos: moved.pos,
                    node: parent,
                    rep: moved.rep,
                    primary: true,
                };
                sources.push(h.clone());
                added.push(h);
            }
        }
        self.spend(spent);
        if !added.is_empty() {
            self.states.append(&mut added);
            self.dedup();
        }
    }

    /// Trial `j` of a round salted `salt`: a uniform choice of `sources` and of one of its
    /// opponent turns, varied (see [`Belief::vary`]).
    fn trial(
        &self,
        sources: &[Hypothesis],
        salt: u64,
        j: u32,
        own: &mut Option<umpire_rules::Umpire>,
        opponent: &mut OpponentScratch,
    ) -> Trial {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(salt ^ scramble(u64::from(j)));
        let i = rng.random_range(0..sources.len());
        let chain = self.witnesses.chain(sources[i].node);
        if chain.is_empty() {
            // Only the start: nothing to vary (and nothing will be: stop).
            return Trial::Stop;
        }
        let t = rng.random_range(0..chain.len());
        let (found, work) = self.vary(&chain, t, &mut rng, own, opponent);
        let parent = if t == 0 { ROOT } else { chain[t - 1] };
        Trial::Done {
            work,
            found: found.map(|f| (parent, f)),
        }
    }

    /// Replays the history whose witness nodes are `chain` with its opponent move `t` replaced
    /// by a uniform choice of that turn's other consistent moves, against every observation
    /// taken in; the history found (if it explains them all) and the work done.
    fn vary(
        &self,
        chain: &[u32],
        t: usize,
        rng: &mut Xoshiro256PlusPlus,
        own: &mut Option<umpire_rules::Umpire>,
        opponent: &mut OpponentScratch,
    ) -> (Option<Moved>, u64) {
        let moves: Vec<Attempt> = chain
            .iter()
            .filter_map(|&n| self.witnesses.get(n).map(|n| n.mv))
            .collect();
        let mut pos = self.start.clone();
        let mut reps = Repetitions {
            on: self.rules.threefold_repetition,
            hashes: vec![zobrist(&pos)],
        };
        let mut turn: Vec<Command> = Vec::new();
        let mut pending: Vec<Observation> = Vec::new();
        let mut nodes = Vec::new();
        let (mut j, mut work) = (0usize, 0u64);
        for obs in &self.transcript {
            if obs.actor == self.side {
                let Some(o) = obs.own else { continue };
                if matches!(o.command, Command::Attempt(_) | Command::AskAny) {
                    work += 1;
                    match own_step(own, self.sim, &pos, &turn, o.command, &Expected::of(obs)) {
                        Step::Drop => return (None, work),
                        Step::Stay => {}
                        Step::Moved(after) => {
                            let hash = if reps.on { zobrist(&after) } else { 0 };
                            if !reps.after_move(&after, hash, repetition_end(obs)) {
                                return (None, work);
                            }
                            pos = after;
                        }
                    }
                    if obs.moved {
                        turn.clear();
                    } else {
                        turn.push(o.command);
                    }
                }
            } else {
                if informative_event(obs) {
                    pending.push(obs.clone());
                }
                if obs.moved {
                    let Some(&original) = moves.get(j) else {
                        return (None, work);
                    };
                    let mut options: Vec<(Attempt, Chess, u64)> = Vec::new();
                    let choose = j == t;
                    expand_opponent(
                        opponent,
                        self.sim,
                        &pos,
                        &pending,
                        &mut |a| (a != original) == choose,
                        &mut |played, a, hash| {
                            if options.iter().all(|(b, _, _)| *b != a) {
                                options.push((a, played.position().clone(), hash));
                            }
                        },
                    );
                    work += 1 + if choose { options.len() as u64 } else { 0 };
                    pending.clear();
                    if options.is_empty() {
                        return (None, work);
                    }
                    let k = if choose {
                        rng.random_range(0..options.len())
                    } else {
                        0
                    };
                    let (mv, after, hash) = options.swap_remove(k);
                    let before = if reps.on { zobrist(&pos) } else { 0 };
                    let before_zeroing = pos.halfmoves() == 0;
                    if !reps.after_move(&after, hash, repetition_end(obs)) {
                        return (None, work);
                    }
                    if j >= t {
                        let zeroing = u8::from(before_zeroing) * BEFORE_ZEROING
                            + u8::from(after.halfmoves() == 0) * AFTER_ZEROING;
                        nodes.push(Node {
                            parent: ROOT,
                            mv,
                            before,
                            after: if reps.on { hash } else { 0 },
                            zeroing: if reps.on { zeroing } else { 0 },
                        });
                    }
                    pos = after;
                    j += 1;
                }
            }
            if obs
                .announcements
                .iter()
                .any(|a| matches!(a, umpire_rules::Announcement::GameOver(_)))
            {
                break;
            }
        }
        if j != moves.len() || j <= t {
            return (None, work);
        }
        let rep = reps.fingerprint();
        (Some(Moved { pos, rep, nodes }), work)
    }
}
