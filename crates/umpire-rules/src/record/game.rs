//! [`Game`]: an umpire that keeps the record of everything said.

use crate::playout::{PlayoutStats, random_game};
use crate::record::game_record::fen_of;
use crate::record::{Entry, Record, TagError, Tags};
use crate::{Command, GameResult, Outcome, RuleSet, SetupError, Umpire};

/// An [`Umpire`] together with the [`Record`] of every command and announcement.
///
/// ```
/// use umpire_rules::record::Game;
/// use umpire_rules::{Command, RuleSet, Verdict};
///
/// let mut game = Game::new(RuleSet::WILD16);
/// game.set_tag("White", "Ann").unwrap();
/// assert_eq!(game.submit(Command::Attempt("e2e4".parse().unwrap())).verdict, Verdict::Accepted);
/// let json = game.record().to_json();
/// let again = umpire_rules::record::Record::from_json(&json).unwrap();
/// assert_eq!(&again, game.record());
/// again.replay().unwrap();
/// ```
///
/// The record names the rule set by its identifier ([`RuleSet::id`]) and replays under the
/// named constant: a game played under a modified rule set will not replay.
#[derive(Debug)]
pub struct Game {
    umpire: Umpire,
    record: Record,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            umpire: self.umpire.clone(),
            record: self.record.clone(),
        }
    }

    /// Copies `source` into `self` keeping `self`'s buffers (the umpire's repetition history,
    /// the record's entries): a game reset to a start many times stops allocating there.
    fn clone_from(&mut self, source: &Game) {
        self.umpire.clone_from(&source.umpire);
        self.record.clone_from(&source.record);
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new(rules: RuleSet) -> Game {
        Game::with_umpire(Umpire::new(rules))
    }

    /// A game from a FEN.
    pub fn from_fen(rules: RuleSet, fen: &str) -> Result<Game, SetupError> {
        Ok(Game::with_umpire(Umpire::from_fen(rules, fen)?))
    }

    /// A game with a fresh umpire (no command judged yet); the record starts from its position.
    fn with_umpire(umpire: Umpire) -> Game {
        let record = Record {
            rules: umpire.rules().id,
            fen: fen_of(umpire.position()),
            tags: Tags::new(),
            opening: umpire.opening_announcements().to_vec(),
            entries: Vec::new(),
            result: umpire.result(),
        };
        Game { umpire, record }
    }

    /// Judges a command (see [`Umpire::submit`]) and records it with its outcome.
    pub fn submit(&mut self, command: Command) -> Outcome {
        let outcome = self.umpire.submit(command);
        record_outcome(&mut self.record, command, &outcome);
        outcome
    }

    /// Judges a command given by `side` (see [`Umpire::submit_as`]) and records it.
    pub fn submit_as(&mut self, side: shakmaty::Color, command: Command) -> Outcome {
        let outcome = self.umpire.submit_as(side, command);
        record_outcome(&mut self.record, command, &outcome);
        outcome
    }

    /// Plays random commands (see [`random_game`]) until the game ends or `max_plies` moves
    /// have been played, recording each.
    pub fn play_random<R: rand::Rng>(&mut self, rng: &mut R, max_plies: u32) -> PlayoutStats {
        let Game { umpire, record } = self;
        random_game(umpire, rng, max_plies, |command, outcome| {
            record_outcome(record, command, outcome)
        })
    }

    /// The umpire (read only: every command must go through [`Game::submit`] to be recorded).
    pub fn umpire(&self) -> &Umpire {
        &self.umpire
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record, consuming the game.
    pub fn into_record(self) -> Record {
        self.record
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.umpire.result()
    }

    /// The descriptive tags.
    pub fn tags(&self) -> &Tags {
        &self.record.tags
    }

    /// The descriptive tags, to change.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.record.tags
    }

    /// Sets one tag (see [`Tags::set`]).
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        self.record.tags.set(name, value)
    }

    /// Puts a replayed game together: the caller has checked that `record` is what `umpire` said.
    pub(crate) fn from_parts(umpire: Umpire, record: Record) -> Game {
        Game { umpire, record }
    }
}

/// Appends an outcome to a record and takes over the result it announces.
fn record_outcome(record: &mut Record, command: Command, outcome: &Outcome) {
    let entry = Entry::new(command, outcome);
    if let Some(result) = entry.game_over() {
        record.result = Some(result);
    }
    record.entries.push(entry);
}
