//! A whole game's belief, ply by ply: what the review of a game (the web review, Python,
//! `umpire belief --all-plies`) shows for either side at every ply, streamed as it is computed.
//!
//! [`PlyStream`] follows one side: each [`PlyStream::next_ply`] takes in that side's
//! observations up to and including the next move (of either side) and lends the belief there.
//! [`whole_game`] runs both sides at once, one thread each, and hands the caller a summary of
//! every ply as soon as it is computed. Both are fed only the side's own observations (what
//! [`Record::observations_until`] cuts from a referee record): the belief never sees the true game.

use std::sync::mpsc;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};
use umpire_rules::record::Record;
use umpire_rules::{Observation, RuleSet};

use crate::{Belief, BeliefConfig, BeliefError};

/// Summaries one side may run ahead of the caller of [`whole_game`] before it waits.
const AHEAD: usize = 16;

/// One side's belief followed move by move through a list of its observations.
#[derive(Debug)]
pub struct PlyStream {
    belief: Belief,
    observations: Vec<Observation>,
    next: usize,
    /// The observations before this index may be looked ahead to ([`PlyStream::read_at_ply`]).
    known: usize,
}

impl PlyStream {
    /// A stream of `side`'s belief in a game under `rules` from `start`, fed `observations`
    /// (that side's, in order).
    pub fn new(
        rules: RuleSet,
        start: Chess,
        side: Color,
        observations: Vec<Observation>,
        config: BeliefConfig,
    ) -> Result<PlyStream, BeliefError> {
        Ok(PlyStream {
            belief: Belief::new(rules, start, side, config)?,
            observations,
            next: 0,
            known: 0,
        })
    }

    /// Tells the stream that its belief will be read at ply `ply` (and not before): every
    /// observation up to that ply is then known while the earlier ones are taken in, and each
    /// opponent turn before it is expanded with a lookahead to the player's next commands
    /// ([`Belief::observe_known`]; `docs/BELIEF.md`, "Lookahead"). The beliefs lent at earlier
    /// plies are conditioned on later observations: read them only for their cost, or not at
    /// all. What `umpire belief --ply N` does.
    pub fn read_at_ply(mut self, ply: u32) -> PlyStream {
        let mut plies = 0u32;
        self.known = self.observations.len();
        for (i, obs) in self.observations.iter().enumerate() {
            plies += u32::from(obs.moved);
            if plies >= ply {
                self.known = i + 1;
                break;
            }
        }
        self.known = self.known.min(self.observations.len());
        self
    }

    /// The stream with [`Belief::count_grandparents`] switched on or off.
    pub fn count_grandparents(mut self, on: bool) -> PlyStream {
        self.belief.count_grandparents(on);
        self
    }

    /// The stream with [`Belief::choose_uniformly`] switched on or off.
    pub fn choose_uniformly(mut self, on: bool) -> PlyStream {
        self.belief.choose_uniformly(on);
        self
    }

    /// The stream of `side`'s belief over a referee record: its rule set, its start and the
    /// side's observations ([`Record::observations_until`]).
    pub fn of_record(
        record: &Record,
        side: Color,
        config: BeliefConfig,
    ) -> Result<PlyStream, ReviewError> {
        let start = record_start(record)?;
        let observations = record.observations_until(side, None).0;
        Ok(PlyStream::new(
            *record.rules.rules(),
            start,
            side,
            observations,
            config,
        )?)
    }

    /// Takes in the observations up to and including the next move of either side and lends
    /// the belief after it; `None` once no move is left (observations after the last move are
    /// not taken in).
    pub fn next_ply(&mut self) -> Option<Result<&Belief, BeliefError>> {
        let rest = &self.observations[self.next..];
        let until = rest.iter().position(|o| o.moved)?;
        for (k, obs) in rest[..=until].iter().enumerate() {
            let i = self.next + k;
            let later = self.observations.get(i + 1..self.known).unwrap_or(&[]);
            if let Err(e) = self.belief.observe_known(obs, later) {
                // The stream ends at a bad observation.
                self.next = self.observations.len();
                return Some(Err(e));
            }
        }
        self.next += until + 1;
        Some(Ok(&self.belief))
    }

    /// The belief after the observations taken in so far.
    pub fn belief(&self) -> &Belief {
        &self.belief
    }
}

/// A record that cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The record's start position is not a position.
    #[error("the record's start position: {0}")]
    Start(String),
    /// The belief refused the start or an observation.
    #[error(transparent)]
    Belief(#[from] BeliefError),
}

/// The start position of a record.
pub fn record_start(record: &Record) -> Result<Chess, ReviewError> {
    let fen: Fen = record
        .fen
        .parse()
        .map_err(|e| ReviewError::Start(format!("{e}")))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| ReviewError::Start(format!("{e}")))
}

/// Follows both sides' beliefs through a whole referee record at once (one thread per side,
/// `config.threads` threads per update within it) and calls `on_ply(side, plies, summary)` on
/// the calling thread for every ply of either side, as soon as it is computed (each side's
/// plies in order; the two sides interleaved as they come). `summarise` runs on the side's
/// thread, on the belief after each ply. `on_ply` returns whether to go on; once it says no,
/// both sides stop at their next ply. A side whose belief refuses an observation stops there
/// (its error is returned once both have ended).
pub fn whole_game<T: Send>(
    record: &Record,
    config: BeliefConfig,
    summarise: impl Fn(&Belief) -> T + Sync,
    mut on_ply: impl FnMut(Color, u32, T) -> bool,
) -> Result<(), ReviewError> {
    let start = record_start(record)?;
    let rules = *record.rules.rules();
    let streams = [Color::White, Color::Black].map(|side| {
        PlyStream::new(
            rules,
            start.clone(),
            side,
            record.observations_until(side, None).0,
            config,
        )
    });
    let [white, black] = streams;
    let streams = [white?, black?];
    let summarise = &summarise;
    let go_on = std::sync::atomic::AtomicBool::new(true);
    let go_on = &go_on;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<(Color, u32, T)>(AHEAD);
        let mut handles = Vec::with_capacity(2);
        for mut stream in streams {
            let tx = tx.clone();
            handles.push(scope.spawn(move || -> Result<(), BeliefError> {
                let side = stream.belief.side();
                while go_on.load(std::sync::atomic::Ordering::Relaxed) {
                    let Some(step) = stream.next_ply() else { break };
                    let belief = step?;
                    let summary = summarise(belief);
                    if tx.send((side, belief.plies(), summary)).is_err() {
                        break;
                    }
                }
                Ok(())
            }));
        }
        drop(tx);
        for (side, plies, summary) in rx.iter() {
            if !on_ply(side, plies, summary) {
                go_on.store(false, std::sync::atomic::Ordering::Relaxed);
                break;
            }
        }
        // Dropping the receiver unblocks a side waiting to send.
        drop(rx);
        let mut result = Ok(());
        for handle in handles {
            match handle.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => result = Err(ReviewError::Belief(e)),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        result
    })
}
