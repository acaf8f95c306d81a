//! [`GuidedRandomAgent`]: uniform over the guided action space.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::{Announcement, AttemptList, Command, Observation};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{PlayerView, ViewError};

use crate::Agent;

/// Picks uniformly among the attempts the guided action space offers its player (the own
/// board minus what the switched-on filters hide), and "Any?" where it may be asked.
/// Declines draw offers. Deterministic for a given seed.
///
/// If the filters hide everything (only heuristic filters can hide every legal move), it
/// falls back to the attempts its player may still make on its own board, so that a game
/// never stalls.
#[derive(Clone, Debug)]
pub struct GuidedRandomAgent {
    view: PlayerView,
    filters: FilterSet,
    rng: Xoshiro256PlusPlus,
    options: AttemptList,
    fallbacks: u64,
}

impl GuidedRandomAgent {
    /// A guided-random player with this view, seeded, offered what `filters` leave.
    pub fn new(view: PlayerView, seed: u64, filters: FilterSet) -> GuidedRandomAgent {
        GuidedRandomAgent {
            view,
            filters,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            options: AttemptList::new(),
            fallbacks: 0,
        }
    }

    /// The filters switched on.
    pub fn filters(&self) -> FilterSet {
        self.filters
    }

    /// How many times the filters hid everything and the agent fell back to its own board.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }
}

impl Agent for GuidedRandomAgent {
    fn name(&self) -> &str {
        "guided-random"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        self.view.observe(observation)
    }

    fn choose(&mut self) -> Command {
        self.options.clear();
        let mut may_ask = GuidedSpace::new(&self.view, self.filters).options(&mut self.options);
        if self.options.is_empty() && !may_ask {
            self.fallbacks += 1;
            may_ask = self.view.options(&mut self.options);
        }
        let n = self.options.len() + usize::from(may_ask);
        if n == 0 {
            // Never happens in a legal position (a legal move is always on the own board).
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
