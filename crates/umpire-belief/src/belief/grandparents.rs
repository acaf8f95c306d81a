//! The parents of a sampled turn's children beyond the held ones (issue 30, goal 4).
//!
//! `belief/parent_count.rs` undoes the lean towards children of several *held* parents. From
//! the second sampled turn on the held parents are themselves a small share of the consistent
//! ones, and a child of `k` consistent parents has about `k` times the chance of having one
//! among them: turn after turn the sample leans towards positions with many hidden histories
//! (`docs/BELIEF.md`, "What limits the quality"). Here the last turn is replayed whole from its
//! own held parents (the previous checkpoint: this turn's grandparents) through the player's
//! commands since: every consistent parent that descends from a held grandparent, a set of
//! which the held parents are a uniform share. Each kept child's parents among them are
//! counted, and the child stays with the share held over its chance to have a held parent
//! (`parent_count::thin_by_pstar`): every child of that set is then kept with the same
//! chance. Where the grandparents are the last exact set (the second sampled turn) the count
//! is the child's number of consistent parents; later the lean is left only among children of
//! different held grandparents. Only the fully consistent children already kept are thinned:
//! every held hypothesis stays fully consistent.

use umpire_rules::Observation;

use super::{Belief, Hypothesis};

/// The bound and particles of the replay, the most parents it holds (4,194,304): it keeps every
/// child of the held grandparents (at 10,000 particles in the benchmarks' game 3 a few hundred
/// thousand; at the second sampled turn, replayed from the last exact set, the whole set). A
/// replay that passes it holds a sample, and its children are then kept a little too often.
const WHOLE: usize = 1 << 22;

impl Belief {
    /// Every consistent parent of the opponent turn being taken in that is a child of the last
    /// turn's held parents: the last turn replayed whole from them through the player's
    /// commands since. `None` where the last turn was not sampled from a checkpoint (or in a
    /// repair, refresh or rejuvenation, which replay under a budget).
    pub(super) fn grandparent_children(&mut self) -> Option<Vec<Hypothesis>> {
        if self.exact || self.budget.is_some() || self.regrowth.is_some() {
            return None;
        }
        let cp = match self.recent.back() {
            Some(cp) => cp.clone(),
            None => self.checkpoint.clone()?,
        };
        if cp.turns + 1 != self.turns {
            return None;
        }
        let end = self.cursor;
        let later: Vec<Observation> = self.transcript.get(cp.transcript_len..end)?.to_vec();
        let saved = self.save();
        let recent = self.recent.clone();
        let checkpoint = self.checkpoint.clone();
        let last_exact = self.last_exact;
        let branching = self.branching;
        let (refreshed, rejuvenated) = (self.refreshed, self.rejuvenated);
        let (bound, particles) = (self.bound, self.particles);
        self.grandparents = false;
        self.restore(&cp, WHOLE, WHOLE);
        for k in cp.transcript_len..end {
            self.cursor = k;
            let i = k - cp.transcript_len;
            let (Some(obs), Some(after)) = (later.get(i), later.get(i + 1..)) else {
                break;
            };
            self.update(obs, after);
            if self.states.is_empty() {
                break;
            }
        }
        let mut found = std::mem::take(&mut self.states);
        found.retain(|h| h.primary);
        self.put_back(saved);
        self.recent = recent;
        self.checkpoint = checkpoint;
        self.last_exact = last_exact;
        self.branching = branching;
        (self.refreshed, self.rejuvenated) = (refreshed, rejuvenated);
        (self.bound, self.particles) = (bound, particles);
        self.grandparents = true;
        Some(found)
    }
}
