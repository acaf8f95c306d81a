//! [`Endgame`]: tablebase endgame technique around any [`Agent`].
//!
//! When the player's own view is a tablebase ending against a lone king — its own men are the
//! king and the men of KRK, KQK, KBBK (bishops on opposite colours) or KBNK (unless turned off), and
//! the enemy count says only the king is left — the wrapper plays the table's best attempt.
//! The set of squares where the lone king may stand is tracked from the player's own
//! observations with the split and spread the tables are built on ([`KingTracker`]), starting
//! from every square when the ending is reached. Everywhere else, and whenever the table knows
//! no forced mate from the tracked set, the wrapped agent decides.
//!
//! The tables are for `wild16`, where the answers they model (illegal, silent, the check
//! kinds) are what the umpire says; under other rule sets the wrapper always defers. A Black
//! player's view is mirrored top to bottom (check kinds do not change under the mirror).
//!
//! Tables are loaded once per process, from a cache directory where the first build on the
//! machine left them: before the first decision by whoever runs agents under a budget
//! ([`prepare_tables`]), else at a decision's first need ([`tables::table`]). Only that first build is slow (KBNK about
//! 31 s on the project's two-core machine); [`EndgameConfig::kbnk`] turns KBNK off where even
//! one such pause is unwelcome.
//!
//! Outside the tables (a queen or rook with pawns or other men left), while the enemy is down
//! to its king and at most two men that may all be pawns, the wrapper closes `darkboard`'s
//! mating net over the enemy king's possible squares ([`NetCloser`], on by
//! [`EndgameConfig::net`]), each option charged for the share of the wrapped agent's own
//! positions in which it stalemates ([`Agent::stalemate_shares`]: `mcts` answers from its
//! belief, which may still know where a pawn stands after the metaposition has lost track of
//! it); [`DarkboardAgent`](crate::DarkboardAgent) is wrapped without it,
//! since it closes the same net itself with its own root terms. Everywhere else the wrapped
//! agent decides.

mod closer;
pub mod tables;
mod tracker;

use umpire_rules::shakmaty::{Color, Role, Square};
use umpire_rules::{Announcement, Attempt, AttemptList, Command, Observation, RuleSetId, Verdict};
use umpire_tablebase::{Ending, Layout};
use umpire_view::{PlayerView, ViewError};

pub use closer::NetCloser;
pub use tracker::KingTracker;

use crate::{Agent, Analysis};

/// Which tables the wrapper uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameConfig {
    /// Use the KBNK table (about 31 s to build the first time on a machine, then loaded from
    /// the cache).
    pub kbnk: bool,
    /// Close the mating net beyond the tables ([`NetCloser`]).
    pub net: bool,
}

impl Default for EndgameConfig {
    /// Every table: KRK, KQK, KBBK and KBNK, and the net beyond them.
    fn default() -> EndgameConfig {
        EndgameConfig {
            kbnk: true,
            net: true,
        }
    }
}

/// Loads the tables an agent wrapped with `config` uses (every ending, KBNK only where
/// `config` has it) before any decision needs them ([`tables::prepare`]).
pub fn prepare_tables(config: EndgameConfig) {
    let endings: Vec<Ending> = Ending::ALL
        .into_iter()
        .filter(|&e| e != Ending::Kbnk || config.kbnk)
        .collect();
    tables::prepare(&endings);
}

/// Tablebase technique around the agent `A` (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Endgame<A: Agent> {
    inner: A,
    config: EndgameConfig,
    tracker: KingTracker,
    /// The analysis of the last table or net move (the inner agent's otherwise).
    table_analysis: Option<Analysis>,
    /// Decisions taken from a table.
    table_moves: u64,
    /// The mating net beyond the tables, if the configuration has it.
    closer: Option<Box<NetCloser>>,
    /// Decisions taken by the net.
    net_moves: u64,
    options: AttemptList,
    /// Per net option, the share of the wrapped agent's positions in which it stalemates.
    stalemates: Vec<f32>,
}

/// Mirrors a square for Black (tables are for White).
fn orient(side: Color, sq: Square) -> Square {
    if side == Color::White {
        sq
    } else {
        sq.flip_vertical()
    }
}

/// Mirrors an attempt for Black.
pub(crate) fn orient_attempt(side: Color, a: Attempt) -> Attempt {
    Attempt {
        from: orient(side, a.from),
        to: orient(side, a.to),
        promotion: a.promotion,
    }
}

/// The table ending and layout of `view`, White-oriented, if the view is a tablebase ending
/// against a lone king under `wild16` and the ending is enabled.
pub fn table_position(view: &PlayerView, config: EndgameConfig) -> Option<(Ending, Layout)> {
    if view.rules().id != RuleSetId::Wild16 || view.enemy().men != 1 {
        return None;
    }
    let side = view.side();
    let board = view.own_board().board();
    let mine = board.by_color(side);
    let king = board.king_of(side)?;
    let mut men = [(Role::Pawn, Square::A1); 2];
    let mut n = 0;
    for sq in mine {
        let role = board.role_at(sq)?;
        if role == Role::King {
            continue;
        }
        if n == 2 {
            return None;
        }
        men[n] = (role, orient(side, sq));
        n += 1;
    }
    let layout = Layout::new(orient(side, king), &men[..n]).ok()?;
    let ending = Ending::ALL.into_iter().find(|e| e.accepts(&layout))?;
    (ending != Ending::Kbnk || config.kbnk).then_some((ending, layout))
}

impl<A: Agent> Endgame<A> {
    /// `inner` with the default tables.
    pub fn new(inner: A) -> Endgame<A> {
        Endgame::with_config(inner, EndgameConfig::default())
    }

    /// `inner` with the tables of `config`.
    pub fn with_config(inner: A, config: EndgameConfig) -> Endgame<A> {
        let closer = config.net.then(|| Box::new(NetCloser::new(inner.view())));
        Endgame {
            inner,
            config,
            tracker: KingTracker::default(),
            table_analysis: None,
            table_moves: 0,
            closer,
            net_moves: 0,
            options: AttemptList::new(),
            stalemates: Vec::new(),
        }
    }

    /// `inner` in a game whose lone enemy king is known to stand on one of `king_squares`
    /// (bit `i` for square `i`, seen from the player's own side as the board is: a set-up
    /// start the organiser announced): tracking starts from that set instead of every square.
    pub fn knowing(inner: A, config: EndgameConfig, king_squares: u64) -> Endgame<A> {
        let side = inner.view().side();
        let mut set = 0u64;
        for sq in umpire_rules::shakmaty::Bitboard(king_squares) {
            set |= 1u64 << (orient(side, sq) as u32);
        }
        let mut agent = Endgame::with_config(inner, config);
        agent.tracker = KingTracker::starting(set);
        agent
    }

    /// The wrapped agent.
    pub fn inner(&self) -> &A {
        &self.inner
    }

    /// Decisions taken from a table so far.
    pub fn table_moves(&self) -> u64 {
        self.table_moves
    }

    /// Decisions taken by the mating net beyond the tables.
    pub fn net_moves(&self) -> u64 {
        self.net_moves
    }

    /// The tracked set of lone-king squares (White-oriented), while an ending is tracked.
    pub fn tracked_set(&self) -> Option<u64> {
        self.tracker.set()
    }

    /// The table's attempt for the current view, if it has one.
    fn table_choice(&mut self) -> Option<Attempt> {
        let view = self.inner.view();
        let (ending, layout) = table_position(view, self.config)?;
        let side = view.side();
        let set = self.tracker.current(layout);
        let probe = tables::table(ending).probe(layout, set).ok()?;
        let distance = probe.distance?;
        self.options.clear();
        view.options(&mut self.options);
        let pick = probe
            .best
            .iter()
            .map(|a| orient_attempt(side, *a))
            .find(|a| self.options.contains(a))?;
        self.table_analysis = Some(Analysis {
            // Mate is certain; sooner mates score a little higher.
            value: 1.0 - f64::from(distance) / 1000.0,
            line: vec![Command::Attempt(pick)],
            nodes: 0,
        });
        Some(pick)
    }
}

impl<A: Agent> Agent for Endgame<A> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn view(&self) -> &PlayerView {
        self.inner.view()
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.inner.hear_opening(announcements);
        if let Some(closer) = &mut self.closer {
            closer.hear_opening(self.inner.view());
        }
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        // The layout before the observation, for the tracker.
        let before = table_position(self.inner.view(), self.config).map(|(_, l)| l);
        self.inner.observe(observation)?;
        if let Some(closer) = &mut self.closer {
            closer.observe(self.inner.view(), observation);
        }
        let side = self.inner.view().side();
        match observation.own {
            Some(own) => {
                let attempt = match own.command {
                    Command::Attempt(a) => Some(orient_attempt(side, a)),
                    _ => None,
                };
                let checks = observation.announcements.iter().filter_map(|a| match a {
                    Announcement::Check(k) => Some(*k),
                    _ => None,
                });
                match (before, attempt, own.verdict) {
                    (Some(layout), Some(a), Verdict::Illegal) => {
                        self.tracker.illegal(layout, a);
                    }
                    (Some(layout), Some(a), Verdict::Accepted) => {
                        self.tracker.moved(layout, a, checks);
                    }
                    (_, _, v) if v.is_rejection() || v == Verdict::Answered => {}
                    _ => self.tracker.forget(),
                }
            }
            None => {
                // The opponent's move: the spread was applied with our move; a capture of one
                // of our men changes the ending, so start again.
                if observation
                    .announcements
                    .iter()
                    .any(|a| matches!(a, Announcement::Capture { .. }))
                {
                    self.tracker.forget();
                }
            }
        }
        Ok(())
    }

    fn choose(&mut self) -> Command {
        if let Some(a) = self.table_choice() {
            self.table_moves += 1;
            return Command::Attempt(a);
        }
        self.table_analysis = None;
        if let Some(closer) = self.closer.as_mut()
            && let Some(options) = closer.options(self.inner.view())
        {
            // The net's choice, checked against the wrapped agent's own positions where it
            // keeps any (the metaposition may have lost track of a pawn that blocks a check).
            self.options.clear();
            self.options.extend(options.iter().copied());
            let checked = self
                .inner
                .stalemate_shares(&self.options, &mut self.stalemates);
            let (a, analysis) = closer.pick(checked.then_some(&self.stalemates[..]));
            self.net_moves += 1;
            self.table_analysis = Some(analysis);
            return Command::Attempt(a);
        }
        self.inner.choose()
    }

    fn accepts_draw(&mut self) -> bool {
        if table_position(self.inner.view(), self.config).is_some() {
            return false;
        }
        self.inner.accepts_draw()
    }

    fn stalemate_shares(&mut self, attempts: &[Attempt], out: &mut Vec<f32>) -> bool {
        self.inner.stalemate_shares(attempts, out)
    }

    fn analysis(&self) -> Option<&Analysis> {
        self.table_analysis
            .as_ref()
            .or_else(|| self.inner.analysis())
    }
}
