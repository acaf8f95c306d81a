//! [`BeliefGuidedAgent`]: uniform over the guided action space narrowed by the belief filter.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig, FilterKind, LegalUnion};
use umpire_rules::shakmaty::Chess;
use umpire_rules::{Announcement, AttemptList, Command, Observation};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{PlayerView, ViewError};

use crate::Agent;

/// The bound on the exact set the agent keeps when built by name, and the particles it keeps
/// beyond it (where its filter is the sampled one): 2,500, so that a per-ply update stays under
/// 50 ms at the 99th percentile (issue 30, goal 3; at 20,000 the sampled turns alone took
/// 80–206 ms; figures and command in `docs/BENCHMARKS.md`).
pub const AGENT_BOUND: usize = 2_500;

/// The repair work the agent's belief may spend on one observation (a repair that needs more
/// goes on at the next one): with [`AGENT_BOUND`], a per-ply update's CPU p99 stayed at
/// 11–39 ms on six game-sides to ply 150 (at 150,000 units, 1,000 particles: 50–59 ms; command
/// in `docs/BENCHMARKS.md`, issue 30's sixth round).
pub const AGENT_REPAIR_WORK: u64 = 30_000;

/// Picks uniformly among the attempts the guided action space offers and that are legal in at
/// least one position its [`Belief`] holds — while the belief is exact, this hides an attempt
/// only if it is illegal in every position consistent with what the player heard (sound);
/// beyond the bound the belief is a sample and the filter is a heuristic. "Any?" is offered
/// where it may be asked. Falls back to the guided space if the belief would hide everything.
///
/// Without a public start position (a set-up game whose start is not given) it plays as the
/// guided-random agent.
#[derive(Clone, Debug)]
pub struct BeliefGuidedAgent {
    view: PlayerView,
    belief: Option<Belief>,
    filters: FilterSet,
    rng: Xoshiro256PlusPlus,
    options: AttemptList,
    fallbacks: u64,
    sampled_decisions: u64,
    decisions: u64,
}

impl BeliefGuidedAgent {
    /// An agent with this view, seeded; `start` is the public start position (None: no belief).
    pub fn new(
        view: PlayerView,
        seed: u64,
        filters: FilterSet,
        start: Option<Chess>,
        bound: usize,
    ) -> BeliefGuidedAgent {
        let config = BeliefConfig {
            bound,
            particles: None,
            seed,
            // Agents play games side by side (matches, benches): one thread each.
            threads: 1,
            parallel_from: umpire_belief::PARALLEL_FROM,
            repair_budget: AGENT_REPAIR_WORK,
        };
        let belief = start.and_then(|s| Belief::new(*view.rules(), s, view.side(), config).ok());
        BeliefGuidedAgent {
            view,
            belief,
            filters,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            options: AttemptList::new(),
            fallbacks: 0,
            sampled_decisions: 0,
            decisions: 0,
        }
    }

    /// The belief, if the start is known.
    pub fn belief(&self) -> Option<&Belief> {
        self.belief.as_ref()
    }

    /// Decisions at which the belief would have hidden every offered attempt.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// Decisions taken, and of those, decisions with a sampled (heuristic) filter.
    pub fn decisions(&self) -> (u64, u64) {
        (self.decisions, self.sampled_decisions)
    }
}

impl Agent for BeliefGuidedAgent {
    fn name(&self) -> &str {
        "belief-guided"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        self.view.observe(observation)?;
        if let Some(belief) = &mut self.belief
            && belief.observe(observation).is_err()
        {
            self.belief = None;
        }
        Ok(())
    }

    fn choose(&mut self) -> Command {
        self.decisions += 1;
        self.options.clear();
        let mut may_ask = GuidedSpace::new(&self.view, self.filters).options(&mut self.options);
        if self.options.is_empty() && !may_ask {
            may_ask = self.view.options(&mut self.options);
        }
        if let Some(belief) = self.belief.as_ref().filter(|b| b.held() > 0) {
            let union = LegalUnion::covering(belief, &self.options);
            if union.kind() == FilterKind::Sampled {
                self.sampled_decisions += 1;
            }
            let before = self.options.clone();
            self.options.retain(|a| union.may_be_legal(*a));
            if self.options.is_empty() && !may_ask {
                self.fallbacks += 1;
                self.options = before;
            }
        }
        let n = self.options.len() + usize::from(may_ask);
        if n == 0 {
            return Command::Resign;
        }
        let pick = self.rng.random_range(0..n);
        if pick == self.options.len() {
            Command::AskAny
        } else {
            Command::Attempt(self.options[pick])
        }
    }
}
