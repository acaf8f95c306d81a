//! [`Belief`]: the positions a player cannot rule out, kept exactly while few enough, sampled
//! beyond a bound.

use rand::seq::{SliceRandom, index};
use rand::{Rng, RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use umpire_rules::{Announcement, Attempt, Command, Observation, RuleSet};

use crate::BeliefError;
use crate::simulate::{Step, expand_opponent, informative_event, own_step, simulation_rules};
use crate::witness::{ROOT, Witnesses};
use crate::zobrist_key::{KeyMap, KeySet};

/// The default bound on the exact set: beyond it the belief keeps a uniform sample of this
/// many hypotheses.
pub const DEFAULT_BOUND: usize = 1_000_000;

/// In sampling, the expansion of the opponent's turn stops once this many times the bound of
/// distinct children has been offered.
const EARLY_STOP: u64 = 4;

/// How a [`Belief`] is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeliefConfig {
    /// The most hypotheses kept; over it the set is sampled.
    pub bound: usize,
    /// The seed of every random choice (sub-sampling, repairs).
    pub seed: u64,
}

impl Default for BeliefConfig {
    fn default() -> BeliefConfig {
        BeliefConfig {
            bound: DEFAULT_BOUND,
            seed: 0,
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
}

/// Where to restart if every sampled hypothesis dies: the last exact set and the transcript
/// position it stood at.
#[derive(Clone, Debug)]
struct Checkpoint {
    states: Vec<Hypothesis>,
    transcript_len: usize,
    turn: Vec<Command>,
    pending: Vec<Observation>,
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
    bound: usize,
    rng: Xoshiro256PlusPlus,
    turn: Vec<Command>,
    pending: Vec<Observation>,
    transcript: Vec<Observation>,
    checkpoint: Option<Checkpoint>,
    /// Index in the transcript of the observation being taken in.
    cursor: usize,
    repairs: u32,
    over: bool,
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
            }],
            start,
            witnesses: Witnesses::default(),
            exact: true,
            scale: 1.0,
            bound: config.bound.max(1),
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            turn: Vec::new(),
            pending: Vec::new(),
            transcript: Vec::new(),
            checkpoint: None,
            cursor: 0,
            repairs: 0,
            over: false,
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

    /// Whether the set is exact (every consistent position is held).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// How many positions are held (the exact set's size while exact, the sample's otherwise).
    pub fn held(&self) -> usize {
        self.states.len()
    }

    /// The size of the set of consistent positions: exact while [`Belief::is_exact`], else an
    /// estimate: kept hypotheses times the sampling factor, which multiplies, turn by turn, the
    /// distinct children per expanded parent. Positions reached from several parents (move
    /// orders) are counted once per sampled parent only, so over many sampled turns the estimate
    /// grows far above the true size: read it as a rough upper estimate.
    pub fn size(&self) -> u64 {
        if self.exact {
            self.states.len() as u64
        } else {
            (self.states.len() as f64 * self.scale).round() as u64
        }
    }

    /// How many times the sampled set died out and a rebuild from the last exact set was tried.
    pub fn repairs(&self) -> u32 {
        self.repairs
    }

    /// The positions held (all consistent positions while exact).
    pub fn positions(&self) -> impl ExactSizeIterator<Item = &Chess> + '_ {
        self.states.iter().map(|h| &h.pos)
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
        let n = n.min(self.states.len());
        index::sample(rng, self.states.len(), n).into_vec()
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
        if obs.player != self.side {
            return Err(BeliefError::WrongPlayer {
                belief: self.side,
                observer: obs.player,
            });
        }
        if obs.actor == self.side && obs.own.is_none() {
            return Err(BeliefError::MissingOwnCommand);
        }
        self.cursor = self.transcript.len();
        self.transcript.push(obs.clone());
        self.update(obs);
        if self.states.is_empty() && !self.exact {
            self.repair();
        }
        Ok(())
    }

    /// Applies one observation to the set.
    fn update(&mut self, obs: &Observation) {
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
                self.expand();
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
        let mut kept = Vec::with_capacity(self.states.len());
        let mut moved = false;
        for h in self.states.drain(..) {
            match own_step(self.sim, &h.pos, &self.turn, command, obs) {
                Step::Drop => {}
                Step::Stay => kept.push(h),
                Step::Moved(pos) => {
                    moved = true;
                    kept.push(Hypothesis { pos, node: h.node });
                }
            }
        }
        if moved {
            // A capture whose man the umpire does not name can merge hypotheses.
            kept = dedup(kept, self.rules.fifty_moves);
        }
        self.states = kept;
    }

    /// The opponent's turn: every hypothesis spreads into every position the opponent could
    /// have reached while the player heard exactly what it heard.
    fn expand(&mut self) {
        let mut parents = std::mem::take(&mut self.states);
        let mut pool = Pool::new(self.bound, self.rules.fifty_moves);
        let events = std::mem::take(&mut self.pending);
        // Parents in random order: once the children offered pass `EARLY_STOP` times the bound
        // the result is a sample anyway, and the rest of the parents are left out (the estimate
        // scales by the share of parents expanded).
        if parents.len() > 1 {
            parents.shuffle(&mut self.rng);
        }
        let mut expanded = 0usize;
        for h in &parents {
            expand_opponent(self.sim, &h.pos, &events, &mut |pos, mv| {
                pool.offer(pos, h.node, mv, &mut self.rng);
            });
            expanded += 1;
            if pool.seen >= EARLY_STOP * self.bound as u64 {
                break;
            }
        }
        let parent_share = expanded as f64 / parents.len().max(1) as f64;
        self.pending = events;
        let was_exact = self.exact;
        if pool.overflowed && was_exact {
            // Keep the last exact set to rebuild from if the sample dies out.
            // As before the opponent's move was taken in: its observation is the last event.
            let before = self.pending.len().saturating_sub(1);
            self.checkpoint = Some(Checkpoint {
                states: parents,
                transcript_len: self.cursor,
                turn: self.turn.clone(),
                pending: self.pending[..before].to_vec(),
            });
        }
        let seen = pool.seen;
        let children = pool.finish();
        self.states = Vec::with_capacity(children.len());
        for (pos, parent, mv) in children {
            let node = self.witnesses.push(parent, mv);
            self.states.push(Hypothesis { pos, node });
        }
        if !was_exact || seen > self.states.len() as u64 {
            self.exact = false;
            self.scale = if self.states.is_empty() {
                self.scale
            } else {
                self.scale * seen as f64 / parent_share / self.states.len() as f64
            };
        }
        let checkpointed = self.checkpoint.as_ref().map_or(0, |c| c.states.len());
        if self.witnesses.len() > 4 * (self.states.len() + checkpointed) + 1024 {
            // The checkpoint's hypotheses keep their witnesses too (a repair restarts from them).
            let mut live: Vec<u32> = self.states.iter().map(|h| h.node).collect();
            if let Some(cp) = &self.checkpoint {
                live.extend(cp.states.iter().map(|h| h.node));
            }
            self.witnesses.compact(&mut live);
            let mut renumbered = live.into_iter();
            for h in &mut self.states {
                h.node = renumbered.next().unwrap_or(ROOT);
            }
            if let Some(cp) = &mut self.checkpoint {
                for h in &mut cp.states {
                    h.node = renumbered.next().unwrap_or(ROOT);
                }
            }
        }
    }

    /// Every sampled hypothesis died: rebuild from the last exact set with fresh random
    /// choices and a sample four times larger each time, replaying the observations since (at
    /// most three times per death). If all fail the belief is empty and not exact.
    fn repair(&mut self) {
        if self.checkpoint.is_none() {
            return;
        }
        let bound = self.bound;
        for attempt in 1..=3u32 {
            // Read afresh each time: a replay may renumber the witnesses (and the checkpoint's).
            let Some(cp) = self.checkpoint.clone() else {
                break;
            };
            self.repairs += 1;
            self.bound = bound.saturating_mul(4usize.pow(attempt));
            self.states = cp.states.clone();
            self.turn = cp.turn.clone();
            self.pending = cp.pending.clone();
            self.exact = true;
            self.scale = 1.0;
            self.over = false;
            let later: Vec<Observation> = self.transcript[cp.transcript_len..].to_vec();
            for (k, obs) in later.iter().enumerate() {
                self.cursor = cp.transcript_len + k;
                self.update(obs);
                if self.states.is_empty() {
                    break;
                }
            }
            if !self.states.is_empty() {
                break;
            }
        }
        self.bound = bound;
        if self.states.is_empty() {
            self.exact = false;
        }
    }
}

/// The dedup key of a position: its Zobrist hash (men, side to move, castling, legal e.p.)
/// and, where the fifty-move rule is in force, its halfmove clock.
fn key(pos: &Chess, fifty: bool) -> (u64, u32) {
    let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    (z.0, if fifty { pos.halfmoves() } else { 0 })
}

/// Whether two positions are the same hypothesis.
fn same(a: &Chess, b: &Chess, fifty: bool) -> bool {
    a == b && (!fifty || a.halfmoves() == b.halfmoves())
}

/// Removes repeated positions (keeping the first witness).
fn dedup(states: Vec<Hypothesis>, fifty: bool) -> Vec<Hypothesis> {
    let mut seen: KeyMap<u32> = KeyMap::with_capacity_and_hasher(states.len(), Default::default());
    let mut out: Vec<Hypothesis> = Vec::with_capacity(states.len());
    for h in states {
        let k = key(&h.pos, fifty);
        match seen.get(&k) {
            Some(&i) if same(&out[i as usize].pos, &h.pos, fifty) => {}
            Some(_) => out.push(h),
            None => {
                seen.insert(k, out.len() as u32);
                out.push(h);
            }
        }
    }
    out
}

/// The children of one opponent turn, deduplicated; over the bound, a uniform reservoir.
struct Pool {
    bound: usize,
    fifty: bool,
    items: Vec<(Chess, u32, Attempt)>,
    index: KeyMap<u32>,
    /// Distinct children offered.
    seen: u64,
    /// Keys of every child offered, kept once the reservoir is full.
    offered: KeySet,
    overflowed: bool,
}

impl Pool {
    fn new(bound: usize, fifty: bool) -> Pool {
        Pool {
            bound,
            fifty,
            items: Vec::new(),
            index: KeyMap::default(),
            seen: 0,
            offered: KeySet::default(),
            overflowed: false,
        }
    }

    fn offer(&mut self, pos: &Chess, parent: u32, mv: Attempt, rng: &mut Xoshiro256PlusPlus) {
        let k = key(pos, self.fifty);
        if let Some(&i) = self.index.get(&k)
            && same(&self.items[i as usize].0, pos, self.fifty)
        {
            return;
        }
        if self.overflowed && !self.offered.insert(k) {
            // Offered before and evicted since: not a new child.
            return;
        }
        self.seen += 1;
        if self.items.len() < self.bound {
            self.index.insert(k, self.items.len() as u32);
            self.items.push((pos.clone(), parent, mv));
            return;
        }
        if !self.overflowed {
            self.overflowed = true;
            self.offered.extend(self.index.keys().copied());
            self.offered.insert(k);
        }
        let j = rng.random_range(0..self.seen);
        if (j as usize) < self.bound {
            let old = key(&self.items[j as usize].0, self.fifty);
            if self.index.get(&old) == Some(&(j as u32)) {
                self.index.remove(&old);
            }
            self.index.insert(k, j as u32);
            self.items[j as usize] = (pos.clone(), parent, mv);
        }
    }

    fn finish(self) -> Vec<(Chess, u32, Attempt)> {
        self.items
    }
}
