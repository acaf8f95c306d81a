//! [`RandomAgent`]: uniform over what its player may still say.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::{Announcement, AttemptList, Command, Observation};
use umpire_view::{PlayerView, ViewError};

use crate::Agent;

/// Picks uniformly among the attempts its player may still make on its own board (rejected
/// ones excluded, pawn captures only while an "Any?" obliges) and "Any?" where it may be asked.
/// Declines draw offers. Deterministic for a given seed.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    view: PlayerView,
    rng: Xoshiro256PlusPlus,
    options: AttemptList,
}

impl RandomAgent {
    /// A random player with this view, seeded.
    pub fn new(view: PlayerView, seed: u64) -> RandomAgent {
        RandomAgent {
            view,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            options: AttemptList::new(),
        }
    }

    /// Works out what its player may still say now ([`RandomAgent::options`]); returns whether
    /// "Any?" may be asked as well.
    pub(crate) fn refresh_options(&mut self) -> bool {
        self.options.clear();
        self.view.options(&mut self.options)
    }

    /// The attempts found by the last [`RandomAgent::refresh_options`].
    pub(crate) fn options(&self) -> &AttemptList {
        &self.options
    }

    /// A number drawn uniformly from `0..n` (`n` > 0) with the agent's seeded generator.
    pub(crate) fn draw(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }

    /// A uniform choice among the options of the last [`RandomAgent::refresh_options`] and
    /// "Any?" when `may_ask`.
    pub(crate) fn choose_among(&mut self, may_ask: bool) -> Command {
        let n = self.options.len() + usize::from(may_ask);
        if n == 0 {
            // Never happens in a legal position (a legal move is always on the own board);
            // resigning keeps the game well-formed if a corrupt stream ever gets here.
            return Command::Resign;
        }
        let pick = self.draw(n);
        match self.options.get(pick) {
            Some(&a) => Command::Attempt(a),
            None => Command::AskAny,
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
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
        let may_ask = self.refresh_options();
        self.choose_among(may_ask)
    }
}
