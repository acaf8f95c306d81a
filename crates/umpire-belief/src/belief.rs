//! [`Belief`]: the positions a player cannot rule out, kept exactly while few enough, sampled
//! beyond a bound.

use std::collections::VecDeque;

use rand::seq::{SliceRandom, index};
use rand::{Rng, RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{Chess, Color, Position};
use umpire_rules::{Announcement, Attempt, Command, Observation, RuleSet, Umpire};

use crate::BeliefError;
use crate::compare::{Expected, repetition_end};
use crate::key_table::KeyTable;
use crate::parallel::{map_chunks, map_ranges, ordered_blocks};
use crate::simulate::{
    OpponentScratch, Step, expand_opponent, informative_event, own_step, simulation_rules,
};
use crate::witness::{AFTER_ZEROING, BEFORE_ZEROING, Node, ROOT, Witnesses};
use crate::zobrist_key::{Key, board_hash, key_of_board, scramble, zobrist};
use knight_checks::KnightChecks;

mod every_parent;
mod grandparents;
mod history_moves;
mod knight_checks;
mod lookahead;
mod parent_count;
mod rejuvenate;
mod repair;
mod stratified;

pub use history_moves::HISTORY_MOVE_WORK;
pub use rejuvenate::{REJUVENATE_AGE, REJUVENATE_HORIZON, REJUVENATE_WORK};
pub use repair::REFRESH_WORK;

use lookahead::NextTurn;

/// The default bound on the exact set: beyond it the belief keeps a uniform sample of this
/// many hypotheses.
///
/// 150,000, not the 10⁶ issue 12 aims at: the largest round bound under which every exact
/// update measured took less than 1 s (`docs/BENCHMARKS.md`, "Exact sets near the bound").
/// Wild16 turns cost about 1 µs of one core per child, and exact updates of up to 742,347
/// hypotheses took 0.65–0.71 s; but Berkeley turns cost 4–9 µs per child or parent (heard
/// rejections, few matching moves): one from 166,319 parents took 1.4–1.5 s, one reaching
/// 968,586 children 3.8 s, so any bound of 2·10⁵ or more admits a measured update over 1 s.
/// Callers that can wait set a larger [`BeliefConfig::bound`] (`umpire belief --bound`).
pub const DEFAULT_BOUND: usize = 150_000;

/// The particles of the fast path ([`BeliefConfig::particles`]): what `umpire belief` and the
/// review of a whole game (`review`) keep once the set is sampled, beside the exact
/// bound [`DEFAULT_BOUND`]. Chosen by measurement (`docs/BENCHMARKS.md`, "Belief at the speed of
/// a click"): the marginals' distance to a run with ten times today's particles.
pub const FAST_PARTICLES: usize = 10_000;

/// The default number of threads an update may use ([`BeliefConfig::threads`]): two, the
/// cores of the machine the project is measured on. Small updates stay on the calling thread
/// whatever the setting (see [`PARALLEL_FROM`]).
pub const DEFAULT_THREADS: usize = 2;

/// The default [`BeliefConfig::parallel_from`]: updates over fewer hypotheses run on the
/// calling thread. Judging a hypothesis costs 1–5 µs and starting a thread some 30 µs, so an
/// update of a thousand hypotheses is worth splitting (4,096 before session 13 of
/// `docs/BENCHMARKS.md`, which left a tenth of the CPU of `umpire belief --ply 40` alone on the
/// calling thread).
pub const PARALLEL_FROM: usize = 1024;

/// Parents per block of a parallel expansion (one block is one unit of work of a thread).
const BLOCK: usize = 256;

/// A repair that found no survivor from the recent checkpoints replays the observations since
/// the last exact set with a sample this many times the bound and the particles, then (if that
/// dies too) this many (`belief/repair.rs`).
const REPAIR_SCALES: [usize; 2] = [1, 4];

/// The sampled sets kept to repair from: the parents of this many of the recent sampled
/// opponent turns, spaced about geometrically (the last turns, then two, four, eight… turns
/// back; `belief/repair.rs`). At most this many times the particles are kept beside the held
/// set.
pub const RECENT_CHECKPOINTS: usize = 6;

/// With a lookahead (`belief/lookahead.rs`), a sampled opponent turn also stops once its
/// children offered reach this many times the particles: a turn whose children mostly fail
/// the player's next commands costs at most about three times a blind one.
const LOOKAHEAD_SPAN: u64 = 8;

/// The default [`BeliefConfig::repair_budget`]: the work one repair may do, all its replays
/// together, counted as [`Belief::work`] (about 1–3 µs of one core per unit on the machine
/// measured in `docs/BENCHMARKS.md`, so 4–12 s at the very most). Before the budget, single
/// repairs took tens of seconds.
pub const REPAIR_BUDGET: u64 = 4_000_000;

/// [`Belief::work`] counted per parent expanded, beside its children: building its umpire and
/// judging its moves cost about as much as eight children where few moves match (Berkeley
/// turns: about 9 µs per parent, 1 µs per child, `docs/BENCHMARKS.md`).
const PARENT_WORK: u64 = 8;

/// In sampling, the expansion of the opponent's turn stops once this many times the particles
/// ([`BeliefConfig::particles`]) of distinct children have been offered.
const EARLY_STOP: u64 = 4;

/// A sampled opponent turn's reservoir holds this many times the particles: the correction of
/// the parents' lean (`belief/parent_count.rs`) keeps about two thirds of a turn's children where
/// it matters most, and a uniform choice of the particles is taken from what it keeps.
const HEADROOM: usize = 2;

/// How a [`Belief`] is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeliefConfig {
    /// The most hypotheses kept exactly; over it the set is sampled.
    pub bound: usize,
    /// Once the set is sampled, the most hypotheses (particles) kept; `None`: the bound. Fewer
    /// particles than the bound keep the exact phase as large while every sampled turn costs
    /// in proportion to the particles (each sampled opponent turn offers up to four times as
    /// many children), the fast path of `umpire belief` and of a game's review
    /// ([`FAST_PARTICLES`], `docs/BELIEF.md`, "Particles").
    pub particles: Option<usize>,
    /// The seed of every random choice (sub-sampling, repairs).
    pub seed: u64,
    /// The most threads one update may use (0 is taken as 1). With 1 everything runs on the
    /// calling thread; with more, updates of at least [`PARALLEL_FROM`] hypotheses split the
    /// held hypotheses over that many threads. The result — the set, its order, the samples for
    /// a seed — is the same for every setting. Agents that play several games side by side keep
    /// 1; default [`DEFAULT_THREADS`].
    pub threads: usize,
    /// Updates over fewer held hypotheses than this (for the opponent's turn: fewer expected
    /// children and fewer than an eighth of this many parents; for the history moves of a
    /// rejuvenation, less work) stay on the calling thread, where starting threads would cost
    /// more than it saves; default [`PARALLEL_FROM`].
    pub parallel_from: usize,
    /// The most work one repair may do ([`Belief::work`] units, all its replays together);
    /// when it runs out the repair fails (the belief is then empty and not exact). Default
    /// [`REPAIR_BUDGET`].
    pub repair_budget: u64,
}

impl Default for BeliefConfig {
    fn default() -> BeliefConfig {
        BeliefConfig {
            bound: DEFAULT_BOUND,
            particles: None,
            seed: 0,
            threads: DEFAULT_THREADS,
            parallel_from: PARALLEL_FROM,
            repair_budget: REPAIR_BUDGET,
        }
    }
}

/// One position the player cannot rule out, with its witness.
#[derive(Clone, Debug)]
pub(crate) struct Hypothesis {
    /// The full position (enemy men, castling rights, e.p. square, move counters).
    pub pos: Chess,
    /// The last opponent move of its hidden history (a [`Witnesses`] node).
    pub node: u32,
    /// Where threefold repetition is in force: a fingerprint of the positions since the last
    /// pawn move or capture (the umpire's repetition history), 0 otherwise.
    pub rep: u64,
    /// Whether it is the first held hypothesis of its position: a position held with several
    /// repetition histories is counted, sampled and looked at once.
    pub primary: bool,
}

/// Where to restart if every sampled hypothesis dies: the parents of an opponent turn (the last
/// exact set, or a recent sampled one), the transcript position of the opponent's move, and
/// what the estimate stood at.
#[derive(Clone, Debug)]
struct Checkpoint {
    states: Vec<Hypothesis>,
    transcript_len: usize,
    turn: Vec<Command>,
    pending: Vec<Observation>,
    /// Whether `states` was the exact set.
    exact: bool,
    /// The opponent turns taken in before it (its age, against [`Belief::turns`]).
    turns: u32,
    /// The estimate's scale and squared relative error then.
    scale: f64,
    relvar: f64,
}

/// The size of the set of consistent positions, or what is known of it beyond the bound.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SizeEstimate {
    /// Whether `value` is a count (the set is exact) or an estimate.
    pub exact: bool,
    /// The exact size, or the estimate (see `docs/BELIEF.md`, "Size beyond the bound").
    pub value: f64,
    /// A certain lower bound: distinct positions held, each fully consistent.
    pub lower_bound: u64,
    /// The estimate's relative standard error (first order, from the spread of the sampled
    /// branching factors and survival shares); 0 when exact. It does not cover the estimate's
    /// lean: a position reached from several held parents counts once (`belief/parent_count.rs`),
    /// but transpositions through parents outside the sample are not merged, so the estimate's
    /// expectation is at or above the true size.
    pub relative_error: f64,
    /// The size of the last exact set (before sampling began; the current size while exact).
    pub last_exact: u64,
    /// The plies played when the set was last exact.
    pub last_exact_plies: u32,
}

/// What a player may believe about the hidden men: the set of positions consistent with its
/// whole observation history, each with a hidden history that explains every observation.
///
/// Fed only the player's observations (and the public start position). While the set has at
/// most `bound` members it is exact; beyond, it is a uniform sample of that many members of the
/// (larger) set of fully consistent positions, with an estimate of the set's size.
///
/// ```
/// use umpire_belief::Belief;
/// use umpire_rules::{Command, RuleSet, Umpire};
/// use umpire_rules::shakmaty::Color;
///
/// let mut umpire = Umpire::new(RuleSet::WILD16);
/// let mut black = Belief::standard(RuleSet::WILD16, Color::Black);
/// let command = Command::Attempt("e2e4".parse().unwrap());
/// let outcome = umpire.submit(command);
/// black.observe(&outcome.observation(command, Color::Black).unwrap()).unwrap();
/// // White made one of its 20 first moves, all silent.
/// assert_eq!(black.size(), 20);
/// assert!(black.is_exact());
/// assert!(black.contains(umpire.position()));
/// ```
#[derive(Clone, Debug)]
pub struct Belief {
    rules: RuleSet,
    sim: RuleSet,
    side: Color,
    start: Chess,
    states: Vec<Hypothesis>,
    witnesses: Witnesses,
    exact: bool,
    /// Estimated set members per kept hypothesis (1 while exact).
    scale: f64,
    /// Squared relative error of `scale` (first order; 0 while exact).
    relvar: f64,
    /// Size and plies when the set was last exact.
    last_exact: (u64, u32),
    /// Plies played (moves of either side taken in).
    plies: u32,
    /// Distinct positions held (fewer than the hypotheses where a position is held with
    /// several repetition histories).
    distinct: usize,
    /// The start position's Zobrist hash.
    start_hash: u64,
    /// Children per expanded parent at the last opponent turn (sizes the next turn's pool).
    branching: f64,
    bound: usize,
    /// Hypotheses kept once the set is sampled.
    particles: usize,
    /// Threads an update may use (at least 1).
    threads: usize,
    /// Updates over fewer hypotheses stay on the calling thread.
    parallel_from: usize,
    /// The work one repair may do.
    repair_budget: u64,
    rng: Xoshiro256PlusPlus,
    turn: Vec<Command>,
    pending: Vec<Observation>,
    transcript: Vec<Observation>,
    checkpoint: Option<Checkpoint>,
    /// The parents of the last few sampled opponent turns, oldest first (at most
    /// [`RECENT_CHECKPOINTS`]): a repair regrows from the most recent that still has
    /// consistent descendants.
    recent: VecDeque<Checkpoint>,
    /// Opponent turns taken in.
    turns: u32,
    /// Refreshes that grew a thinned sample.
    refreshes: u32,
    /// Refreshes tried since the last opponent turn (at most `REFRESHES_PER_TURN`).
    refreshed: u8,
    /// Whether the sample was rejuvenated since the last opponent turn (at most once).
    rejuvenated: bool,
    /// Whether observations known to follow were ever given (`observe_known`): sampled turns
    /// with a lookahead then draw a share of every parent's moves (`belief/every_parent.rs`).
    known_ahead: bool,
    /// A repair under way (`belief/repair.rs`): the belief is empty until it catches up.
    regrowth: Option<Box<repair::Regrowth>>,
    /// Index in the transcript of the observation being taken in.
    cursor: usize,
    repairs: u32,
    /// While a repair runs: the work it may still do.
    budget: Option<u64>,
    /// A repair failed: the belief stays empty.
    given_up: bool,
    /// Children offered and hypotheses judged so far.
    work: u64,
    /// What the last repair did of that.
    last_repair_work: u64,
    over: bool,
    /// Whether a sampled opponent turn counts its children's parents among every consistent
    /// child of the last turn's held parents ([`Belief::count_grandparents`]).
    grandparents: bool,
    /// While such a turn is taken in: those parents (`belief/grandparents.rs`).
    pstar: Option<Vec<Hypothesis>>,
    /// Whether a sampled turn read at a ply keeps its particles by a uniform choice instead of
    /// the systematic one along the genealogy (`belief/stratified.rs`;
    /// [`Belief::choose_uniformly`]).
    uniform_choice: bool,
}

impl Belief {
    /// The belief of `side` at the standard start.
    pub fn standard(rules: RuleSet, side: Color) -> Belief {
        Belief::new(rules, Chess::default(), side, BeliefConfig::default())
            .expect("the standard start has moves")
    }

    /// The belief of `side` in a game that starts from `start`, a position both players are
    /// told (the standard start, or a set-up position the organiser announces).
    pub fn new(
        rules: RuleSet,
        start: Chess,
        side: Color,
        config: BeliefConfig,
    ) -> Result<Belief, BeliefError> {
        if start.legal_moves().is_empty() {
            return Err(BeliefError::DeadStart);
        }
        Ok(Belief {
            rules,
            sim: simulation_rules(rules),
            side,
            states: vec![Hypothesis {
                pos: start.clone(),
                node: ROOT,
                rep: if rules.threefold_repetition {
                    scramble(zobrist(&start))
                } else {
                    0
                },
                primary: true,
            }],
            start_hash: zobrist(&start),
            branching: 8.0,
            start,
            relvar: 0.0,
            last_exact: (1, 0),
            plies: 0,
            distinct: 1,
            witnesses: Witnesses::default(),
            exact: true,
            scale: 1.0,
            bound: config.bound.max(1),
            particles: config.particles.unwrap_or(config.bound).max(1),
            threads: config.threads.max(1),
            parallel_from: config.parallel_from,
            repair_budget: config.repair_budget,
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            turn: Vec::new(),
            pending: Vec::new(),
            transcript: Vec::new(),
            checkpoint: None,
            recent: VecDeque::new(),
            turns: 0,
            refreshes: 0,
            refreshed: 0,
            rejuvenated: false,
            known_ahead: false,
            regrowth: None,
            cursor: 0,
            repairs: 0,
            budget: None,
            given_up: false,
            work: 0,
            last_repair_work: 0,
            over: false,
            grandparents: false,
            pstar: None,
            uniform_choice: false,
        })
    }

    /// Whose belief this is.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The public start position.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// Every observation taken in, in order.
    pub fn transcript(&self) -> &[Observation] {
        &self.transcript
    }

    /// Switches on (or off) the count of parents beyond the held ones: each sampled opponent
    /// turn after the first replays the last turn whole from its held parents, and keeps each
    /// child with the chance that undoes its number of consistent parents among all of their
    /// children, not only among the held ones (`belief/grandparents.rs`; `docs/BELIEF.md`,
    /// "What limits the quality"). Exact at the second sampled turn (its grandparents are the
    /// last exact set); later it leaves the lean among children of different grandparents.
    /// Measured on the benchmarks' game 3 (`docs/BENCHMARKS.md`, "Session 10"): ply 20 closer
    /// to the reference, ply 40 not, for about three times the CPU to ply 40. Off by default.
    pub fn count_grandparents(&mut self, on: bool) {
        self.grandparents = on;
    }

    /// Where the observations that follow are known ([`Belief::observe_known`]), a sampled
    /// opponent turn keeps its particles by a systematic sample along the genealogy's order
    /// (`belief/stratified.rs`; `docs/BELIEF.md`, "Early histories"): each child is kept with
    /// the same chance as by a uniform choice, and each line of descent keeps its expected
    /// share, give or take one. `true` goes back to the uniform choice (for comparison);
    /// agents and the review of every ply, which never know what follows, always make it.
    pub fn choose_uniformly(&mut self, on: bool) {
        self.uniform_choice = on;
    }

    /// Whether the set is exact (every consistent position is held).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// How many positions are held (the exact set's size while exact, the sample's otherwise).
    pub fn held(&self) -> usize {
        self.distinct
    }

    /// How many hypotheses are held: positions with their repetition history. Equal to
    /// [`Belief::held`] unless threefold repetition is in force and some position is held with
    /// several repetition histories (later answers may tell them apart). Indices of
    /// [`Belief::position`] and [`Belief::opponent_moves`] run up to this.
    pub fn hypotheses(&self) -> usize {
        self.states.len()
    }

    /// The most hypotheses kept once the set is sampled ([`BeliefConfig::particles`], or the
    /// bound).
    pub fn particles(&self) -> usize {
        self.particles
    }

    /// Plies (moves of either side) taken in so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The size of the set of consistent positions: exact while [`Belief::is_exact`], else the
    /// estimate of [`Belief::size_estimate`], rounded (never the sample's size).
    pub fn size(&self) -> u64 {
        let v = self.size_estimate().value;
        if v >= u64::MAX as f64 {
            u64::MAX
        } else {
            v.round() as u64
        }
    }

    /// The size of the set of consistent positions, or beyond the bound an estimate with its
    /// relative error, a certain lower bound and the last exact size. The estimate multiplies
    /// the last exact size, opponent turn by opponent turn, by the distinct children per
    /// expanded parent, and by the share of held positions that survive the player's own
    /// commands (`docs/BELIEF.md`, "Size beyond the bound").
    pub fn size_estimate(&self) -> SizeEstimate {
        let held = self.distinct as u64;
        if self.exact {
            return SizeEstimate {
                exact: true,
                value: held as f64,
                lower_bound: held,
                relative_error: 0.0,
                last_exact: held,
                last_exact_plies: self.plies,
            };
        }
        let value = if held == 0 {
            0.0
        } else {
            (held as f64 * self.scale).max(held as f64)
        };
        SizeEstimate {
            exact: false,
            value,
            lower_bound: held,
            relative_error: self.relvar.sqrt(),
            last_exact: self.last_exact.0,
            last_exact_plies: self.last_exact.1,
        }
    }

    /// How many replays repairs have tried: each time the sampled set died out, one per
    /// checkpoint tried (recent sets first, then the last exact set).
    pub fn repairs(&self) -> u32 {
        self.repairs
    }

    /// How many times a thinned sample was regrown from the last turn's parents with the
    /// lookahead (`docs/BELIEF.md`, "Repair and refresh").
    pub fn refreshes(&self) -> u32 {
        self.refreshes
    }

    /// The opponent turns (counted from the start of the game) whose parents are kept as
    /// recent checkpoints to repair and refresh from, oldest first: at most
    /// [`RECENT_CHECKPOINTS`], each turn once (`docs/BELIEF.md`, "Repair and refresh").
    pub fn checkpoint_turns(&self) -> Vec<u32> {
        self.recent.iter().map(|cp| cp.turns).collect()
    }

    /// Whether a repair failed and the belief is empty for good (the budget ran out or no
    /// checkpoint had a consistent descendant the sampler found).
    pub fn is_dead(&self) -> bool {
        self.given_up
    }

    /// The work done so far, a measure of cost that does not depend on the machine: in the
    /// opponent's turns the children offered plus 8 per parent expanded, plus the hypotheses
    /// judged by the player's commands.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The [`Belief::work`] a repair did while the last observation was taken in (0 if none
    /// ran): at most the repair budget ([`BeliefConfig::repair_budget`]) plus one observation
    /// of the replay that passed it. A repair that needs more goes on at the next move.
    pub fn last_repair_work(&self) -> u64 {
        self.last_repair_work
    }

    /// The positions held (all consistent positions while exact).
    pub fn positions(&self) -> impl Iterator<Item = &Chess> + '_ {
        self.states.iter().filter(|h| h.primary).map(|h| &h.pos)
    }

    /// The `i`-th position held.
    pub fn position(&self, i: usize) -> Option<&Chess> {
        self.states.get(i).map(|h| &h.pos)
    }

    /// The opponent's moves in the hidden history witnessing the `i`-th position, oldest first.
    pub fn opponent_moves(&self, i: usize) -> Option<Vec<Attempt>> {
        self.states.get(i).map(|h| self.witnesses.moves(h.node))
    }

    /// Whether `pos` is held (men, side to move, castling rights, legal e.p. square equal, and
    /// the halfmove clock too where the fifty-move rule is in force). While exact: whether the
    /// player cannot rule it out.
    pub fn contains(&self, pos: &Chess) -> bool {
        let fifty = self.rules.fifty_moves;
        self.states.iter().any(|h| same(&h.pos, pos, fifty))
    }

    /// `n` distinct held positions chosen uniformly (all of them if fewer are held), as indices
    /// for [`Belief::position`] and [`Belief::opponent_moves`].
    pub fn sample_indices<R: Rng>(&self, n: usize, rng: &mut R) -> Vec<usize> {
        if self.distinct == self.states.len() {
            let n = n.min(self.states.len());
            return index::sample(rng, self.states.len(), n).into_vec();
        }
        let primaries: Vec<usize> = (0..self.states.len())
            .filter(|&i| self.states[i].primary)
            .collect();
        let n = n.min(primaries.len());
        index::sample(rng, primaries.len(), n)
            .into_iter()
            .map(|k| primaries[k])
            .collect()
    }

    /// `n` distinct held positions chosen uniformly (all of them if fewer are held).
    pub fn sample<R: Rng>(&self, n: usize, rng: &mut R) -> Vec<Chess> {
        self.sample_indices(n, rng)
            .into_iter()
            .map(|i| self.states[i].pos.clone())
            .collect()
    }

    /// Takes in one observation of the player's.
    pub fn observe(&mut self, obs: &Observation) -> Result<(), BeliefError> {
        self.observe_known(obs, &[])
    }

    /// Takes in one observation of the player's, where the player's observations that follow
    /// it, `later`, are already known (a finished record read at a later ply): an opponent's
    /// move is then expanded with a lookahead, keeping only children that the player's next
    /// commands in `later` leave standing (`docs/BELIEF.md`, "Lookahead"). Every held
    /// hypothesis stays fully consistent with what was taken in; but until `later` is taken in
    /// too, the sample is conditioned on it, so read the belief only after it.
    pub fn observe_known(
        &mut self,
        obs: &Observation,
        later: &[Observation],
    ) -> Result<(), BeliefError> {
        if obs.player != self.side {
            return Err(BeliefError::WrongPlayer {
                belief: self.side,
                observer: obs.player,
            });
        }
        if obs.actor == self.side && obs.own.is_none() {
            return Err(BeliefError::MissingOwnCommand);
        }
        self.known_ahead |= !later.is_empty();
        self.cursor = self.transcript.len();
        self.transcript.push(obs.clone());
        self.last_repair_work = 0;
        self.plies += u32::from(obs.moved);
        self.update(obs, later);
        if obs.actor == self.side && self.depleted() {
            // Most of the sample was ruled out by the player's command: regrow it from the last
            // turn's parents with the lookahead, within a bounded amount of work.
            self.refresh(later);
        }
        if obs.actor == self.side {
            // Still thin where the observations that follow are known: add the survivors of
            // replays from an older checkpoint (`belief/rejuvenate.rs`).
            self.rejuvenate(later);
        }
        if self.states.is_empty() && !self.exact && !self.given_up && self.regrowth.is_none() {
            self.start_regrowth();
        }
        if self.regrowth.is_some() && (obs.moved || self.over) {
            // A repair goes on a budget's work per ply (at each move of either side).
            self.advance_regrowth(later);
        }
        Ok(())
    }

    /// Applies one observation to the set; `later`: the player's observations known to follow.
    fn update(&mut self, obs: &Observation, later: &[Observation]) {
        if self.over {
            return;
        }
        if obs.actor == self.side {
            let Some(own) = obs.own else { return };
            if matches!(own.command, Command::Attempt(_) | Command::AskAny) {
                self.filter_own(own.command, obs);
                if obs.moved {
                    self.turn.clear();
                } else {
                    self.turn.push(own.command);
                }
            }
        } else {
            if informative_event(obs) {
                self.pending.push(obs.clone());
            }
            if obs.moved {
                if self.grandparents && !self.exact {
                    self.pstar = self.grandparent_children();
                }
                // The player's king, where every hypothesis has it (the player knows its men).
                let king = self
                    .states
                    .first()
                    .and_then(|h| h.pos.board().king_of(self.side));
                let next = NextTurn::of(self.side, later).map(|n| match king {
                    Some(king) => n.with_knight_checks(KnightChecks::of(self.side, king, later)),
                    None => n,
                });
                self.expand(next);
                self.pending.clear();
            }
        }
        if obs
            .announcements
            .iter()
            .any(|a| matches!(a, Announcement::GameOver(_)))
        {
            self.over = true;
        }
    }

    /// Our command and the umpire's answer: keeps the hypotheses in which the umpire would have
    /// answered the same (moved on by our move if it was made).
    fn filter_own(&mut self, command: Command, obs: &Observation) {
        let before = self.distinct;
        let threefold = self.rules.threefold_repetition;
        let judge = OwnTurn {
            sim: self.sim,
            earlier: &self.turn,
            command,
            expected: Expected::of(obs),
            witnesses: &self.witnesses,
            start: self.start_entry(),
            threefold,
            repeated: threefold && repetition_end(obs),
        };
        let judged = self.states.len() as u64;
        if self.budget.is_some_and(|b| b < judged) {
            // A repair out of budget: it fails here.
            self.budget = Some(0);
            self.states.clear();
            self.distinct = 0;
            return;
        }
        let threads = self.threads_for(self.states.len());
        let mut states = std::mem::take(&mut self.states);
        let moved = if threads > 1 {
            let parts = map_chunks(&mut states, threads, |chunk| {
                let len = chunk.len();
                (judge.judge(chunk), len)
            });
            // Each chunk kept its survivors at its front: close the gaps, in order.
            let (mut write, mut start, mut moved) = (0, 0, false);
            for ((kept, m), len) in parts {
                if write != start {
                    for i in 0..kept {
                        states.swap(write + i, start + i);
                    }
                }
                write += kept;
                start += len;
                moved |= m;
            }
            states.truncate(write);
            moved
        } else {
            let (kept, moved) = judge.judge(&mut states);
            states.truncate(kept);
            moved
        };
        self.states = states;
        self.spend(judged);
        if moved {
            // A capture whose man the umpire does not name, or an e.p. square our move
            // cancels, can merge hypotheses.
            self.dedup();
        } else {
            // No move was made: the answer depended on the position only (not on its repetition
            // history), so a position's hypotheses were all kept or all dropped, and each kept
            // position still has its primary hypothesis.
            self.distinct = self.states.iter().filter(|h| h.primary).count();
        }
        if !self.exact && before > 0 {
            // The share of held positions that survive estimates the share of the whole set.
            let p = self.distinct as f64 / before as f64;
            if p > 0.0 {
                self.relvar += (1.0 - p) / (p * before as f64);
            }
        }
    }

    /// The threads an update over `n` hypotheses uses.
    fn threads_for(&self, n: usize) -> usize {
        if n >= self.parallel_from {
            self.threads
        } else {
            1
        }
    }

    /// The start position's hash, where a repetition history may reach the start without a
    /// witness node recording it (the player moved first).
    fn start_entry(&self) -> Option<u64> {
        (self.start.turn() == self.side).then_some(self.start_hash)
    }

    /// Removes repeated hypotheses (the same position with the same repetition history),
    /// keeping the first witness, marks each position's first hypothesis as its primary one and
    /// counts the distinct positions.
    fn dedup(&mut self) {
        let fifty = self.rules.fifty_moves;
        let threefold = self.rules.threefold_repetition;
        let n = self.states.len();
        // (full key, position key) of every hypothesis, computed over the threads in consecutive
        // ranges; then the probes, in order, prefetched a few ahead.
        let states = &self.states;
        let parts: Vec<Vec<(Key, Key)>> = map_ranges(n, self.threads_for(n), |range| {
            states[range]
                .iter()
                .map(|h| {
                    let board = board_hash(&h.pos);
                    let z = zobrist(&h.pos);
                    let clock = clock_word(&h.pos, fifty);
                    (
                        key_of_board(board, z, h.rep ^ clock),
                        key_of_board(board, z, clock),
                    )
                })
                .collect::<Vec<_>>()
        });
        let keys = if parts.len() == 1 {
            parts.into_iter().next().unwrap_or_default()
        } else {
            parts.concat()
        };
        let mut full = KeyTable::with_capacity(n);
        let mut positions = KeyTable::with_capacity(if threefold { n } else { 0 });
        const AHEAD: usize = 8;
        let mut keep = Vec::with_capacity(n);
        for i in 0..n {
            if let Some(&(k, pk)) = keys.get(i + AHEAD) {
                full.prefetch(k);
                if threefold {
                    positions.prefetch(pk);
                }
            }
            let (k, pk) = keys[i];
            let new = full.insert(k);
            let primary = new && (!threefold || positions.insert(pk));
            keep.push((new, primary));
        }
        let mut flags = keep.into_iter();
        let mut distinct = 0;
        self.states.retain_mut(|h| {
            let (new, primary) = flags.next().unwrap_or((false, false));
            h.primary = primary;
            distinct += usize::from(primary);
            new
        });
        self.distinct = distinct;
    }

    /// Marks each position's first hypothesis and counts the distinct positions (fewer than the
    /// hypotheses only where repetition histories tell hypotheses apart).
    fn count_distinct(&mut self) {
        if !self.rules.threefold_repetition {
            self.distinct = self.states.len();
            return;
        }
        let fifty = self.rules.fifty_moves;
        let mut seen = KeyTable::with_capacity(self.states.len());
        let mut distinct = 0;
        for h in &mut self.states {
            let clock = clock_word(&h.pos, fifty);
            h.primary = seen.insert(key_of_board(board_hash(&h.pos), zobrist(&h.pos), clock));
            distinct += usize::from(h.primary);
        }
        self.distinct = distinct;
    }

    /// The opponent's turn: every hypothesis spreads into every position the opponent could
    /// have reached while the player heard exactly what it heard. With `next` (the player's
    /// next commands, where known: `belief/lookahead.rs`) only children that they leave
    /// standing are offered.
    fn expand(&mut self, next: Option<NextTurn>) {
        let parent_count = self.distinct as u64;
        let mut parents = std::mem::take(&mut self.states);
        let threefold = self.rules.threefold_repetition;
        // Sized for the children the last turn's branching factor predicts (a quarter more),
        // sparing the regrowth of the pool and its tables (which hold every child offered, up
        // to the early stop, while the pool keeps at most the bound).
        // At most: while exact, the bound (the turn may stay exact) or the early stop; once
        // sampled, the early stop.
        let most = EARLY_STOP * self.particles as u64;
        let most = if self.exact {
            most.max(self.bound as u64)
        } else {
            most
        };
        let guess = (parents.len() as f64 * self.branching * 1.25).min(most as f64) as usize;
        // While exact the pool may hold the bound (or more particles); once a child is dropped
        // it holds `HEADROOM` times the particles (where the bound allows), which the
        // correction of the parents' lean thins and a uniform choice brings back to the
        // particles.
        let roomy = HEADROOM * self.particles;
        let cap = if self.exact {
            self.bound.max(self.particles)
        } else {
            roomy
        };
        let mut pool = Pool::new(cap, roomy, guess, threefold);
        let events = std::mem::take(&mut self.pending);
        // Parents in random order: once the children offered pass `EARLY_STOP` times the bound
        // the result is a sample anyway, and the rest of the parents are left out (the estimate
        // scales by the share of parents expanded).
        if parents.len() > 1 {
            parents.shuffle(&mut self.rng);
        }
        let spread = Spread {
            sim: self.sim,
            fifty: self.rules.fifty_moves,
            events: &events,
            witnesses: &self.witnesses,
            start: self.start_entry(),
            threefold,
            repeated: threefold && events.last().is_some_and(repetition_end),
        };
        let next = next.as_ref();
        let was_sampled = !self.exact;
        // Where what follows is known, a sampled turn draws a share of every parent's moves
        // instead of whole parents (`belief/every_parent.rs`): a pilot of whole parents first.
        let pilot = if next.is_some()
            && was_sampled
            && self.known_ahead
            && parents.len() >= 2 * every_parent::PILOT_MIN
        {
            (parents.len() / every_parent::PILOT_SHARE)
                .clamp(every_parent::PILOT_MIN, parents.len())
        } else {
            0
        };
        let salt: u64 = if pilot > 0 { self.rng.random() } else { 0 };
        // The turn stops once this many distinct children were offered (spread over every
        // parent, twice the children aimed at: a guard against a pilot far off).
        let stop_at = if pilot > 0 {
            2 * every_parent::offer_target(self.particles)
        } else {
            EARLY_STOP * self.particles as u64
        };
        // With a lookahead, a sampled turn also stops after `LOOKAHEAD_SPAN` times the
        // particles of children offered (an exact one expands every parent until it overflows).
        let span = if next.is_some() {
            LOOKAHEAD_SPAN * self.particles as u64
        } else {
            u64::MAX
        };
        // Within a repair, the work it may still do.
        let budget = self.budget.unwrap_or(u64::MAX);
        let mut work = 0u64;
        let mut children_offered = 0u64;
        // The work of the turn grows with its parents (each judged move costs about as much as a
        // child offered, and a lookahead rules out most children found), not only with the
        // children it is expected to keep.
        let threads =
            self.threads_for(guess.max(parents.len().saturating_mul(PARENT_WORK as usize)));
        // The parents' count checks every held parent against the children kept.
        let thin_threads = self.threads_for(parents.len());
        let rng = &mut self.rng;
        let mut expanded = 0usize;
        // Children kept per expanded parent: their mean and spread give the estimate's error.
        let (mut sum, mut sum_sq) = (0f64, 0f64);
        // One parent's children, offered in the order they were found: the same sequence of
        // offers (and so of random choices) on one thread or several. `kept`: the children
        // offered to the pool (those the lookahead left standing), `found`: all of them.
        let judged_per_child = u64::from(next.is_some());
        let mut parent_done =
            |pool: &mut Pool, rng: &mut Xoshiro256PlusPlus, kept: u32, found: u32| {
                pool.flush(rng);
                expanded += 1;
                sum += f64::from(kept);
                sum_sq += f64::from(kept) * f64::from(kept);
                work += u64::from(found) * (1 + judged_per_child) + PARENT_WORK;
                children_offered += u64::from(found);
                let stop = pool.overflowed && pool.seen >= stop_at;
                let spent = (was_sampled || pool.overflowed) && children_offered >= span;
                !stop && !spent && work < budget
            };
        // The chance each move of a parent is drawn with (1: whole parents), its threshold, the
        // parents done by the pilot and whether to go on.
        let (mut edge, mut first, mut go_on) = (1.0f64, 0usize, true);
        if pilot > 0 {
            // The pilot's parents split over the threads, their children taken in order.
            let parts = map_ranges(pilot, threads, |range| {
                let mut found_children = Vec::new();
                let mut counts = Vec::with_capacity(range.len());
                let (mut scratch, mut opponent) = (None, OpponentScratch::default());
                for h in &parents[range] {
                    let before = found_children.len();
                    let mut found = 0u32;
                    spread.children(
                        h,
                        &mut opponent,
                        &mut |_| true,
                        &mut |played| {
                            found += 1;
                            next.is_none_or(|n| n.passes_after(&mut scratch, played))
                        },
                        &mut |c| found_children.push(c),
                    );
                    counts.push(((found_children.len() - before) as u32, found));
                }
                (found_children, counts)
            });
            edge = every_parent::edge_share(
                parts.iter().map(|(children, _)| children.len()).sum(),
                pilot,
                parents.len(),
                every_parent::offer_target(self.particles),
            );
            let threshold = every_parent::threshold(edge);
            'pilot: for (found_children, counts) in parts {
                let mut children = found_children.into_iter();
                for &(kept, found) in &counts {
                    let mut offered = 0u32;
                    for c in children.by_ref().take(kept as usize) {
                        if every_parent::picked(salt, c.node.parent, c.node.mv, threshold) {
                            offered += 1;
                            pool.offer(c, rng);
                        }
                    }
                    first += 1;
                    if !parent_done(&mut pool, rng, offered, found) {
                        go_on = false;
                        break 'pilot;
                    }
                }
            }
        }
        let threshold = every_parent::threshold(edge);
        let rest = if go_on { &parents[first..] } else { &[][..] };
        if threads > 1 {
            // Blocks of at most `BLOCK` parents; at least 16 blocks per thread where there are
            // enough parents, so that the threads stay evenly busy.
            let block = (rest.len() / (threads * 16)).clamp(1, BLOCK);
            ordered_blocks(
                rest,
                block,
                threads,
                |block, out: &mut Block| {
                    out.children.clear();
                    out.counts.clear();
                    for h in block {
                        let before = out.children.len();
                        let mut found = 0u32;
                        let (children, scratch) = (&mut out.children, &mut out.scratch);
                        spread.children(
                            h,
                            &mut out.opponent,
                            &mut |mv| every_parent::picked(salt, h.node, mv, threshold),
                            &mut |played| {
                                found += 1;
                                next.is_none_or(|n| n.passes_after(scratch, played))
                            },
                            &mut |c| children.push(c),
                        );
                        out.counts
                            .push(((out.children.len() - before) as u32, found));
                    }
                },
                |out| {
                    // Read in place (the buffer is cleared when it is reused).
                    let mut at = 0;
                    for &(kept, found) in &out.counts {
                        let end = (at + kept as usize).min(out.children.len());
                        pool.offer_all(&out.children[at..end], rng);
                        at = end;
                        if !parent_done(&mut pool, rng, kept, found) {
                            return false;
                        }
                    }
                    true
                },
            );
        } else {
            let mut scratch = None;
            let mut opponent = OpponentScratch::default();
            for h in rest {
                let (mut kept, mut found) = (0u32, 0u32);
                spread.children(
                    h,
                    &mut opponent,
                    &mut |mv| every_parent::picked(salt, h.node, mv, threshold),
                    &mut |played| {
                        found += 1;
                        next.is_none_or(|n| n.passes_after(&mut scratch, played))
                    },
                    &mut |c| {
                        kept += 1;
                        pool.offer(c, rng);
                    },
                );
                if !parent_done(&mut pool, rng, kept, found) {
                    break;
                }
            }
        }
        let seen_children = pool.seen;
        // Distinct positions offered (hypotheses differ from them only by repetition history).
        let seen = pool.positions_seen(threefold);
        let overflowed = pool.overflowed;
        let (mut states, mut nodes, mut distinct) = pool.finish();
        // A child is kept if any of its expanded parents offered it: undo the lean towards
        // children of several parents (`belief/parent_count.rs`), and scale the children seen
        // by the share kept (the estimate counted a child once per expanded parent).
        let mut seen_share = 1.0;
        let drawn = edge < 1.0;
        if (drawn || (overflowed && expanded < parents.len())) && !states.is_empty() {
            if !overflowed {
                // Each position's first hypothesis, as a reservoir keeps (the count is redone).
                keep_primaries(&mut states, &mut nodes);
                distinct = None;
            }
            let before = states.len();
            parent_count::thin_by_parents(
                &spread,
                !self.side,
                &parents,
                expanded,
                edge,
                &mut states,
                &mut nodes,
                rng,
                thin_threads,
            );
            seen_share = states.len() as f64 / before.max(1) as f64;
        }
        if let Some(pstar) = self.pstar.take()
            && !states.is_empty()
        {
            // The lean towards children of several consistent parents outside the held ones
            // (`belief/grandparents.rs`).
            keep_primaries(&mut states, &mut nodes);
            distinct = None;
            let before = states.len();
            parent_count::thin_by_pstar(
                &spread,
                !self.side,
                &pstar,
                parent_count as usize,
                &mut states,
                &mut nodes,
                rng,
                thin_threads,
            );
            seen_share *= states.len() as f64 / before.max(1) as f64;
        }
        if (overflowed || !self.exact) && states.len() > self.particles {
            // A sampled turn keeps the particles: where its reservoir did not overflow it holds
            // every child found, of which each position's first hypothesis is kept (as a
            // reservoir would), then a uniform choice, in order, of the particles.
            if !overflowed {
                keep_primaries(&mut states, &mut nodes);
            }
            distinct = None;
        }
        // Where what follows is known, a systematic sample along the genealogy's order keeps
        // every line's expected share of the particles, give or take one (`belief/stratified.rs`).
        let systematic = self.known_ahead && !self.uniform_choice;
        if systematic && (overflowed || !self.exact) && states.len() > self.particles {
            stratified::keep_systematic(&mut states, &mut nodes, self.particles, rng);
        }
        if (overflowed || !self.exact) && states.len() > self.particles {
            let keep = stratified::uniform_choice(rng, states.len(), self.particles);
            stratified::keep_in_order(&mut states, &keep);
            stratified::keep_in_order(&mut nodes, &keep);
        }
        self.spend(work);
        let parent_total = parents.len();
        let parent_share = expanded as f64 / parent_total.max(1) as f64 * edge;
        self.pending = events;
        let was_exact = self.exact;
        // As before the opponent's move was taken in: its observation is the last event.
        let before = self.pending.len().saturating_sub(1);
        let checkpoint = Checkpoint {
            states: parents,
            transcript_len: self.cursor,
            turn: self.turn.clone(),
            pending: self.pending[..before].to_vec(),
            exact: was_exact,
            turns: self.turns,
            scale: self.scale,
            relvar: self.relvar,
        };
        if overflowed && was_exact {
            // Keep the last exact set to rebuild from if the sample dies out.
            let plies = self.transcript[..self.cursor]
                .iter()
                .filter(|o| o.moved)
                .count() as u32;
            self.last_exact = (parent_count, plies);
            self.checkpoint = Some(checkpoint);
            self.recent.clear();
        } else if !was_exact && !checkpoint.states.is_empty() {
            // A recent sampled set to regrow from (`belief/repair.rs`).
            self.recent.push_back(checkpoint);
            self.thin_checkpoints();
        }
        self.turns += 1;
        self.refreshed = 0;
        self.rejuvenated = false;
        if expanded > 0 {
            self.branching = (seen_children as f64 / expanded as f64).max(1.0);
        }
        // Every hypothesis offered a position of its own: none is split, no pass needed.
        let unsplit = !threefold || seen == seen_children;
        self.states = states;
        for (h, node) in self.states.iter_mut().zip(nodes) {
            h.node = self.witnesses.push(node);
        }
        if let Some(d) = distinct {
            self.distinct = d;
        } else if unsplit {
            self.distinct = self.states.len();
        } else {
            self.count_distinct();
        }
        if !was_exact || overflowed {
            self.exact = false;
            if self.distinct > 0 {
                // Distinct children per expanded parent, times the estimated parents, over the
                // children kept.
                self.scale =
                    self.scale * seen as f64 * seen_share / parent_share / self.distinct as f64;
                if expanded > 1 && parent_share < 1.0 {
                    let n = expanded as f64;
                    let mean = sum / n;
                    let var = (sum_sq / n - mean * mean).max(0.0) * n / (n - 1.0);
                    if mean > 0.0 {
                        self.relvar += var / (n * mean * mean) * (1.0 - parent_share);
                    }
                }
            }
        }
        if self.budget.is_none() {
            // Not within a repair, which holds checkpoints taken out of the belief.
            self.compact_witnesses();
        }
    }
    /// Renumbers the witness nodes once most are dead: those of the held hypotheses and of the
    /// checkpoints (a repair restarts from them) stay.
    fn compact_witnesses(&mut self) {
        if self.regrowth.is_some() {
            // The repair's checkpoints, taken out of the belief, keep the present numbering.
            return;
        }
        let mut kept = self.states.len();
        kept += self.checkpoint.as_ref().map_or(0, |c| c.states.len());
        kept += self.recent.iter().map(|c| c.states.len()).sum::<usize>();
        if self.witnesses.len() <= 4 * kept + 1024 {
            return;
        }
        let mut live: Vec<u32> = self.states.iter().map(|h| h.node).collect();
        for cp in self.checkpoint.iter().chain(self.recent.iter()) {
            live.extend(cp.states.iter().map(|h| h.node));
        }
        self.witnesses.compact(&mut live);
        let mut renumbered = live.into_iter();
        let mut renumber = |states: &mut Vec<Hypothesis>| {
            for h in states {
                h.node = renumbered.next().unwrap_or(ROOT);
            }
        };
        renumber(&mut self.states);
        for cp in self.checkpoint.iter_mut().chain(self.recent.iter_mut()) {
            renumber(&mut cp.states);
        }
    }
    /// Counts `work` (children offered, hypotheses judged), and takes it from a repair's
    /// budget if one runs.
    fn spend(&mut self, work: u64) {
        self.work += work;
        if let Some(b) = &mut self.budget {
            *b = b.saturating_sub(work);
        }
    }
}

/// What the halfmove clock adds to a key (0 where the fifty-move rule is not in force).
fn clock_word(pos: &Chess, fifty: bool) -> u64 {
    let clock = if fifty { u64::from(pos.halfmoves()) } else { 0 };
    clock.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Keeps each position's first hypothesis (`primary`) and its witness node, as a reservoir
/// keeps one per position; `nodes` runs beside `states`, one node each.
fn keep_primaries(states: &mut Vec<Hypothesis>, nodes: &mut Vec<Node>) {
    let mut i = 0;
    nodes.retain(|_| {
        let keep = states.get(i).is_some_and(|h| h.primary);
        i += 1;
        keep
    });
    states.retain(|h| h.primary);
}

/// Whether two positions are the same hypothesis.
fn same(a: &Chess, b: &Chess, fifty: bool) -> bool {
    a == b && (!fifty || a.halfmoves() == b.halfmoves())
}

/// What our command is judged by in every held hypothesis (shared by the threads of an update).
struct OwnTurn<'a> {
    sim: RuleSet,
    /// Our earlier commands of this turn.
    earlier: &'a [Command],
    command: Command,
    /// What the player heard, prepared for the comparisons.
    expected: Expected,
    witnesses: &'a Witnesses,
    start: Option<u64>,
    threefold: bool,
    /// Whether the real game ended by repetition with this command.
    repeated: bool,
}

impl OwnTurn<'_> {
    /// Keeps the hypotheses of `chunk` that the umpire would have answered as the player heard
    /// (moved on by our move where it was made), in order, at the front of `chunk` (in place:
    /// no new set is allocated); returns how many, and whether our move was made.
    fn judge(&self, chunk: &mut [Hypothesis]) -> (usize, bool) {
        let mut kept = 0;
        let mut moved = false;
        let mut scratch = None;
        for r in 0..chunk.len() {
            let h = &mut chunk[r];
            match own_step(
                &mut scratch,
                self.sim,
                &h.pos,
                self.earlier,
                self.command,
                &self.expected,
            ) {
                Step::Drop => continue,
                Step::Stay => {}
                Step::Moved(pos) => {
                    moved = true;
                    let mut rep = 0;
                    if self.threefold {
                        let hash = zobrist(&pos);
                        let zeroing = pos.halfmoves() == 0;
                        let mut count = 1;
                        if !zeroing && pos.halfmoves() >= 8 {
                            count += self.witnesses.occurrences(hash, h.node, self.start);
                        }
                        if (count >= 3) != self.repeated {
                            continue;
                        }
                        rep = if zeroing {
                            scramble(hash)
                        } else {
                            h.rep.wrapping_add(scramble(hash))
                        };
                    }
                    h.pos = pos;
                    h.rep = rep;
                    h.primary = true;
                }
            }
            if kept != r {
                // A hypothesis is large: no swap with itself.
                chunk.swap(kept, r);
            }
            kept += 1;
        }
        (kept, moved)
    }
}

/// What the opponent's turn is judged by in every parent (shared by the threads of an update).
struct Spread<'a> {
    sim: RuleSet,
    fifty: bool,
    /// The opponent's informative observations of the turn, its move last.
    events: &'a [Observation],
    witnesses: &'a Witnesses,
    start: Option<u64>,
    threefold: bool,
    /// Whether the real game ended by repetition with the opponent's move.
    repeated: bool,
}

impl Spread<'_> {
    /// Where repetition is in force: whether `pos` (Zobrist hash `hash`), reached from `h`
    /// (hash `before`, its halfmove clock zero or not), repeats a position as often as the real
    /// game's end (or not) says: a third occurrence exactly where the game ended by repetition.
    fn repetition_agrees(
        &self,
        h: &Hypothesis,
        before: u64,
        before_zeroing: bool,
        pos: &Chess,
        hash: u64,
    ) -> bool {
        let mut count = 1;
        if pos.halfmoves() != 0 && pos.halfmoves() >= 8 {
            count += u32::from(before == hash);
            if !before_zeroing {
                count += self.witnesses.occurrences(hash, h.node, self.start);
            }
        }
        (count >= 3) == self.repeated
    }

    /// Finds every child of `h`: each position the opponent could have reached while the
    /// player heard what it heard (and, where repetition is in force, whose repetition count
    /// agrees with whether the game ended there), in the order found. Each is first shown to
    /// `keep` as the umpire that has just played its move; `emit` receives those `keep` accepts
    /// (the child built only then: a lookahead rules most children out). `pick` is asked about
    /// each move before it is judged (see [`expand_opponent`]). `scratch` holds the umpires
    /// between calls.
    fn children(
        &self,
        h: &Hypothesis,
        scratch: &mut OpponentScratch,
        pick: &mut impl FnMut(Attempt) -> bool,
        keep: &mut impl FnMut(&Umpire) -> bool,
        emit: &mut impl FnMut(Child),
    ) {
        let threefold = self.threefold;
        let (before, before_zeroing) = if threefold {
            (zobrist(&h.pos), h.pos.halfmoves() == 0)
        } else {
            (0, false)
        };
        let mut child = |played: &Umpire, mv: Attempt, hash: u64| {
            let pos = played.position();
            let mut rep = 0;
            let mut zeroing = 0;
            if threefold {
                let after_zeroing = pos.halfmoves() == 0;
                if !self.repetition_agrees(h, before, before_zeroing, pos, hash) {
                    return;
                }
                rep = if after_zeroing {
                    scramble(hash)
                } else {
                    h.rep.wrapping_add(scramble(hash))
                };
                zeroing = u8::from(before_zeroing) * BEFORE_ZEROING
                    + u8::from(after_zeroing) * AFTER_ZEROING;
            }
            if !keep(played) {
                return;
            }
            // Where hypotheses split by repetition history, positions are counted apart.
            let board = board_hash(pos);
            let clock = clock_word(pos, self.fifty);
            emit(Child {
                k: key_of_board(board, hash, rep ^ clock),
                position_key: threefold.then(|| key_of_board(board, hash, clock)),
                pos: pos.clone(),
                rep,
                node: Node {
                    parent: h.node,
                    mv,
                    before,
                    after: if threefold { hash } else { 0 },
                    zeroing,
                },
            });
        };
        expand_opponent(scratch, self.sim, &h.pos, self.events, pick, &mut child);
    }
}

/// The children of one block of parents, found by one thread: `counts[i]` children of the
/// block's `i`-th parent, in order.
#[derive(Default)]
struct Block {
    children: Vec<Child>,
    /// Per parent: the children kept in `children` and the children found.
    counts: Vec<(u32, u32)>,
    /// The umpire a lookahead judges children with, kept between parents.
    scratch: Option<Umpire>,
    /// The umpires the opponent's turns are expanded with, kept between parents.
    opponent: OpponentScratch,
}

/// The children of one opponent turn, deduplicated; over the bound, a uniform reservoir.
///
/// Every child costs one probe of a [`KeyTable`] (one cache line) by its full key: the table
/// holds every child offered, kept or not, so it tells new children from repeated ones under
/// and over the bound alike. Where repetition histories split hypotheses, a new child costs one
/// more probe by its position's key: the first hypothesis of each position is its primary one,
/// so under the bound the distinct positions are known without another pass. The probes are
/// prefetched one child ahead (see [`Pool::offer`]).
struct Pool {
    /// The most children kept: the bound (or more particles) while no child was dropped.
    bound: usize,
    /// The most children kept once one is dropped (at most `bound`).
    particles: usize,
    items: Vec<Hypothesis>,
    nodes: Vec<Node>,
    /// The full keys (position and repetition history) of every child offered.
    offered: KeyTable,
    /// Where hypotheses split by repetition history: the keys of the positions offered.
    positions: KeyTable,
    /// Under the bound: the primary items (distinct positions).
    distinct: usize,
    /// Distinct children offered.
    seen: u64,
    overflowed: bool,
    /// The child offered last, not placed yet.
    pending: Option<Child>,
}

/// A child offered to a [`Pool`].
struct Child {
    k: Key,
    position_key: Option<Key>,
    pos: Chess,
    rep: u64,
    node: Node,
}

impl Pool {
    /// A pool expecting about `guess` children (the items capped at the bound); `threefold`:
    /// hypotheses may split by repetition history.
    fn new(bound: usize, particles: usize, guess: usize, threefold: bool) -> Pool {
        let guess = guess.max(16);
        let kept = guess.min(bound);
        Pool {
            bound,
            particles: particles.min(bound),
            items: Vec::with_capacity(kept),
            nodes: Vec::with_capacity(kept),
            offered: KeyTable::with_capacity(guess),
            positions: KeyTable::with_capacity(if threefold { guess } else { 0 }),
            distinct: 0,
            seen: 0,
            overflowed: false,
            pending: None,
        }
    }

    /// Offers a child: `k` its full key, `position_key` its key without the repetition
    /// history (where repetition splits hypotheses). The child is placed at the next offer (or
    /// [`Pool::flush`]); its table slots are prefetched now, so that the cache misses overlap
    /// with judging the next child. Children are placed in the order offered.
    fn offer(&mut self, child: Child, rng: &mut Xoshiro256PlusPlus) {
        self.offered.prefetch(child.k);
        if let Some(pk) = child.position_key {
            self.positions.prefetch(pk);
        }
        if let Some(previous) = self.pending.replace(child) {
            self.place(&previous, rng);
        }
    }

    /// Offers `children` in order and places them all, as [`Pool::offer`] of each and a
    /// [`Pool::flush`] would (the same placements, each child's slots prefetched while the one
    /// before is placed), reading them in place instead of moving each through the pool.
    fn offer_all(&mut self, children: &[Child], rng: &mut Xoshiro256PlusPlus) {
        self.flush(rng);
        let prefetch = |pool: &Pool, child: &Child| {
            pool.offered.prefetch(child.k);
            if let Some(pk) = child.position_key {
                pool.positions.prefetch(pk);
            }
        };
        if let Some(first) = children.first() {
            prefetch(self, first);
        }
        for (i, child) in children.iter().enumerate() {
            if let Some(next) = children.get(i + 1) {
                prefetch(self, next);
            }
            self.place(child, rng);
        }
    }

    /// Places the child offered last (call before reading the counts).
    fn flush(&mut self, rng: &mut Xoshiro256PlusPlus) {
        if let Some(child) = self.pending.take() {
            self.place(&child, rng);
        }
    }

    /// Places one child: a repeated one is dropped; a new one is kept under the bound, and
    /// over it enters the reservoir with the probability that keeps the reservoir uniform.
    ///
    /// Over the bound the reservoir is uniform over *positions*, each held with one repetition
    /// history (the first found): where repetition splits hypotheses, a position reached from
    /// `k` parents arrives with up to `k` histories, and a reservoir over hypotheses would hold it
    /// about `k` times as often as a position of one parent, against the belief's uniform
    /// distribution over positions (`tests/parent_bias.rs`, issue 30).
    /// The child is read in place: its position is copied once, into the pool, and only where
    /// it is kept.
    fn place(&mut self, child: &Child, rng: &mut Xoshiro256PlusPlus) {
        let &Child {
            k,
            position_key,
            ref pos,
            rep,
            node,
        } = child;
        if !self.offered.insert(k) {
            return;
        }
        self.seen += 1;
        let new_position = position_key.is_none_or(|pk| self.positions.insert(pk));
        let fresh = |primary: bool| Hypothesis {
            pos: pos.clone(),
            node: node.parent,
            rep,
            primary,
        };
        if !self.overflowed && self.items.len() < self.bound {
            self.distinct += usize::from(new_position);
            self.items.push(fresh(new_position));
            self.nodes.push(node);
            return;
        }
        if !self.overflowed {
            // The first child dropped: the items are every child seen before it. Their
            // positions (one hypothesis each), or a uniform choice of `particles` of them in
            // their order, are a uniform reservoir over the positions seen, which goes on from
            // here.
            self.overflowed = true;
            self.keep_primaries();
            if self.items.len() > self.particles {
                self.shrink(rng);
            }
            self.bound = self.particles;
        }
        if !new_position {
            // Another repetition history of a position already seen.
            return;
        }
        if self.items.len() < self.bound {
            self.items.push(fresh(true));
            self.nodes.push(node);
            return;
        }
        let j = rng.random_range(0..self.positions_seen(position_key.is_some()));
        if (j as usize) < self.bound {
            let j = j as usize;
            self.items[j] = fresh(true);
            self.nodes[j] = node;
        }
    }

    /// Keeps the primary items only (each position's first hypothesis), in order.
    fn keep_primaries(&mut self) {
        if self.distinct == self.items.len() {
            return;
        }
        let mut w = 0;
        for r in 0..self.items.len() {
            if self.items[r].primary {
                if w != r {
                    self.items.swap(w, r);
                    self.nodes.swap(w, r);
                }
                w += 1;
            }
        }
        self.items.truncate(w);
        self.nodes.truncate(w);
        self.distinct = w;
    }

    /// Keeps a uniform choice of `particles` items, in order.
    fn shrink(&mut self, rng: &mut Xoshiro256PlusPlus) {
        let keep = stratified::uniform_choice(rng, self.items.len(), self.particles);
        stratified::keep_in_order(&mut self.items, &keep);
        stratified::keep_in_order(&mut self.nodes, &keep);
    }

    /// Distinct positions offered (hypotheses differ from them only by repetition history).
    fn positions_seen(&self, threefold: bool) -> u64 {
        if threefold {
            self.positions.len() as u64
        } else {
            self.seen
        }
    }

    /// The children kept, their witness nodes, under the bound the distinct positions among
    /// them (their primary flags set).
    fn finish(self) -> (Vec<Hypothesis>, Vec<Node>, Option<usize>) {
        debug_assert!(self.pending.is_none(), "flushed");
        let distinct = (!self.overflowed).then_some(self.distinct);
        (self.items, self.nodes, distinct)
    }
}
