//! Rejuvenation: a sample that the player's own commands depleted is refilled from the last
//! sampled opponent turn, by expanding the parents that turn left unexpanded and keeping those
//! of their children that pass every observation since (issue 30, goals 3 and 4).
//!
//! A sampled opponent turn expands its (shuffled) parents until four times the particles of
//! distinct children were offered, and keeps a uniform reservoir of them: the children of only
//! a share of the parents. When the player's next commands then rule out most of that
//! reservoir (a capture, a check, a rejected attempt that the blind proposal did not foresee),
//! the survivors descend from few parents and the sample's ancestry narrows. Rather than wait
//! for the sample to die and replay every observation since the last exact set (a repair), the
//! belief goes on with that turn's expansion where it stopped, parent after parent within a
//! bounded amount of work, keeps each new distinct child with the reservoir's own inclusion
//! probability (so old and new survivors stay one uniform sample of the children of the
//! parents expanded), judges the kept ones by the player's commands since the turn, and adds
//! the survivors. This is the stage-graph idea of Richards and Amir applied one stage back:
//! the search resumes from surviving ancestors, pruned by every observation. A sample that died
//! is not refilled (measured: refilled samples died again soon); it is repaired as before.

use rand::RngExt;
use rand::seq::index;
use umpire_rules::{Command, Observation};

use super::{Belief, Hypothesis, OwnTurn, PARENT_WORK, Spread};
use crate::compare::repetition_end;
use crate::key_table::KeyTable;
use crate::witness::Node;

/// The last sampled opponent turn, kept so that a depleted sample can be refilled from it.
#[derive(Clone, Debug)]
pub(super) struct Stage {
    /// The turn's parents in the (shuffled) order they were expanded; `None`: the last exact
    /// set, kept as the checkpoint (the turn that first passed the bound).
    pub parents: Option<Vec<Hypothesis>>,
    /// The first parent not expanded yet.
    pub next: usize,
    /// The opponent's informative observations of the turn, its move last.
    pub events: Vec<Observation>,
    /// The keys of every distinct child offered in the turn (and since, by rejuvenation).
    pub offered: KeyTable,
    /// The probability with which the turn's reservoir kept a distinct child offered.
    pub keep: f64,
    /// The index in the transcript of the first observation after the opponent's move.
    pub from: usize,
}

/// A sample of fewer than the particles divided by this, after one of the player's own
/// commands, is refilled ([`Belief::rejuvenate`]).
pub(super) const DEPLETED: usize = 4;

/// The work ([`Belief::work`] units) one refill may do, per particle: about 8 units a particle,
/// i.e. about two sampled opponent turns' worth.
pub(super) const REJUVENATION_WORK: u64 = 8;

impl Belief {
    /// Refills the sample from the last sampled opponent turn ([`Stage`]) within `budget` work
    /// units: expands the parents that turn left
    /// unexpanded, keeps each new distinct child with the turn's inclusion probability, keeps
    /// those that pass the player's commands since, and adds them to the held set. Returns
    /// whether hypotheses were added. Every one added is fully consistent: it passed every
    /// observation since the start.
    pub(super) fn rejuvenate(&mut self, budget: u64) -> bool {
        if self.over || self.exact {
            return false;
        }
        let Some(mut stage) = self.stage.take() else {
            return false;
        };
        let budget = budget.min(self.budget.unwrap_or(u64::MAX));
        let threefold = self.rules.threefold_repetition;
        let start = self.start_entry();
        let parents: &[Hypothesis] = match (&stage.parents, &self.checkpoint) {
            (Some(p), _) => p,
            (None, Some(cp)) => &cp.states,
            (None, None) => &[],
        };
        let expanded_before = stage.next;
        let mut fresh: Vec<Hypothesis> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut work = 0u64;
        {
            let spread = Spread {
                sim: self.sim,
                fifty: self.rules.fifty_moves,
                events: &stage.events,
                witnesses: &self.witnesses,
                start,
                threefold,
                repeated: threefold && stage.events.last().is_some_and(repetition_end),
            };
            let rng = &mut self.rng;
            let offered = &mut stage.offered;
            let keep = stage.keep;
            while stage.next < parents.len() && work < budget {
                let h = &parents[stage.next];
                stage.next += 1;
                let mut count = 0u64;
                spread.children(h, &mut |c| {
                    count += 1;
                    if offered.insert(c.k) && (keep >= 1.0 || rng.random::<f64>() < keep) {
                        fresh.push(Hypothesis {
                            pos: c.pos,
                            node: c.node.parent,
                            rep: c.rep,
                            primary: true,
                        });
                        nodes.push(c.node);
                    }
                });
                work += count + PARENT_WORK;
            }
        }
        let expanded_after = stage.next;
        let added_parents = expanded_after > expanded_before;
        for (h, node) in fresh.iter_mut().zip(nodes) {
            h.node = self.witnesses.push(node);
        }
        // The player's commands since the opponent's move, each judged with the turn's
        // earlier commands, as `filter_own` judged the held set.
        let end = (self.cursor + 1).min(self.transcript.len());
        let mut earlier: Vec<Command> = Vec::new();
        for obs in self.transcript.get(stage.from..end).unwrap_or(&[]) {
            if fresh.is_empty() {
                break;
            }
            if obs.actor != self.side {
                continue;
            }
            let Some(own) = obs.own else { continue };
            if !matches!(own.command, Command::Attempt(_) | Command::AskAny) {
                continue;
            }
            let judge = OwnTurn {
                sim: self.sim,
                earlier: &earlier,
                command: own.command,
                obs,
                witnesses: &self.witnesses,
                start,
                threefold,
                repeated: threefold && repetition_end(obs),
            };
            let judged = fresh.len() as u64;
            if work.saturating_add(judged) > budget {
                // Out of budget: the children not judged by every command are dropped.
                fresh.clear();
                break;
            }
            work += judged;
            let (kept, _) = judge.judge(&mut fresh);
            fresh.truncate(kept);
            if obs.moved {
                earlier.clear();
            } else {
                earlier.push(own.command);
            }
        }
        self.spend(work);
        self.stage = Some(stage);
        if !added_parents {
            return false;
        }
        // The estimate: survivors per expanded parent, over more parents now.
        self.scale *= expanded_before as f64 / expanded_after as f64;
        if fresh.is_empty() {
            return false;
        }
        self.rejuvenations += 1;
        self.states.append(&mut fresh);
        self.dedup();
        let (held, most) = (self.states.len(), self.particles);
        if held > most {
            // More survivors than particles: a uniform choice of them, in order.
            let mut keep = index::sample(&mut self.rng, held, most).into_vec();
            keep.sort_unstable();
            for (w, &r) in keep.iter().enumerate() {
                self.states.swap(w, r);
            }
            self.states.truncate(most);
            self.scale *= held as f64 / most as f64;
            self.count_distinct();
        }
        true
    }

    /// Whether the held sample is depleted enough after one of the player's own commands to
    /// be refilled: sampled, fewer than the particles over [`DEPLETED`], and not in a repair.
    pub(super) fn depleted(&self) -> bool {
        !self.exact && self.budget.is_none() && self.distinct * DEPLETED < self.particles
    }
}
