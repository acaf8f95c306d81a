//! [`MctsAgent`]: Monte Carlo tree search over the information set.
//!
//! Each iteration draws a determinization (a full position) from the agent's [`Belief`], which
//! is fed only the agent's observations, and walks the tree in it with a real [`Umpire`]:
//!
//! - a node is a decision point of the agent, named by what the agent heard on the way there;
//!   its edges are the agent's commands (attempts, and "Any?" where the rule set has it). An
//!   attempt the umpire calls impossible (ruled out by what the agent heard: its own board,
//!   the announced checks and pawn tries, so in every determinization reaching the node) is
//!   removed from the node and the agent chooses again;
//! - the umpire judges the chosen command in the determinization; what the agent would hear
//!   (verdict and announcements) picks the child. A rejected attempt leads to a node where the
//!   same player tries again (scored as a leaf when new, like any other; with
//!   [`MctsConfig::score_rejections`] off the iteration walks on through the retries to the
//!   next accepted command instead, which sees threats beyond them but costs about three times
//!   as much per iteration and measured weaker); an accepted one is followed by a hidden
//!   opponent reply in the determinized position, of which the child's name keeps only what
//!   the agent would hear;
//! - the reply is chosen by the [`Opponent`] model. By default ([`Opponent::Bandit`]) each
//!   point where the opponent moves (node, command, what the agent heard of it) keeps a reply
//!   table shared by all the determinizations that reach it: a subset-armed UCB1 bandit over
//!   the moves legal in the determinization that *minimises* the agent's value, widened
//!   progressively from the likeliest replies (captures, promotions, checks). With more
//!   iterations the opponent finds the replies that refute the agent's plans, so deeper
//!   search no longer optimises against a near-random opponent. Above a reference search
//!   (100 ms or [`REFERENCE_NODES`] nodes; [`Safeguards::mixed_replies`], on by
//!   default) a table learns from one visit in `ceil(budget / reference)` and on the others
//!   plays the mixed strategy it has learned, so that a larger search does not plan against an
//!   opponent that has sharpened its reply on worlds it cannot see ([`learning_stride`]).
//!   [`Opponent::Policy`] keeps the earlier model: the playout policy ([`policy_move`]: mostly
//!   the best capture, else random);
//! - the new leaf is scored by the [`Variant`]: tree-only average backup (static evaluation
//!   of the leaf) or early-terminated playout with a quality bonus; game ends score ±1 or 0.
//!
//! Determinizations: drawn uniformly from the belief's positions. After a dead belief is
//! restarted from several worlds
//! ([`MctsConfig::restart_worlds`], on by default; [`crate::restart_worlds`]), also from the
//! positions of the worlds other than the belief's that still fit (at most [`SPARE_WORLDS`]).
//! While the belief is empty (under repair) the search plans from the fallback and, with
//! [`Safeguards::guess_worlds`] (on by default), from the other kept guesses' worlds too
//! (`fallback.rs`); the root's safety checks then weigh those worlds beside a belief of few
//! positions.
//! [`MctsAgent::stats`] tells where the last decision's nodes went
//! ([`SearchStats`]).
//!
//! The root's commands are the guided action space of the view (never an attempt already
//! rejected this turn), narrowed by the belief as in the belief-guided agent; promotions are
//! to a queen or a rook only, here and in the tree (a bishop or a knight from a promotion
//! mostly throws mating material away). The command played is the root's most visited edge,
//! except when the agent stands to win ([`AVOID_REPEATS_ABOVE`]): then an edge that
//! stalemates in some of the belief's positions gives way to a sufficiently visited one that
//! still stands to win and stalemates in fewer, and an edge whose own board after the move
//! stood before to a well-visited one that repeats less (`root_pick.rs`).
//!
//! Draws: while the agent stands to win (the static estimate over the belief above
//! [`AVOID_REPEATS_ABOVE`] when the search begins), a draw in the tree (stalemate, insufficient
//! material, repetition) scores [`DRAW_WHEN_WINNING`] instead of 0, so the search steers away
//! from throwing the win away; the evaluation gives a side without mating material no credit
//! for its lead ([`crate::eval::can_mate`]).
//!
//! The fifty-move clock: the agent counts it as it can ([`ProgressClock`]: its own pawn moves
//! and the announced captures reset it), a walk in the tree whose plies take that count to
//! 100 is a draw, and while ahead in material with the clock at 40 plies or more the root
//! prefers a capture try, then a pawn move, valued nearly as well as the most visited edge
//! (`fifty.rs`).
//!
//! Budget: [`Budget::Nodes`] counts iterations (deterministic with the seed);
//! [`Budget::Time`] stops at a deadline: the budget less the time the belief's updates took
//! since the last decision (at least a quarter of it), and the belief's repairs are bounded by
//! the budget ([`crate::time_bound`]), so that a decision, updates included, stays within
//! `max(2T, T + 50 ms)`.
//!
//! Allocation: the evaluation and the policy allocate nothing; each iteration resets one kept
//! umpire to its determinization ([`Umpire::reset_to`], allocation-free once its repetition
//! history has room), and only expansions allocate: a new node's edge list, an edge's first
//! child entry and a reply table's arms (the arenas keep their storage between decisions).

mod blunder_check;
mod fallback;
mod fifty;
mod known_material;
mod opponent;
mod policy;
mod root_pick;
mod safeguards;
mod stats;
mod tree;
mod variant;

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, LegalUnion};
use umpire_rules::shakmaty::{Chess, Position, Role};
use umpire_rules::{Announcement, AttemptList, Command, Observation, OwnBoard, Umpire, Verdict};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{PlayerView, ViewError};

pub use opponent::{Opponent, REFERENCE_NODES, REFERENCE_TIME, learning_stride};
pub use policy::{CAPTURE_PROBABILITY, policy_move};
pub use safeguards::{Safeguards, UnknownSafeguard};
pub use stats::{SearchStats, StopReason};
pub use variant::{BONUS_STEEPNESS, BONUS_WEIGHT, QualityBonus, Variant};

use crate::catch_up::{CatchUp, CatchUpState};
use crate::endgame::ProgressClock;
use crate::eval::evaluate;
use crate::{Agent, AgentConfig, Analysis, Budget};
use known_material::KnownMaterial;
use root_pick::{Candidate, RepeatBands, safest};
use tree::{Edge, Tree};

/// How the Monte Carlo agent searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// How leaves are scored.
    pub variant: Variant,
    /// How the hidden opponent's reply is chosen in the tree.
    pub opponent: Opponent,
    /// The bound of the belief's exact set (a uniform sample of this many beyond it).
    pub belief_bound: usize,
    /// The belief's repair work per observation, in work units (`None`: what the budget buys,
    /// [`crate::time_bound::belief_repair`]; a house level may buy more, see [`crate::Tuning`]).
    pub repair_work: Option<u64>,
    /// The UCB1 exploration constant (values are in [-1, 1]).
    pub exploration: f64,
    /// The deepest tree level, in the agent's moves.
    pub max_depth: u32,
    /// Whether a new node reached by a rejected attempt or an answered "Any?" is scored as a
    /// leaf (the default). When false, the iteration walks on through the agent's retries and
    /// stops at the first new node reached by an accepted command and the reply: it sees a
    /// threat that only comes after the retries (a fork: the king must move, then the queen
    /// falls), but costs about three times as much per iteration.
    pub score_rejections: bool,
    /// Playout plies before the cut (the quality-bonus variant only).
    pub playout_plies: u32,
    /// The thinking budget per decision.
    pub budget: Budget,
    /// The guided filters of the root's options.
    pub filters: FilterSet,
    /// Accept a draw offer when the expected value is below this.
    pub draw_threshold: f64,
    /// The issue-28 safeguards applied (all by default; switched off one at a time to measure
    /// their cost).
    pub safeguards: Safeguards,
    /// Whether a dead belief is restarted from several worlds (every kept guess that fits and
    /// their quiet variants, [`crate::restart_worlds`]) rather than from the freshest guess
    /// alone ([`crate::restart::restart`]).
    pub restart_worlds: bool,
}

/// The belief bound of the agent built by name with a node budget (and of
/// [`MctsConfig::default`]): small enough that the belief costs a few milliseconds a move, so
/// that most of the budget goes to the search. A time budget buys its own
/// ([`crate::time_bound::belief_bound`]).
pub const MCTS_BELIEF_BOUND: usize = 256;

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            variant: Variant::TreeAverage,
            opponent: Opponent::Bandit,
            belief_bound: MCTS_BELIEF_BOUND,
            repair_work: None,
            exploration: 0.5,
            max_depth: 4,
            score_rejections: true,
            playout_plies: 4,
            budget: Budget::default(),
            filters: FilterSet::all_sound(),
            draw_threshold: -0.5,
            safeguards: Safeguards::ALL,
            restart_worlds: true,
        }
    }
}

impl MctsConfig {
    /// The default search with the budget and filters of `config`, and the belief bound the
    /// budget buys ([`crate::time_bound::belief_bound`]: [`MCTS_BELIEF_BOUND`] under a node
    /// budget, more under a time budget of 100 ms or more).
    pub fn from_agent_config(config: &AgentConfig) -> MctsConfig {
        MctsConfig {
            budget: config.budget,
            filters: config.filters,
            belief_bound: crate::time_bound::belief_bound(config.budget),
            ..MctsConfig::default()
        }
    }
}

/// The Monte Carlo tree search agent (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct MctsAgent {
    view: PlayerView,
    belief: Option<Belief>,
    config: MctsConfig,
    rng: Xoshiro256PlusPlus,
    tree: Tree,
    bonus: QualityBonus,
    options: AttemptList,
    path: Vec<(u32, usize)>,
    /// The opponent's replies `(table, arm)` taken in the current iteration.
    replies: Vec<(u32, u32)>,
    /// The umpire every iteration resets to its determinization (built at the first one).
    scratch: Option<Umpire>,
    analysis: Option<Analysis>,
    /// How often each own board (hashed) stood after the agent's own moves and after the
    /// enemy took one of its men.
    seen: HashMap<u64, u32>,
    /// Positions drawn from the belief when the agent's last turn began, to restart the
    /// belief from if it dies.
    guesses: Vec<Chess>,
    /// The start the agent was told (the origin of a belief that catches up).
    origin: Option<Chess>,
    /// A fresh belief catching up with the game after the belief died ([`CatchUp`]).
    catch_up: Option<CatchUp>,
    /// How often the belief was restarted from a guess.
    reseeds: u32,
    /// How often a belief that caught up replaced a restarted one.
    caught_up: u32,
    /// The random choices of the guesses and restarts (apart from the search's, so that a game
    /// in which the belief never dies is played as if there were no guesses).
    guess_rng: Xoshiro256PlusPlus,
    /// What a draw in the tree is worth this decision (see the [module documentation](self)).
    draw_value: f64,
    /// Belief positions for the root's stalemate check, kept between decisions.
    worlds: Vec<Chess>,
    /// The root's attempts and, per attempt, its (mate, stalemate) shares of the worlds.
    root_attempts: Vec<umpire_rules::Attempt>,
    shares: Vec<(f32, f32)>,
    /// The root's edges as the final choice sees them.
    candidates: Vec<Candidate>,
    /// While the belief holds no position but is being repaired: a belief restarted from the
    /// guesses, planned from instead (`fallback.rs`); `None` while the belief holds.
    fallback: Option<Belief>,
    /// The other kept guesses' worlds beside the fallback's ([`fallback::guess_worlds`]; at
    /// most [`fallback::GUESS_WORLDS`]), empty while the belief holds.
    guess_worlds: Vec<Chess>,
    /// Time the belief's updates took since the last decision (on the thread's CPU clock where
    /// there is one): a time budget's search gets what is left of it
    /// ([`crate::time_bound::search_deadline`]).
    spent: Duration,
    /// The material taken from the enemy, counted at each capture ([`KnownMaterial`]); `None`
    /// without a start position.
    known: Option<KnownMaterial>,
    /// What the last decision's search did with its nodes.
    stats: SearchStats,
    /// Worlds drawn beside the belief's: a restart's spares' positions and the fallback's other
    /// guesses ([`SPARE_WORLDS`] at most).
    beside: Vec<Chess>,
    /// After a restart from several worlds: the beliefs of the worlds other than the one in
    /// [`MctsAgent::belief`], fed every observation; one that still holds replaces the belief
    /// when it dies, and the search draws from their positions too.
    spares: Vec<Belief>,
    /// How often a spare replaced a belief that died.
    takeovers: u32,
    /// The fifty-move clock as the agent counts it (its own pawn moves and the announced
    /// captures reset it): the walks that reach its limit are draws, and the root prefers a
    /// move that resets it while ahead (`fifty.rs`).
    clock: ProgressClock,
    /// One visit in how many the opponent's reply tables learn from this decision
    /// ([`learning_stride`]; 1 without [`Safeguards::mixed_replies`]).
    stride: u32,
}

/// The value of a draw reached in the tree while the agent stands to win: a won game thrown
/// away is nearly as bad as a loss.
pub const DRAW_WHEN_WINNING: f64 = -0.5;

/// Whether `a` promotes to a bishop or a knight (left out of the agent's choices).
fn underpromotes(a: &umpire_rules::Attempt) -> bool {
    matches!(a.promotion, Some(Role::Bishop | Role::Knight))
}

/// The belief configuration of an agent with `config`, seeded: its repairs bounded by the
/// budget ([`crate::time_bound::belief_repair`], or the tuning's `repair_work`) unless that
/// safeguard is off.
fn belief_config(config: &MctsConfig, seed: u64) -> umpire_belief::BeliefConfig {
    let mut bc = crate::time_bound::belief_config(config.belief_bound, seed, config.budget);
    bc.repair_budget = match config.repair_work {
        Some(work) => work.max(1),
        None => crate::time_bound::belief_repair(config.budget),
    };
    if !config.safeguards.bounded_repairs {
        bc.repair_budget = umpire_belief::REPAIR_BUDGET;
    }
    bc
}

/// The most positions of the spares ([`MctsAgent::spares`]) a search draws from beside the
/// belief's.
pub const SPARE_WORLDS: usize = 512;

/// Positions kept from the belief at each turn to restart it from (see [`MctsAgent::reseeds`]).
pub const RESEED_GUESSES: usize = 8;

/// The hash of an own board.
fn board_key(own: &OwnBoard) -> u64 {
    let mut h = DefaultHasher::new();
    own.hash(&mut h);
    h.finish()
}

/// Above this expected value the agent stands to win: it steers away from stalemates and from
/// own boards it has had before (a winning side must not drift into a draw), and draws in the
/// tree score [`DRAW_WHEN_WINNING`].
pub const AVOID_REPEATS_ABOVE: f64 = 0.3;

/// Above this expected value and up to [`AVOID_REPEATS_ABOVE`] the agent is not clearly
/// behind: it avoids standing an own board a third time if an alternative is valued nearly as
/// well ([`REPEAT_MARGIN`]). Issue 28: a quarter of the games `mcts` led on material against
/// `raider` ended in threefold repetition, and a belief restarted from a guess valued such
/// positions between −0.14 and +0.26 though it was ten points ahead, so a rule for "ahead"
/// values only (the threshold was 0.15, then 0.05) did not see them.
pub const AHEAD_ABOVE: f64 = -0.3;

/// How much less than the most visited edge an alternative that avoids a third standing may be
/// valued while the agent is not winning (a draw given away against a little value).
pub const REPEAT_MARGIN: f64 = 0.15;

/// How often an own board may have stood before the agent, while ahead, avoids it.
pub const AHEAD_REPEATS: u32 = 2;

/// A lead in material (pawns: the mean over the belief's positions of the agent's material
/// less the enemy's; its own men are exact in every position, the enemy's count is known from
/// the announcements) from which the agent counts as ahead whatever its search's value: it
/// then never stands an own board a third time while a searched alternative is valued within
/// [`MATERIAL_REPEAT_MARGIN`] of the most visited edge. Issue 28: with a belief restarted from
/// a guess the search valued a position ten points ahead between −0.14 and +0.26, below the
/// rule keyed to the value, and `mcts` drew by repetition with a rook up. It was 2 pawns
/// until session 8: in game 11 of session 7's `raider` row `mcts` was truly 3 ahead (a queen
/// against two minor pieces and three pawns), counted 1.75 from the men it took, valued the
/// position about 0, and drew by shuffling its queen a2–g8; a pawn's lead is enough. It was 1
/// pawn until session 9: in game 11 of session 8's row `mcts` had two knights against a
/// bishop and two pawns (0.75 ahead, counted 0.875), valued the position −0.32 and drew by
/// shuffling a knight c4–d6 though other moves were valued within a few hundredths.
pub const AHEAD_MATERIAL: f64 = 0.5;

/// How much less than the most visited edge an alternative that avoids a third standing may
/// be valued while the agent is [`AHEAD_MATERIAL`] ahead: a draw thrown away with a lead in
/// material is worth more than the search's estimate says.
pub const MATERIAL_REPEAT_MARGIN: f64 = 0.3;

/// The repetition rule's bands below the winning one ([`RepeatBands`]).
const REPEAT_BANDS: RepeatBands = RepeatBands {
    behind: AHEAD_ABOVE,
    winning: AVOID_REPEATS_ABOVE,
    margin: REPEAT_MARGIN,
    ahead_material: AHEAD_MATERIAL,
    material_margin: MATERIAL_REPEAT_MARGIN,
};

/// The belief's positions over which the material lead is averaged.
const LEAD_SAMPLE: usize = 32;

impl MctsAgent {
    /// An agent with this view, seeded; `start` is the public start position (`None`: no
    /// belief, and the agent plays uniformly over the guided space).
    pub fn new(view: PlayerView, seed: u64, start: Option<Chess>, config: MctsConfig) -> MctsAgent {
        let side = view.side();
        // One thread; repairs within the time budget (crate::time_bound).
        let bc = belief_config(&config, seed);
        let belief = start
            .clone()
            .and_then(|s| Belief::new(*view.rules(), s, view.side(), bc).ok());
        MctsAgent {
            view,
            belief,
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6d63_7473),
            tree: Tree::default(),
            bonus: QualityBonus::default(),
            options: AttemptList::new(),
            path: Vec::with_capacity(64),
            replies: Vec::with_capacity(64),
            scratch: None,
            analysis: None,
            seen: HashMap::new(),
            guesses: Vec::with_capacity(RESEED_GUESSES),
            origin: start.clone(),
            catch_up: None,
            reseeds: 0,
            caught_up: 0,
            guess_rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6775_6573),
            draw_value: 0.0,
            worlds: Vec::new(),
            root_attempts: Vec::new(),
            shares: Vec::new(),
            candidates: Vec::new(),
            fallback: None,
            guess_worlds: Vec::with_capacity(fallback::GUESS_WORLDS),
            spent: Duration::ZERO,
            known: start.as_ref().map(|s| KnownMaterial::new(s, side)),
            stats: SearchStats::default(),
            beside: Vec::with_capacity(SPARE_WORLDS),
            spares: Vec::new(),
            takeovers: 0,
            clock: ProgressClock::default(),
            stride: 1,
        }
    }

    /// The belief's repair budget ([`crate::time_bound::belief_repair`] of the search budget).
    pub fn repair_budget(&self) -> u64 {
        belief_config(&self.config, 0).repair_budget
    }

    /// The lead in material counted from the men the agent took and its own men
    /// (each valued from the belief when it was taken); `None` without a start position.
    pub fn counted_lead(&self) -> Option<f64> {
        let own = crate::eval::material(self.view.own_board().board(), self.view.side());
        self.known.as_ref().map(|k| k.lead(own))
    }

    /// The fifty-move clock as the agent counts it ([`ProgressClock`]).
    pub fn clock(&self) -> ProgressClock {
        self.clock
    }

    /// The belief, while it holds.
    pub fn belief(&self) -> Option<&Belief> {
        self.belief.as_ref()
    }

    /// The belief the search plans from now: the belief while it holds positions, else the
    /// fallback restarted from the last turn's guesses (`fallback.rs`), if any.
    pub fn planning_belief(&self) -> Option<&Belief> {
        fallback::planning(&self.belief, &self.fallback)
    }

    /// How often the belief died (every sampled hypothesis ruled out and its repairs failed)
    /// and was restarted from a guess: the agent's own men where they stand now, the enemy men
    /// where a position drawn from the belief at the agent's last turn had them (the enemy
    /// king put back on the nearest empty square our men neither attack nor touch, if its
    /// guessed square no longer is one). The restarted
    /// belief is exact about that guess only, so it is approximate; it keeps the search going
    /// and costs little, where a dead belief would replay its repairs at every observation.
    pub fn reseeds(&self) -> u32 {
        self.reseeds
    }

    /// The belief died: restarts it from the freshest guess that makes a legal position with
    /// the agent's own men as they stand now ([`crate::restart::restart`]), or goes without.
    fn reseed(&mut self) {
        if let Some(i) = self.spares.iter().position(|b| b.held() > 0) {
            // A world of the last restart still fits: it takes over, no guess needed.
            self.belief = Some(self.spares.remove(i));
            self.takeovers += 1;
            return;
        }
        let config = belief_config(&self.config, self.guess_rng.random());
        if self.config.restart_worlds {
            let mut worlds = crate::restart_worlds::restart_worlds(
                &self.view,
                &self.guesses,
                config,
                &mut self.guess_rng,
            );
            self.belief = (!worlds.is_empty()).then(|| worlds.remove(0));
            self.spares = worlds;
        } else {
            self.belief = crate::restart::restart(&self.view, &self.guesses, config);
        }
        self.reseeds += u32::from(self.belief.is_some());
        if self.config.safeguards.catch_up
            && self.catch_up.is_none()
            && let Some(origin) = &self.origin
        {
            let seed = self.guess_rng.random();
            self.catch_up = CatchUp::new(
                &self.view,
                origin.clone(),
                belief_config(&self.config, seed),
            );
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Sets the thinking budget of the next decisions (the belief keeps the repair work it was
    /// built with): for measuring one position at several budgets.
    pub fn set_budget(&mut self, budget: Budget) {
        self.config.budget = budget;
    }

    /// Reseeds the search's random choices (the belief's are kept): for measuring how much a
    /// decision depends on the search's luck.
    pub fn reseed_search(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6d63_7473);
    }

    /// What the last decision's search did with its nodes.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// The root commands: the guided space, narrowed by the belief (falling back to the whole
    /// guided space, then the own board, if that would leave nothing).
    fn root_commands(&mut self) -> Vec<Command> {
        self.options.clear();
        let mut may_ask =
            GuidedSpace::new(&self.view, self.config.filters).options(&mut self.options);
        if self.options.is_empty() && !may_ask {
            may_ask = self.view.options(&mut self.options);
        }
        if self.options.iter().any(|a| !underpromotes(a)) {
            self.options.retain(|a| !underpromotes(a));
        }
        if let Some(belief) = fallback::planning(&self.belief, &self.fallback) {
            let union = LegalUnion::covering(belief, &self.options);
            let before = self.options.clone();
            self.options.retain(|a| union.may_be_legal(*a));
            if self.options.is_empty() {
                self.options = before;
            }
        }
        let mut out: Vec<Command> = self.options.iter().map(|a| Command::Attempt(*a)).collect();
        if may_ask {
            out.push(Command::AskAny);
        }
        out
    }

    /// The expected value for the agent over up to 32 sampled determinizations, by the static
    /// evaluation (0 without a belief).
    fn static_estimate(&mut self) -> f64 {
        let Some(belief) = fallback::planning(&self.belief, &self.fallback) else {
            return 0.0;
        };
        let sample = belief.sample(32, &mut self.rng);
        if sample.is_empty() {
            return 0.0;
        }
        let side = self.view.side();
        sample.iter().map(|p| evaluate(p, side)).sum::<f64>() / sample.len() as f64
    }

    /// The value of a finished game for the agent.
    fn terminal_value(&self, umpire: &Umpire) -> f64 {
        match umpire.result().and_then(|r| r.winner) {
            Some(w) if w == self.view.side() => 1.0,
            Some(_) => -1.0,
            None => self.draw_value,
        }
    }

    /// Scores a new leaf reached `depth` plies below the root.
    fn leaf_value(&mut self, umpire: &Umpire, depth: u32) -> f64 {
        let side = self.view.side();
        if umpire.is_over() {
            let v = self.terminal_value(umpire);
            return match self.config.variant {
                Variant::TreeAverage => v,
                Variant::QualityBonus => self.bonus.reward(v, depth),
            };
        }
        match self.config.variant {
            Variant::TreeAverage => evaluate(umpire.position(), side),
            Variant::QualityBonus => {
                let mut pos = umpire.position().clone();
                let mut plies = 0;
                while plies < self.config.playout_plies {
                    let Some(m) = policy_move(&pos, &mut self.rng) else {
                        // No legal move: mate or stalemate.
                        let v = if pos.is_check() {
                            if pos.turn() == side { -1.0 } else { 1.0 }
                        } else {
                            self.draw_value
                        };
                        return self.bonus.reward(v, depth + plies);
                    };
                    pos.play_unchecked(m);
                    plies += 1;
                    if pos.is_insufficient_material() {
                        return self.draw_value;
                    }
                }
                evaluate(&pos, side)
            }
        }
    }

    /// One iteration from determinization `det`; returns whether it ran.
    fn iterate(&mut self, det: Chess, root: &[Command]) -> bool {
        let side = self.view.side();
        if det.turn() != side {
            return false;
        }
        let rules = *self.view.rules();
        let mut umpire = match self.scratch.take() {
            Some(mut u) => match u.reset_to(rules, &det) {
                Ok(()) => u,
                Err(_) => {
                    self.scratch = Some(u);
                    return false;
                }
            },
            None => match Umpire::from_position(rules, det) {
                Ok(u) => u,
                Err(_) => return false,
            },
        };
        let ran = self.iterate_in(&mut umpire, root);
        self.scratch = Some(umpire);
        ran
    }

    /// One iteration in `umpire`, set to a determinization whose side to move is the agent's.
    fn iterate_in(&mut self, umpire: &mut Umpire, root: &[Command]) -> bool {
        let side = self.view.side();
        self.path.clear();
        self.replies.clear();
        let mut node = 0u32;
        let mut depth = 0u32;
        let mut moves = 0u32;
        let mut last = None;
        let mut expanded = false;
        // The fifty-move clock along the walk, counted as the agent would count it (its own
        // pawn moves and the captures it hears reset it): a walk that reaches the limit is a
        // draw (the enemy's pawn moves, unheard, could only reset it sooner).
        let counts_fifty = self.view.rules().fifty_moves && self.config.safeguards.fifty;
        let mut clock = self.clock.plies();
        let value = loop {
            if umpire.is_over() {
                break self.terminal_value(umpire);
            }
            if counts_fifty && clock >= fifty::FIFTY_LIMIT {
                self.stats.fifty_draws += 1;
                break self.draw_value;
            }
            if moves >= self.config.max_depth {
                self.stats.at_depth_limit += 1;
                break self.leaf_value(umpire, depth);
            }
            if !self.tree.nodes[node as usize].expanded {
                let n = &mut self.tree.nodes[node as usize];
                n.expanded = true;
                if node == 0 {
                    n.edges = root.iter().map(|c| new_edge(*c)).collect();
                } else {
                    self.options.clear();
                    let may_ask = umpire.mover_options(&mut self.options);
                    if self.options.iter().any(|a| !underpromotes(a)) {
                        self.options.retain(|a| !underpromotes(a));
                    }
                    n.edges = self
                        .options
                        .iter()
                        .map(|a| new_edge(Command::Attempt(*a)))
                        .collect();
                    if may_ask {
                        n.edges.push(new_edge(Command::AskAny));
                    }
                }
            }
            let Some(edge) = self.tree.select(node, self.config.exploration) else {
                break self.leaf_value(umpire, depth);
            };
            let command = self.tree.nodes[node as usize].edges[edge].command;
            let pawn_move = matches!(command, Command::Attempt(a)
                if umpire.position().board().role_at(a.from) == Some(Role::Pawn));
            let outcome = umpire.submit(command);
            if outcome.verdict == Verdict::Impossible {
                // Ruled out by what the agent heard on the way here (its own board, the
                // announced checks and pawn tries), so in every determinization that reaches
                // this node: the edge goes, and the agent chooses again. Left in, it would be
                // the first unvisited edge at every visit and end every iteration here.
                self.tree.nodes[node as usize].edges.remove(edge);
                continue;
            }
            let mut key = DefaultHasher::new();
            heard(&mut key, outcome.verdict, outcome.heard_by(side));
            let accepted = outcome.verdict == Verdict::Accepted;
            match outcome.verdict {
                Verdict::Accepted => {
                    depth += 1;
                    moves += 1;
                    clock = if pawn_move || takes(outcome.heard_by(side)) {
                        0
                    } else {
                        clock.saturating_add(1)
                    };
                    // The hidden reply: the agent keeps only what it hears.
                    let reply = if umpire.is_over() {
                        None
                    } else {
                        match self.config.opponent {
                            Opponent::Policy => policy_move(umpire.position(), &mut self.rng),
                            Opponent::Bandit => {
                                let table = self.tree.reply_table(node, edge, key.clone().finish());
                                let chosen = opponent::bandit_reply(
                                    &mut self.tree.replies[table as usize],
                                    umpire.position(),
                                    &mut self.rng,
                                    self.config.exploration,
                                    self.stride,
                                );
                                chosen.map(|(m, arm, learns)| {
                                    if learns {
                                        self.replies.push((table, arm));
                                    }
                                    m
                                })
                            }
                        }
                    };
                    if let Some(m) = reply
                        && let Some(a) = umpire_rules::Attempt::from_move(&m)
                    {
                        let reply = umpire.submit(Command::Attempt(a));
                        heard(&mut key, reply.verdict, reply.heard_by(side));
                        depth += 1;
                        clock = if takes(reply.heard_by(side)) {
                            0
                        } else {
                            clock.saturating_add(1)
                        };
                    }
                }
                Verdict::Illegal | Verdict::Answered => {}
                // Not expected (the options are the mover's own); score and stop.
                _ => break self.leaf_value(umpire, depth),
            }
            self.path.push((node, edge));
            let (child, created) = self.tree.child(node, edge, key.finish());
            node = child;
            last = Some(child);
            // A rejected attempt (or an answered question) is no move: unless configured to
            // score it, the walk goes on to the agent's next command.
            if created && (accepted || self.config.score_rejections) {
                expanded = true;
                if counts_fifty && clock >= fifty::FIFTY_LIMIT && !umpire.is_over() {
                    self.stats.fifty_draws += 1;
                    break self.draw_value;
                }
                break self.leaf_value(umpire, depth);
            }
        };
        self.stats.deepest = self.stats.deepest.max(moves);
        if !expanded && moves < self.config.max_depth {
            self.stats.no_expansion += 1;
        }
        let path = std::mem::take(&mut self.path);
        self.tree.backup(&path, last, value);
        self.tree.backup_replies(&self.replies, value);
        self.path = path;
        self.tree.nodes[0].visits += u32::from(self.path.is_empty());
        true
    }

    /// Searches from the current view; returns the chosen command.
    fn search(&mut self) -> Command {
        self.advance_catch_up();
        self.refresh_fallback();
        let mut spent = std::mem::take(&mut self.spent);
        if !self.config.safeguards.charge_updates {
            spent = Duration::ZERO;
        }
        self.stats = SearchStats {
            max_depth: self.config.max_depth,
            ..SearchStats::default()
        };
        let root = self.root_commands();
        if root.is_empty() {
            self.analysis = None;
            return Command::Resign;
        }
        let held = fallback::planning(&self.belief, &self.fallback).map_or(0, |b| b.held());
        if root.len() == 1 || held == 0 {
            self.analysis = None;
            let value = self.static_estimate();
            let pick = if root.len() == 1 {
                0
            } else {
                self.rng.random_range(0..root.len())
            };
            self.analysis = Some(Analysis {
                value,
                line: vec![root[pick]],
                nodes: 0,
            });
            return root[pick];
        }
        self.tree.reset();
        self.bonus.reset();
        self.beside.clear();
        self.spare_worlds();
        let side = self.view.side();
        let room = SPARE_WORLDS.saturating_sub(self.beside.len());
        self.beside.extend(
            self.guess_worlds
                .iter()
                .filter(|p| p.turn() == side)
                .take(room)
                .cloned(),
        );
        let start = Instant::now();
        self.draw_value = if self.static_estimate() > AVOID_REPEATS_ABOVE {
            DRAW_WHEN_WINNING
        } else {
            0.0
        };
        let (max_iterations, deadline) = match self.config.budget {
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(d) => (
                u64::MAX,
                Some(crate::time_bound::search_deadline(start, d, spent)),
            ),
        };
        self.stride = if self.config.safeguards.mixed_replies {
            opponent::learning_stride(self.config.budget)
        } else {
            1
        };
        let mut iterations = 0u64;
        let mut tries = 0u64;
        let mut stop = StopReason::Budget;
        while iterations < max_iterations {
            if let Some(deadline) = deadline
                && iterations > 0
                && Instant::now() >= deadline
            {
                stop = StopReason::Deadline;
                break;
            }
            tries += 1;
            if tries > max_iterations.saturating_mul(4).max(64) && iterations == 0 {
                stop = StopReason::Unsearchable;
                break;
            }
            let Some(det) = self.draw() else {
                stop = StopReason::NoPosition;
                break;
            };
            if self.iterate(det, &root) {
                iterations += 1;
            } else if tries > 4 * iterations + 64 {
                stop = StopReason::Unsearchable;
                break;
            }
        }
        self.stats.budget = max_iterations;
        self.stats.iterations = iterations;
        self.stats.tries = tries;
        self.stats.stop = stop;
        self.stats.held = held;
        self.stats.beside = self.beside.len();
        self.stats.tree_nodes = self.tree.nodes.len();
        self.stats.reply_tables = self.tree.replies.len();
        self.stats.root_edges = self.tree.nodes[0].edges.len();
        self.stats.root_visits = self.tree.nodes[0].edges.iter().map(|e| e.visits).collect();
        self.stats
            .root_visits
            .sort_unstable_by_key(|&v| std::cmp::Reverse(v));
        let Some(mut best) = self.tree.best(0) else {
            return root[0];
        };
        best = self.final_pick(best);
        let edge: &Edge = &self.tree.nodes[0].edges[best];
        let chosen = edge.command;
        let value = if edge.visits > 0 {
            edge.mean()
        } else {
            self.static_estimate()
        };
        let mut line = vec![chosen];
        let mut node = 0u32;
        let mut e = best;
        while line.len() < 8 {
            let Some(child) = self.tree.likeliest_child(node, e) else {
                break;
            };
            let Some(next) = self.tree.best(child) else {
                break;
            };
            if self.tree.nodes[child as usize].edges[next].visits == 0 {
                break;
            }
            line.push(self.tree.nodes[child as usize].edges[next].command);
            node = child;
            e = next;
        }
        self.analysis = Some(Analysis {
            value: value.clamp(-1.0, 1.0),
            line,
            nodes: iterations,
        });
        chosen
    }

    /// When winning, the safest sufficiently visited root edge ([`safest`]): the stalemate
    /// shares are taken over every position the belief holds, the repeats from the own boards
    /// seen.
    fn final_pick(&mut self, best: usize) -> usize {
        let mut best = if self.config.safeguards.material_veto {
            self.unblundered(best)
        } else {
            best
        };
        let mean = self.tree.nodes[0].edges[best].mean();
        if self.config.safeguards.ahead_repetition {
            // Ahead on material (whatever the value), or between the bands: no third standing
            // while an alternative is valued nearly as well.
            let lead = self.material_lead();
            if let Some(least) = REPEAT_BANDS.least(mean, lead) {
                best = self.unrepeated(best, least);
            }
        }
        if self.tree.nodes[0].edges[best].mean() > AVOID_REPEATS_ABOVE {
            best = self.winning_pick(best);
        }
        if self.config.safeguards.fifty {
            best = self.fifty_pick(best);
        }
        if self.config.safeguards.ahead_repetition {
            self.no_third_standing(best)
        } else {
            best
        }
    }

    /// The root's attempts, in edge order, into `root_attempts` (asks left out).
    fn fill_root_attempts(&mut self) {
        self.root_attempts.clear();
        self.root_attempts
            .extend(
                self.tree.nodes[0]
                    .edges
                    .iter()
                    .filter_map(|e| match e.command {
                        Command::Attempt(a) => Some(a),
                        _ => None,
                    }),
            );
    }

    /// While winning: [`safest`] of the root's edges (stalemates, then repeats).
    fn winning_pick(&mut self, best: usize) -> usize {
        self.fill_root_attempts();
        self.held_worlds();
        crate::darkboard::mate::mate_shares(&self.worlds, &self.root_attempts, &mut self.shares);
        let edges = &self.tree.nodes[0].edges;
        let stalemates = |c: Command| match c {
            Command::Attempt(a) => self
                .root_attempts
                .iter()
                .position(|&r| r == a)
                .map_or(0.0, |i| self.shares[i].1),
            _ => 0.0,
        };
        let repeats = |c: Command| match c {
            Command::Attempt(a) => {
                let mut own = self.view.own_board().clone();
                own.play(a);
                self.seen.get(&board_key(&own)).copied().unwrap_or(0)
            }
            _ => 0,
        };
        self.candidates.clear();
        self.candidates.extend(edges.iter().map(|e| Candidate {
            visits: e.visits,
            mean: e.mean(),
            stalemates: stalemates(e.command),
            repeats: repeats(e.command),
        }));
        safest(best, &self.candidates, AVOID_REPEATS_ABOVE)
    }

    /// While [`fifty::FIFTY_AHEAD`] ahead in material and the fifty-move clock has run
    /// [`fifty::FIFTY_FROM`] plies or more: a capture try or a pawn move valued nearly as well
    /// as `best` ([`fifty::resetting`]), if it stalemates in no more of the belief's positions
    /// than `best` and loses less than [`crate::safety::BLUNDER_PAWNS`] (and less than the
    /// lead) beyond what hangs already.
    fn fifty_pick(&mut self, best: usize) -> usize {
        let plies = self.clock.plies();
        if !self.view.rules().fifty_moves || plies < fifty::FIFTY_FROM {
            return best;
        }
        let lead = self.material_lead();
        if lead < fifty::FIFTY_AHEAD {
            return best;
        }
        self.worlds.clear();
        if let Some(belief) = fallback::planning(&self.belief, &self.fallback) {
            crate::darkboard::mate::belief_worlds(belief, &mut self.rng, &mut self.worlds);
        }
        if self.worlds.is_empty() {
            return best;
        }
        self.fill_root_attempts();
        // Per root attempt, the worlds in which it captures.
        let mut captures = vec![0u32; self.root_attempts.len()];
        for pos in &self.worlds {
            for m in pos.legal_moves().iter().filter(|m| m.is_capture()) {
                if let Some(i) = self
                    .root_attempts
                    .iter()
                    .position(|&a| crate::darkboard::mate::answers_to(m, a))
                {
                    captures[i] += 1;
                }
            }
        }
        crate::darkboard::mate::mate_shares(&self.worlds, &self.root_attempts, &mut self.shares);
        let worlds = self.worlds.len() as f32;
        let board = self.view.own_board().board();
        let index = |c: Command| match c {
            Command::Attempt(a) => self.root_attempts.iter().position(|&r| r == a),
            _ => None,
        };
        let resets: Vec<fifty::Reset> = self.tree.nodes[0]
            .edges
            .iter()
            .map(|e| fifty::Reset {
                visits: e.visits,
                mean: e.mean(),
                captures: index(e.command).map_or(0.0, |i| captures[i] as f32 / worlds),
                pawn: matches!(e.command, Command::Attempt(a)
                    if board.role_at(a.from) == Some(Role::Pawn)),
            })
            .collect();
        let stalemates = |c: Command| index(c).map_or(0.0, |i| self.shares[i].1);
        let best_stalemates = stalemates(self.tree.nodes[0].edges[best].command);
        let safety_worlds = &self.worlds[..self.worlds.len().min(crate::safety::SAFETY_WORLDS)];
        let floor = crate::safety::standing_delta(safety_worlds).map_or(0.0, |d| d.min(0.0))
            - crate::safety::BLUNDER_PAWNS.min(lead);
        let safe: Vec<bool> = self.tree.nodes[0]
            .edges
            .iter()
            .zip(&resets)
            .map(|(e, r)| match e.command {
                Command::Attempt(a) if r.captures >= fifty::TRY_SHARE || r.pawn => {
                    stalemates(e.command) <= best_stalemates
                        && crate::safety::exchange_delta(safety_worlds, a).is_none_or(|d| d > floor)
                }
                _ => false,
            })
            .collect();
        fifty::resetting(best, &resets, &safe, plies)
    }

    /// While ahead on material ([`AHEAD_MATERIAL`]), whatever the value: `best` unless its own
    /// board has stood [`AHEAD_REPEATS`] times already; then the most visited searched edge
    /// that stands none a third time and loses less than [`crate::safety::BLUNDER_PAWNS`] (and
    /// less than the lead) in the belief's positions beyond what hangs already
    /// ([`crate::safety::standing_delta`]: game 23 of session 8's `mcts@4000` row, 6.75 ahead,
    /// drew by a third standing because its single-guess belief had a rook attacking its own
    /// and every alternative "lost" it), however few its visits and whatever its value. Issue
    /// 28: a search that sees a forced mate in every position of a wrong belief (in one game a belief
    /// of one position, restarted from a guess) piles all its visits on the "mating" move
    /// (valued +1) and values the others below 0, so no alternative had the share or the value
    /// [`safest`] or [`MctsAgent::unrepeated`] asks for, and `mcts` drew by repetition 22.5 and
    /// 12.25 points ahead (`tests/repetition.rs`): a draw that far ahead is worse than any move
    /// that keeps the material.
    fn no_third_standing(&mut self, best: usize) -> usize {
        let repeats = |agent: &MctsAgent, c: Command| match c {
            Command::Attempt(a) => {
                let mut own = agent.view.own_board().clone();
                own.play(a);
                agent.seen.get(&board_key(&own)).copied().unwrap_or(0)
            }
            _ => 0,
        };
        if repeats(self, self.tree.nodes[0].edges[best].command) < AHEAD_REPEATS {
            return best;
        }
        let lead = self.material_lead();
        if lead < AHEAD_MATERIAL {
            return best;
        }
        let mut order: Vec<usize> = (0..self.tree.nodes[0].edges.len())
            .filter(|&i| {
                let e = &self.tree.nodes[0].edges[i];
                i != best && e.visits > 0 && repeats(self, e.command) < AHEAD_REPEATS
            })
            .collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.tree.nodes[0].edges[i].visits));
        self.safety_worlds();
        // An alternative may lose no more than the lead (a small lead is not thrown away).
        let floor = crate::safety::standing_delta(&self.worlds).map_or(0.0, |d| d.min(0.0))
            - crate::safety::BLUNDER_PAWNS.min(lead);
        for i in order {
            let safe = match self.tree.nodes[0].edges[i].command {
                Command::Attempt(a) => {
                    crate::safety::exchange_delta(&self.worlds, a).is_none_or(|d| d > floor)
                }
                _ => true,
            };
            if safe {
                return i;
            }
        }
        best
    }

    /// The most visited root edge `best`, unless it loses material in the belief's positions
    /// (the man moved, or men left to a raider that has just taken one) while a searched
    /// alternative does not ([`blunder_check::unblundered`]).
    fn unblundered(&mut self, best: usize) -> usize {
        let Command::Attempt(chosen) = self.tree.nodes[0].edges[best].command else {
            return best;
        };
        self.safety_worlds();
        let worst = crate::safety::exchange_delta(&self.worlds, chosen);
        if worst.is_none_or(|d| d > -crate::safety::BLUNDER_PAWNS) {
            return best;
        }
        // Right after the enemy took one of our men (a raid), its next victim is the risk:
        // little-searched recaptures and escapes count.
        let share = if self.view.turn().capture_at.is_some() {
            blunder_check::RAID_SHARE
        } else {
            blunder_check::ALTERNATIVE_SHARE
        };
        let floor = (self.tree.nodes[0].edges[best].visits / share).max(1);
        let risks: Vec<blunder_check::Risk> = self.tree.nodes[0]
            .edges
            .iter()
            .enumerate()
            .map(|(i, e)| blunder_check::Risk {
                visits: e.visits,
                mean: e.mean(),
                delta: match e.command {
                    Command::Attempt(_) if i == best => worst,
                    Command::Attempt(a) if e.visits >= floor => {
                        crate::safety::exchange_delta(&self.worlds, a)
                    }
                    _ => None,
                },
            })
            .collect();
        blunder_check::unblundered(best, &risks, share)
    }

    /// While ahead on material, or not clearly behind and not yet winning: `best` unless its
    /// own board after the move has stood [`AHEAD_REPEATS`] times already (a third time may be
    /// a threefold repetition, the enemy's part of it being uncertain), then the edge whose
    /// board stood least often among those visited at least a hundredth as often and valued
    /// above `least` (then the most visits).
    fn unrepeated(&self, best: usize, least: f64) -> usize {
        let edges = &self.tree.nodes[0].edges;
        let repeats = |c: Command| match c {
            Command::Attempt(a) => {
                let mut own = self.view.own_board().clone();
                own.play(a);
                self.seen.get(&board_key(&own)).copied().unwrap_or(0)
            }
            _ => 0,
        };
        if repeats(edges[best].command) < AHEAD_REPEATS {
            return best;
        }
        let floor = (edges[best].visits / root_pick::REPEAT_FLOOR_SHARE).max(1);
        edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.visits >= floor && e.mean() > least)
            .min_by_key(|(_, e)| (repeats(e.command), u32::MAX - e.visits))
            .map_or(best, |(i, _)| i)
    }

    /// The agent's lead in material, in pawns, as the repetition rules count it: the largest of the mean over up to
    /// [`LEAD_SAMPLE`] of the belief's positions, the lead it is sure of from its own men
    /// and the enemy's count ([`crate::sure_lead::sure_lead`]: every enemy man other than the
    /// king and the pawns counted a queen, or a knight where a knight's check proves one),
    /// and the lead counted from the men it took (each valued from the belief when it was taken).
    /// Issue 28: a belief restarted from a single wrong guess put `mcts` 7.25 behind when it
    /// was 19.75 ahead, and the game ended in threefold repetition; in two games 3.75 and 3
    /// ahead the belief's mean and the sure lead were both under [`AHEAD_MATERIAL`].
    pub fn material_lead(&mut self) -> f64 {
        let side = self.view.side();
        let own = crate::eval::material(self.view.own_board().board(), side);
        let sure = crate::sure_lead::sure_lead(&self.view).max(
            self.known
                .as_ref()
                .map_or(f64::NEG_INFINITY, |k| k.lead(own)),
        );
        let Some(belief) = fallback::planning(&self.belief, &self.fallback) else {
            return sure;
        };
        let sample = belief.sample(LEAD_SAMPLE, &mut self.rng);
        if sample.is_empty() {
            return sure;
        }
        let lead = |p: &Chess| {
            crate::eval::material(p.board(), side) - crate::eval::material(p.board(), !side)
        };
        let mean = sample.iter().map(lead).sum::<f64>() / sample.len() as f64;
        mean.max(sure)
    }

    /// Moves the belief that catches up on by at most the repair budget's work (charged to this
    /// decision like the belief's updates), and puts it in the restarted one's place once it
    /// has taken in every observation; drops it if it died.
    fn advance_catch_up(&mut self) {
        let Some(catch_up) = self.catch_up.as_mut() else {
            return;
        };
        let started = Instant::now();
        let started_cpu = crate::cpu_clock::thread_cpu_us();
        let budget = belief_config(&self.config, 0).repair_budget;
        let state = catch_up.advance(self.view.transcript(), budget);
        let took = match started_cpu.zip(crate::cpu_clock::thread_cpu_us()) {
            Some((a, b)) => Duration::from_micros(b.saturating_sub(a)),
            None => started.elapsed(),
        };
        self.spent = self.spent.saturating_add(took);
        match state {
            CatchUpState::Behind => {}
            CatchUpState::Died => self.catch_up = None,
            CatchUpState::CaughtUp => {
                self.belief = self.catch_up.take().map(CatchUp::into_belief);
                self.spares.clear();
                self.caught_up += 1;
            }
        }
    }

    /// While the belief holds no position (a repair under way), a fallback to plan from,
    /// restarted from the guesses kept at the last turn the belief held ([`fallback`]); none
    /// once it holds again.
    fn refresh_fallback(&mut self) {
        self.guess_worlds.clear();
        if self.belief.as_ref().is_some_and(|b| b.held() > 0) {
            self.fallback = None;
            return;
        }
        let config = belief_config(&self.config, self.guess_rng.random());
        self.fallback = crate::restart::restart(&self.view, &self.guesses, config);
        if self.config.safeguards.guess_worlds {
            let first = self.fallback.as_ref().and_then(|b| b.position(0));
            fallback::guess_worlds(&self.view, &self.guesses, first, &mut self.guess_worlds);
        }
    }

    /// The worlds the root's safety checks weigh: up to [`crate::safety::SAFETY_WORLDS`] of
    /// the planning belief's positions; with [`Safeguards::guess_worlds`], a belief of fewer
    /// is topped up with the worlds drawn beside it (the fallback's other guesses, a restart's
    /// spares), so a move safe in the one guessed world only is not taken for safe.
    fn safety_worlds(&mut self) {
        self.worlds.clear();
        if let Some(belief) = fallback::planning(&self.belief, &self.fallback) {
            crate::darkboard::mate::belief_worlds(belief, &mut self.rng, &mut self.worlds);
        }
        self.worlds.truncate(crate::safety::SAFETY_WORLDS);
        if self.config.safeguards.guess_worlds {
            let room = crate::safety::SAFETY_WORLDS.saturating_sub(self.worlds.len());
            self.worlds.extend(self.beside.iter().take(room).cloned());
        }
    }

    /// How often a belief that caught up replaced a restarted one.
    pub fn caught_up(&self) -> u32 {
        self.caught_up
    }

    /// How often a belief that died was replaced by a world of the last restart that still
    /// fitted ([`MctsConfig::restart_worlds`]) instead of being restarted.
    pub fn takeovers(&self) -> u32 {
        self.takeovers
    }

    /// The worlds of the last restart still held beside the belief (0 without one).
    pub fn spares(&self) -> usize {
        self.spares.len()
    }

    /// Every position the belief holds with the agent to move, into `worlds`.
    fn held_worlds(&mut self) {
        self.worlds.clear();
        if let Some(belief) = fallback::planning(&self.belief, &self.fallback) {
            let side = self.view.side();
            self.worlds.extend(
                (0..belief.held())
                    .filter_map(|i| belief.position(i))
                    .filter(|p| p.turn() == side)
                    .cloned(),
            );
        }
    }

    /// The observation's part outside the view: the own boards seen, the belief (restarted
    /// from a guess if it dies) and the guesses kept at the start of a turn.
    fn observe_belief(&mut self, observation: &Observation) {
        // A fallback is built for one decision's position (own men as they stood).
        self.fallback = None;
        // The own board stands after each own move, and after an enemy move that took one of
        // the agent's men (a board no own move left; game 39 of session 7's `raider` row was
        // drawn by its third standing, the first after the capture).
        let taken = observation.actor != self.view.side()
            && observation.moved
            && self.view.turn().capture_at.is_some();
        if taken
            || observation
                .own
                .is_some_and(|o| o.verdict == Verdict::Accepted)
        {
            *self
                .seen
                .entry(board_key(self.view.own_board()))
                .or_insert(0) += 1;
        }
        let turn_begins = observation.actor != self.view.side() && observation.moved;
        // The spares take in every observation; those that no longer fit are dropped.
        self.spares
            .retain_mut(|b| b.observe(observation).is_ok() && b.held() > 0);
        let mut dead = false;
        if let Some(belief) = &mut self.belief {
            // An empty belief that is being repaired is fed on (`fallback.rs`).
            dead = belief.observe(observation).is_err() || fallback::beyond_repair(belief);
        } else if turn_begins && !self.guesses.is_empty() {
            // No guess fitted before; the own men have moved since.
            dead = true;
        }
        if dead {
            self.reseed();
        } else if let Some(belief) = self.belief.as_ref().filter(|b| b.held() > 0)
            && turn_begins
        {
            // The agent's turn begins: keep a few positions to restart from (an empty belief
            // keeps the last ones).
            self.guesses.clear();
            if self.spares.is_empty() {
                for _ in 0..RESEED_GUESSES.min(belief.held()) {
                    let i = self.guess_rng.random_range(0..belief.held());
                    if let Some(p) = belief.position(i) {
                        self.guesses.push(p.clone());
                    }
                }
            } else {
                // After a restart from several worlds the guesses come from all of them.
                let sources: Vec<&Belief> = std::iter::once(belief).chain(&self.spares).collect();
                for _ in 0..RESEED_GUESSES {
                    let b = sources[self.guess_rng.random_range(0..sources.len())];
                    let i = self.guess_rng.random_range(0..b.held());
                    if let Some(p) = b.position(i) {
                        self.guesses.push(p.clone());
                    }
                }
            }
        }
    }

    /// A determinization drawn uniformly from the belief's positions and the worlds beside them.
    fn draw(&mut self) -> Option<Chess> {
        let belief = fallback::planning(&self.belief, &self.fallback)?;
        let held = belief.held();
        if held == 0 {
            return None;
        }
        let i = self.rng.random_range(0..held + self.beside.len());
        match i.checked_sub(held) {
            Some(j) => self.beside.get(j).cloned(),
            None => belief.position(i).cloned(),
        }
    }

    /// Adds the spares' positions (the agent to move) to the worlds drawn beside the
    /// belief's, at most [`SPARE_WORLDS`] of them.
    fn spare_worlds(&mut self) {
        let side = self.view.side();
        for b in &self.spares {
            for p in b.positions().filter(|p| p.turn() == side) {
                if self.beside.len() >= SPARE_WORLDS {
                    return;
                }
                self.beside.push(p.clone());
            }
        }
    }
}

fn new_edge(command: Command) -> Edge {
    Edge {
        command,
        visits: 0,
        total: 0.0,
        children: Vec::new(),
        replies: Vec::new(),
    }
}

/// Whether what the agent hears announces a capture (which resets the fifty-move clock).
fn takes(mut announcements: impl Iterator<Item = Announcement>) -> bool {
    announcements.any(|a| matches!(a, Announcement::Capture { .. }))
}

/// Feeds what the agent hears of one command into `key`.
fn heard(
    key: &mut DefaultHasher,
    verdict: Verdict,
    announcements: impl Iterator<Item = Announcement>,
) {
    verdict.is_rejection().hash(key);
    (verdict == Verdict::Accepted).hash(key);
    for a in announcements {
        a.hash(key);
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> &str {
        "mcts"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        // The updates' cost on the thread's CPU clock where there is one: on a loaded machine
        // the wall clock would also count the waits for a core and starve the search.
        let started = Instant::now();
        let started_cpu = crate::cpu_clock::thread_cpu_us();
        // The clock reads the own board as it stood before the move.
        let mut clock = self.clock;
        clock.observe(&self.view, observation);
        self.view.observe(observation)?;
        self.clock = clock;
        // What stood on an own capture's square, from the belief before the move.
        let enemy = !self.view.side();
        let likely = observation
            .announcements
            .iter()
            .find_map(|a| match a {
                Announcement::Capture { square, .. } if observation.actor != enemy => Some(*square),
                _ => None,
            })
            .and_then(|square| {
                let belief = fallback::planning(&self.belief, &self.fallback)?;
                known_material::likely_piece(
                    square,
                    enemy,
                    (0..known_material::TAKEN_SAMPLE).map_while(|i| belief.position(i)),
                )
            });
        if let Some(known) = &mut self.known {
            known.observe(!enemy, observation, likely);
        }
        self.observe_belief(observation);
        let took = match started_cpu.zip(crate::cpu_clock::thread_cpu_us()) {
            Some((a, b)) => Duration::from_micros(b.saturating_sub(a)),
            None => started.elapsed(),
        };
        self.spent = self.spent.saturating_add(took);
        Ok(())
    }

    fn choose(&mut self) -> Command {
        self.search()
    }

    fn accepts_draw(&mut self) -> bool {
        let value = match &self.analysis {
            Some(a) if a.nodes > 0 => a.value.min(self.static_estimate()),
            _ => self.static_estimate(),
        };
        value < self.config.draw_threshold
    }

    fn stalemate_shares(&mut self, attempts: &[umpire_rules::Attempt], out: &mut Vec<f32>) -> bool {
        self.held_worlds();
        if self.worlds.is_empty() {
            return false;
        }
        crate::darkboard::mate::mate_shares(&self.worlds, attempts, &mut self.shares);
        out.clear();
        out.extend(self.shares.iter().map(|&(_, stalemate)| stalemate));
        true
    }

    fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }
}
