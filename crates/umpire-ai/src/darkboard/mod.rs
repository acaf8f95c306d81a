//! [`DarkboardAgent`]: seed 001's player. It keeps a [`Metaposition`] fed only by its player's
//! observations and picks the attempt with the best weighted maximax value: each umpire answer
//! weighted by its likelihood, pseudo and meta steps, deeper levels discounted, leaves scored by
//! the paper's evaluation (`eval.rs`).
//!
//! Terms added at the root, on top of the search value (`mate.rs` and [`DarkboardAgent::choose`]):
//! - mate and stalemate: over the worlds the player cannot rule out (every possible square of
//!   the enemy king when the rest of the enemy is known, else a sample of the positions held by
//!   a bounded [`Belief`] fed the same observations), the share where the attempt mates earns
//!   a bonus and the share where it stalemates a penalty twenty times larger;
//! - progress: once the fifty-move clock passes 40 halfmoves, pawn moves earn a bonus growing
//!   with the clock (the evaluation also pushes pawns harder when the enemy has little left);
//! - repetition: returning a man to a square recently left, and every earlier visit of the own
//!   men's configuration, cost a little; a third visit costs a lot.
//!
//! When the enemy is down to its king and at most two men that may all be pawns, and we have
//! mating material, the mating method of `net.rs` chooses instead of the search (with the
//! repetition and progress terms above), over the enemy king's squares kept by
//! `net_worlds.rs`.

pub(crate) mod capture_tries;
mod eval;
pub(crate) mod mate;
pub(crate) mod net;
mod net_value;
pub(crate) mod net_worlds;
mod own_configs;
pub(crate) mod root_terms;
mod search;
mod sure_attacks;

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, Metaposition};
use umpire_rules::shakmaty::{Chess, Role, attacks};
use umpire_rules::{Announcement, AttemptList, Command, Observation, Verdict};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{PlayerView, ViewError};

use crate::{Agent, AgentConfig, Analysis, Budget};
use root_terms::OwnHistory;
use search::{Limits, value_of};

/// The node budget standing in for "unlimited" under a time budget.
const TIME_NODES: u64 = u64::MAX;
/// The deepest level searched (our turns after the first).
const MAX_DEPTH: u32 = 3;
/// What a certain stalemate costs, in evaluation pawns (a draw thrown away). Far more than a
/// certain mate gains: against a weak opponent the win comes later anyway, so a small chance of
/// a stalemate outweighs a good chance of mating now. Not a veto: where the enemy king may be
/// almost anywhere, one stalemating world in 64 must not stop a pawn's progress for ever.
const STALEMATE: f32 = 20.0 * MATE;
/// After an opponent turn with more heard rejected attempts than this, the belief (used only
/// to check mates and stalemates) is given up; the metaposition goes on. (`mcts` restarts its
/// belief from a guess instead; this agent has not been measured without the cut.)
const MAX_HEARD_REJECTIONS: u32 = 6;
/// Value of a certain mate, in evaluation pawns: more than any other difference between
/// attempts, but a mate in a few worlds only does not outweigh a queen lost in the others.
const MATE: f32 = 30.0;

/// Darkboard's weighted maximax over metapositions (seed 001). Deterministic for a seed under
/// a node budget (a node is one evaluated metaposition); under a time budget it deepens until
/// the deadline.
#[derive(Clone, Debug)]
pub struct DarkboardAgent {
    view: PlayerView,
    meta: Metaposition,
    filters: FilterSet,
    budget: Budget,
    rng: Xoshiro256PlusPlus,
    analysis: Option<Analysis>,
    worlds: Vec<Chess>,
    /// Per option, the shares of the worlds where it mates and stalemates.
    shares: Vec<(f32, f32)>,
    /// Per option, its score by the mating method.
    net_scores: Vec<net::Scored>,
    /// The enemy king's squares as the mating method keeps them.
    king_worlds: net_worlds::KingWorlds,
    /// The player's own moves, for the root terms against repetition and for progress.
    history: OwnHistory,
    /// The positions the player cannot rule out (bounded, sampled beyond the bound), for mate
    /// and stalemate detection where the metaposition alone is too loose; dropped if it fails.
    belief: Option<Belief>,
    /// Opponent commands heard since the opponent's turn began (its rejected attempts).
    heard_rejections: u32,
}

/// The metaposition of `view`: at the start of its game, or of the standard start with the
/// observations taken in replayed.
pub(crate) fn metaposition_of(view: &PlayerView) -> Metaposition {
    if view.transcript().is_empty() || !view.standard_start() {
        Metaposition::start(view)
    } else {
        let mut fresh = PlayerView::standard(*view.rules(), view.side());
        fresh.hear_opening(view.opening().iter().copied());
        let mut meta = Metaposition::start(&fresh);
        for obs in view.transcript() {
            meta.observe(obs);
        }
        meta
    }
}

/// The belief bound: a few milliseconds per update.
pub const DARKBOARD_BELIEF_BOUND: usize = 256;

impl DarkboardAgent {
    /// A Darkboard player with this view (at the start of its game, or of the standard start
    /// with observations taken in, which are replayed), seeded, built with `config`.
    pub fn new(view: PlayerView, seed: u64, config: &AgentConfig) -> DarkboardAgent {
        let mut belief = None;
        if view.standard_start() {
            // Its repairs within the time budget (crate::time_bound), one thread.
            let bc = crate::time_bound::belief_config(DARKBOARD_BELIEF_BOUND, seed, config.budget);
            belief = Belief::new(*view.rules(), Chess::default(), view.side(), bc).ok();
            for obs in view.transcript() {
                if belief.as_mut().is_some_and(|b| b.observe(obs).is_err()) {
                    belief = None;
                }
            }
        }
        let meta = metaposition_of(&view);
        let mut agent = DarkboardAgent::with_metaposition(view, meta, seed, config);
        agent.belief = belief;
        agent
    }

    /// A Darkboard player that knows the set of positions it may be in (a set-up start both
    /// players are told): its metaposition is the belief's, and the belief is kept for mate and
    /// stalemate detection.
    pub fn with_belief(
        view: PlayerView,
        belief: Belief,
        seed: u64,
        config: &AgentConfig,
    ) -> Option<DarkboardAgent> {
        let meta = Metaposition::of(&belief)?;
        let mut agent = DarkboardAgent::with_metaposition(view, meta, seed, config);
        agent.belief = Some(belief);
        Some(agent)
    }

    /// A Darkboard player that starts from a given metaposition (for instance
    /// `Metaposition::of` an exact belief of a set-up position).
    pub fn with_metaposition(
        view: PlayerView,
        meta: Metaposition,
        seed: u64,
        config: &AgentConfig,
    ) -> DarkboardAgent {
        DarkboardAgent {
            view,
            meta,
            filters: config.filters,
            budget: config.budget,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            analysis: None,
            worlds: Vec::new(),
            shares: Vec::new(),
            net_scores: Vec::new(),
            king_worlds: net_worlds::KingWorlds::default(),
            history: OwnHistory::default(),
            belief: None,
            heard_rejections: 0,
        }
    }

    /// The agent's metaposition.
    pub fn metaposition(&self) -> &Metaposition {
        &self.meta
    }

    /// The attempt of the mating method ([`net`]) among `options`, with the root `bonus`es
    /// (repetition, progress) scaled to its units.
    fn close_net(&mut self, options: &AttemptList, bonus: &[f32]) -> Command {
        let kings = self.king_worlds.worlds(&self.meta);
        let (chosen, analysis) = net::choose(
            &self.meta,
            kings,
            options,
            bonus,
            None,
            &mut self.net_scores,
        );
        self.analysis = Some(analysis);
        Command::Attempt(chosen)
    }

    /// Whether asking "Any?" pays: some pawn of ours may capture something.
    fn any_pays(&self) -> bool {
        let us = self.view.side();
        let maybe = self.meta.maybe_enemy();
        self.view
            .own_board()
            .board()
            .by_piece(Role::Pawn.of(us))
            .into_iter()
            .any(|p| (attacks::pawn_attacks(us, p) & maybe).any())
    }
}

impl Agent for DarkboardAgent {
    fn name(&self) -> &str {
        "darkboard"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
        if self.view.transcript().is_empty() {
            // What the opening announcements tell, kept with what the agent was given (a
            // metaposition of an exact start must not be widened back to the set-up one).
            self.meta = Metaposition::start(&self.view).intersect(&self.meta);
        }
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        self.view.observe(observation)?;
        self.meta.observe(observation);
        // A turn of the opponent's with many heard rejections makes the belief's repairs too
        // slow for this agent's budget; give it up (the metaposition goes on).
        if observation.actor != self.view.side() {
            if observation.moved {
                self.king_worlds.opponent_moved(&self.meta);
                if self.heard_rejections > MAX_HEARD_REJECTIONS {
                    self.belief = None;
                }
                self.heard_rejections = 0;
            } else {
                self.heard_rejections += 1;
            }
        }
        if self
            .belief
            .as_mut()
            .is_some_and(|b| b.observe(observation).is_err())
        {
            self.belief = None;
        }
        if let Some(own) = observation.own
            && let (Command::Attempt(a), Verdict::Accepted) = (own.command, own.verdict)
        {
            self.history.moved(a, self.view.own_board());
        }
        Ok(())
    }

    fn choose(&mut self) -> Command {
        let start = Instant::now();
        let mut options = AttemptList::new();
        let mut may_ask = GuidedSpace::new(&self.view, self.filters).options(&mut options);
        if options.is_empty() && !may_ask {
            may_ask = self.view.options(&mut options);
        }
        if options.is_empty() {
            return if may_ask {
                Command::AskAny
            } else {
                Command::Resign
            };
        }
        if may_ask && self.any_pays() {
            self.analysis = Some(Analysis {
                value: 0.0,
                line: vec![Command::AskAny],
                nodes: 0,
            });
            return Command::AskAny;
        }
        // A fixed order, shuffled by the seed, breaks ties.
        options.sort();
        for i in (1..options.len()).rev() {
            let j = self.rng.random_range(0..=i);
            options.swap(i, j);
        }
        let (max_nodes, deadline) = match self.budget {
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(d) => (TIME_NODES, Some(start + d)),
        };
        let mut limits = Limits {
            nodes: 0,
            max_nodes,
            deadline,
        };
        mate::king_worlds(&self.meta, &mut self.worlds);
        if self.worlds.is_empty()
            && let Some(belief) = &self.belief
        {
            mate::belief_worlds(belief, &mut self.rng, &mut self.worlds);
        }
        let clock = self.meta.halfmoves().map_or(0, |(_, hi)| hi);
        let mut bonus = Vec::with_capacity(options.len());
        self.history
            .bonus(self.view.own_board(), clock, &options, &mut bonus);
        if net::applies(&self.meta) {
            return self.close_net(&options, &bonus);
        }
        self.king_worlds.forget();
        if !self.worlds.is_empty() {
            mate::mate_shares(&self.worlds, &options, &mut self.shares);
            for (b, &(mate, stalemate)) in bonus.iter_mut().zip(&self.shares) {
                *b += MATE * mate - STALEMATE * stalemate;
            }
        }
        let mut best = (0usize, f32::NEG_INFINITY);
        for depth in 0..=MAX_DEPTH {
            let mut level = (0usize, f32::NEG_INFINITY);
            let mut complete = true;
            for (i, &a) in options.iter().enumerate() {
                if depth > 0 && limits.out() {
                    complete = false;
                    break;
                }
                let v = value_of(&self.meta, a, depth, &mut limits) + bonus[i];
                if v > level.1 {
                    level = (i, v);
                }
            }
            if complete || depth == 0 {
                best = level;
            }
            if !complete || limits.out() {
                break;
            }
        }
        let chosen = options[best.0];
        self.analysis = Some(Analysis {
            value: f64::from((best.1 / 10.0).tanh()),
            line: vec![Command::Attempt(chosen)],
            nodes: limits.nodes,
        });
        Command::Attempt(chosen)
    }

    fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }
}
