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
//! With more men than a table covers (rook and knight, queen and pawn, two rooks: the enemy
//! still down to its king), the wrapper plays the ending of the strongest table its men contain
//! ([`table_core`]: KQK before KRK before KBBK before KBNK) and leaves the surplus men where they
//! stand unless moving one is what helps ([`EndgameConfig::surplus`]). The lone king's squares
//! are then followed on the real board, every man in place ([`Board`]), and every move is
//! valued one move ahead on that board with the table's distances behind it
//! ([`Board::value`]): it must stalemate nowhere, leave no table man to the king, and lead only
//! to sets the table knows and sees whole (no square hidden behind a surplus man). The move
//! with the shortest worst-case mate is played, ties going to the move after which the next
//! decision may do best ([`Board::next_best`]: a surplus man's tempo keeps the distance, a
//! move that clears the table's lines shortens it next); when none qualifies, the wrapped
//! agent (and the net) decides that move.
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
//! it) or, where larger, for the share a guard counts over king squares and pawn placements
//! kept soundly past the squares where an enemy pawn may stand (`stalemate_guard.rs`: the
//! net's own squares drop a king square behind a possible pawn by a guess, and a restarted
//! belief may not hold the king's square); [`DarkboardAgent`](crate::DarkboardAgent) is
//! wrapped without it, since it closes the same net itself with its own root terms. Everywhere
//! else the wrapped agent decides.

mod closer;
mod progress;
mod stalemate_guard;
mod surplus;
pub mod tables;
pub mod tables_at_start;
mod tracker;
mod visits;

use umpire_rules::shakmaty::{Color, Role, Square};
use umpire_rules::{Announcement, Attempt, AttemptList, Command, Observation, RuleSetId, Verdict};
use umpire_tablebase::{Answer, Ending, Layout};
use umpire_view::{PlayerView, ViewError};

pub use closer::NetCloser;
pub use progress::{PUSH_FROM, ProgressClock};
pub use surplus::Board;
pub use tables_at_start::{TABLES_ENV, TableLoading};
pub use tracker::KingTracker;
pub use visits::Visits;

use crate::{Agent, Analysis};

/// Which tables the wrapper uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameConfig {
    /// Use the KBNK table (about 31 s to build the first time on a machine, then loaded from
    /// the cache).
    pub kbnk: bool,
    /// Close the mating net beyond the tables ([`NetCloser`]).
    pub net: bool,
    /// Play a table's ending when the player has more men than it covers, the surplus men
    /// left where they stand ([`table_core`]).
    pub surplus: bool,
    /// Charge the net's options for stalemates counted soundly past possible pawns
    /// (`stalemate_guard.rs`), beside the wrapped agent's belief.
    pub stalemate_guard: bool,
    /// Let the net prefer tries onto squares where an enemy pawn may stand as the fifty-move
    /// clock runs (`darkboard/capture_tries.rs`): taking a pawn resets the clock.
    pub capture_tries: bool,
}

impl Default for EndgameConfig {
    /// Every table: KRK, KQK, KBBK and KBNK, also with surplus men, and the net beyond them
    /// with the stalemate guard.
    fn default() -> EndgameConfig {
        EndgameConfig {
            kbnk: true,
            net: true,
            surplus: true,
            stalemate_guard: true,
            capture_tries: true,
        }
    }
}

/// Loads the tables an agent wrapped with `config` uses (every ending, KBNK only where
/// `config` has it) before any decision needs them ([`tables::prepare`]), and says where each
/// came from.
pub fn prepare_tables(config: EndgameConfig) -> Vec<(Ending, Option<tables::Source>)> {
    tables::prepare(&table_endings(config))
}

/// The endings whose tables an agent wrapped with `config` plays: every ending, KBNK only where
/// `config` has it.
pub fn table_endings(config: EndgameConfig) -> Vec<Ending> {
    Ending::ALL
        .into_iter()
        .filter(|&e| e != Ending::Kbnk || config.kbnk)
        .collect()
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
    /// The boards of the player's men after its recent moves with surplus men.
    visits: Visits,
    /// The fifty-move clock as the player counts it.
    clock: ProgressClock,
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

/// The tables in the order [`table_core`] prefers them: the fastest mates first.
const PREFERENCE: [Ending; 4] = [Ending::Kqk, Ending::Krk, Ending::Kbbk, Ending::Kbnk];

/// The table ending the player of `view` plays, White-oriented: the ending, the layout of the
/// king and the table's men, and the board with every man (the surplus men beside the table's,
/// if any). The exact table ending of [`table_position`] if it is one; else, with
/// [`EndgameConfig::surplus`], against a lone king under `wild16`, the strongest table ending
/// among the player's men ([`PREFERENCE`]), the first such men on the board.
pub fn table_core(view: &PlayerView, config: EndgameConfig) -> Option<(Ending, Layout, Board)> {
    if let Some((ending, layout)) = table_position(view, config) {
        return Some((ending, layout, Board::new(&layout, &[])?));
    }
    if !config.surplus || view.rules().id != RuleSetId::Wild16 || view.enemy().men != 1 {
        return None;
    }
    let side = view.side();
    let board = view.own_board().board();
    let king = orient(side, board.king_of(side)?);
    let mut men = [(Role::Pawn, Square::A1); 15];
    let mut n = 0;
    for sq in board.by_color(side) {
        let role = board.role_at(sq)?;
        if role == Role::King {
            continue;
        }
        *men.get_mut(n)? = (role, orient(side, sq));
        n += 1;
    }
    let mut best: Option<(usize, Ending, Layout, [usize; 2])> = None;
    for i in 0..n {
        for j in i..n {
            let pick = if i == j {
                &[men[i]][..]
            } else {
                &[men[i], men[j]][..]
            };
            let Ok(layout) = Layout::new(king, pick) else {
                continue;
            };
            let Some(ending) = Ending::ALL.into_iter().find(|e| e.accepts(&layout)) else {
                continue;
            };
            if ending == Ending::Kbnk && !config.kbnk {
                continue;
            }
            let rank = PREFERENCE.iter().position(|e| *e == ending)?;
            if best.is_none_or(|b| rank < b.0) {
                best = Some((rank, ending, layout, [i, j]));
            }
        }
    }
    let (_, ending, layout, picked) = best?;
    let mut rest = [(Role::Pawn, Square::A1); 15];
    let mut r = 0;
    for (k, man) in men[..n].iter().enumerate() {
        if !picked.contains(&k) {
            rest[r] = *man;
            r += 1;
        }
    }
    Some((ending, layout, Board::new(&layout, &rest[..r])?))
}

/// The answer the player heard to its accepted move: silent or the kinds of the checks.
fn heard(announcements: &[Announcement]) -> Answer {
    let mut kinds = [umpire_rules::CheckKind::Knight; 2];
    let mut n = 0;
    for a in announcements {
        if let Announcement::Check(k) = a
            && n < 2
        {
            kinds[n] = *k;
            n += 1;
        }
    }
    Answer::of_checks(&kinds[..n])
}

impl<A: Agent> Endgame<A> {
    /// `inner` with the default tables.
    pub fn new(inner: A) -> Endgame<A> {
        Endgame::with_config(inner, EndgameConfig::default())
    }

    /// `inner` with the tables of `config`.
    pub fn with_config(inner: A, config: EndgameConfig) -> Endgame<A> {
        let closer = config.net.then(|| {
            Box::new(
                NetCloser::new(inner.view())
                    .guarded(config.stalemate_guard)
                    .trying(config.capture_tries),
            )
        });
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
            visits: Visits::default(),
            clock: ProgressClock::default(),
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

    /// The fifty-move clock as the player counts it ([`ProgressClock`]).
    pub fn clock(&self) -> ProgressClock {
        self.clock
    }

    /// The tracked set of lone-king squares (White-oriented), while an ending is tracked.
    pub fn tracked_set(&self) -> Option<u64> {
        self.tracker.set()
    }

    /// The table's attempt for the current view, if it has one.
    fn table_choice(&mut self) -> Option<Attempt> {
        let view = self.inner.view();
        let (ending, layout, board) = table_core(view, self.config)?;
        let side = view.side();
        self.options.clear();
        view.options(&mut self.options);
        let (distance, pick) = if board.has_surplus() {
            // Every move of every man, valued on the real board with the table behind it;
            // first among those to a board the men have not stood on twice lately.
            // Ties go to the move after which the next decision may do best (`next_best`);
            // once the clock is urgent, a pawn push before anything else (`progress.rs`).
            let set = self.tracker.current_in(board.domain());
            let table = tables::table(ending);
            let urgent = self.clock.urgent();
            let own = view.own_board().board();
            let mut best: Option<((bool, bool, u8, u8), Attempt)> = None;
            let mut scratch = Vec::new();
            for &a in &self.options {
                let white = orient_attempt(side, a);
                let Some(v) = board.value(table, &layout, set, white) else {
                    continue;
                };
                let worn = board
                    .key_after(white)
                    .is_some_and(|k| self.visits.count(k) >= 2);
                let stalls = !(urgent && own.role_at(a.from) == Some(Role::Pawn));
                if best.is_some_and(|b| (worn, stalls, v) > (b.0.0, b.0.1, b.0.2)) {
                    continue;
                }
                let next = board
                    .next_best(table, &layout, set, white, &mut scratch)
                    .unwrap_or(u8::MAX);
                if best.is_none_or(|b| (worn, stalls, v, next) < b.0) {
                    best = Some(((worn, stalls, v, next), a));
                }
            }
            best.map(|((_, _, v, _), a)| (v, a))?
        } else {
            let set = self.tracker.current(layout);
            let probe = tables::table(ending).probe(layout, set).ok()?;
            let distance = probe.distance?;
            let pick = probe
                .best
                .iter()
                .map(|a| orient_attempt(side, *a))
                .find(|a| self.options.contains(a))?;
            (distance, pick)
        };
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
        let before = table_core(self.inner.view(), self.config).map(|(_, l, b)| (l, b));
        self.clock.observe(self.inner.view(), observation);
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
                    (Some((_, board)), Some(a), Verdict::Illegal) if board.has_surplus() => {
                        self.tracker.narrow(|set| board.illegal(set, a));
                    }
                    (Some((_, board)), Some(a), Verdict::Accepted) if board.has_surplus() => {
                        let answer = heard(&observation.announcements);
                        self.tracker.narrow(|set| board.moved(set, a, answer));
                        if let Some(key) = board.key_after(a) {
                            self.visits.push(key);
                        }
                    }
                    (Some((layout, _)), Some(a), Verdict::Illegal) => {
                        self.tracker.illegal(layout, a);
                    }
                    (Some((layout, _)), Some(a), Verdict::Accepted) => {
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
        let plies = self.clock.plies();
        if let Some(closer) = self.closer.as_mut()
            && !closer.hands_over(plies)
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
        if table_core(self.inner.view(), self.config).is_some() {
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
