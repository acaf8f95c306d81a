//! [`Record`]: a whole game as data: rule set, start position, tags, and every command with
//! everything the umpire said about it.

use shakmaty::{Chess, EnPassantMode, fen::Fen};

use crate::record::{Entry, Tags};
use crate::{GameResult, Heard, RuleSetId};

/// The `format` field of JSON records.
pub const FORMAT: &str = "umpire-kriegspiel-record";

/// The version of the JSON record and of the PGN comment syntax written by this library.
pub const VERSION: u32 = 1;

/// The FEN of the standard start position.
pub const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A lossless record of a game: the rule set, the start position, the tags, the opening
/// announcements and every command with its verdict and announcements (with audiences), and
/// the result.
///
/// Build one by playing a [`crate::record::Game`]; read one with [`Record::from_json`] or
/// [`Record::from_pgn`]; check one with [`Record::replay`], which re-derives everything
/// from the rule set, the start position and the commands.
#[derive(Debug, PartialEq, Eq)]
pub struct Record {
    /// The rule set, by identifier; replays use the named constant.
    pub rules: RuleSetId,
    /// The start position, as FEN.
    pub fen: String,
    /// Descriptive tags (players, event, date, …).
    pub tags: Tags,
    /// What the umpire announced before the first command ([`crate::Umpire::opening_announcements`]).
    pub opening: Vec<Heard>,
    /// Every command, in order.
    pub entries: Vec<Entry>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

impl Clone for Record {
    fn clone(&self) -> Record {
        Record {
            rules: self.rules,
            fen: self.fen.clone(),
            tags: self.tags.clone(),
            opening: self.opening.clone(),
            entries: self.entries.clone(),
            result: self.result,
        }
    }

    /// Copies `source` into `self` keeping `self`'s buffers (the FEN, tags, opening and the
    /// list of entries are copied into the room they have).
    fn clone_from(&mut self, source: &Record) {
        // Every field is named: a new field fails to compile here until it is copied.
        let Record {
            rules,
            fen,
            tags,
            opening,
            entries,
            result,
        } = source;
        self.rules = *rules;
        self.fen.clone_from(fen);
        self.tags.clone_from(tags);
        self.opening.clone_from(opening);
        self.entries.clone_from(entries);
        self.result = *result;
    }
}

impl Record {
    /// Whether the game starts from the standard position.
    pub fn is_standard_start(&self) -> bool {
        self.fen == STANDARD_FEN
    }

    /// The number of moves played (accepted attempts).
    pub fn plies(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.verdict == crate::Verdict::Accepted)
            .count()
    }
}

/// The FEN of a position as records write it.
pub(crate) fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}
