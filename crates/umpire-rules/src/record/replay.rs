//! [`Record::replay`]: rebuild a game from its rule set, start position and commands, and check
//! that every recorded verdict, announcement and the result are what the umpire says.

use std::fmt;

use shakmaty::Color;

use crate::record::notation::{heard_list, verdict_token};
use crate::record::{Game, Record};
use crate::wire::color_name;
use crate::{Command, GameResult, Invalid, SetupError, Umpire, Verdict};

/// What differed between a record and its replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The start position cannot be used.
    #[error("replay: start position {fen:?}: {error}")]
    Setup {
        /// The recorded FEN.
        fen: String,
        /// Why it cannot be used.
        error: SetupError,
    },
    /// The opening announcements differ.
    #[error(
        "replay: opening announcements differ: the record says {recorded}, the umpire says {derived}"
    )]
    Opening {
        /// As recorded, in the notation of `docs/RECORDS.md`.
        recorded: String,
        /// As re-derived.
        derived: String,
    },
    /// An entry differs.
    #[error("replay: entry {number} ({side} {command}): {what}", number = .index + 1)]
    Entry {
        /// Index of the entry, from 0 (the message counts from 1, as people do).
        index: usize,
        /// The recorded side.
        side: &'static str,
        /// The recorded command.
        command: String,
        /// What differed.
        what: Mismatch,
    },
    /// The result differs.
    #[error("replay: the record says the result is {recorded}, the umpire says {derived}")]
    Result {
        /// As recorded.
        recorded: String,
        /// As re-derived.
        derived: String,
    },
}

/// One difference inside an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// The command was given by the other side.
    Side {
        /// As recorded.
        recorded: Color,
        /// The side the umpire takes the command from.
        derived: Color,
    },
    /// The verdict differs.
    Verdict {
        /// As recorded.
        recorded: Verdict,
        /// As re-derived.
        derived: Verdict,
    },
    /// The announcements differ.
    Announcements {
        /// As recorded, in the notation of `docs/RECORDS.md`.
        recorded: String,
        /// As re-derived.
        derived: String,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Side { recorded, derived } => write!(
                f,
                "the record says {} gave it, but it is {}'s command",
                color_name(*recorded),
                color_name(*derived)
            ),
            Mismatch::Verdict { recorded, derived } => write!(
                f,
                "the record says the verdict was {}, the umpire says {}",
                verdict_token(*recorded),
                verdict_token(*derived)
            ),
            Mismatch::Announcements { recorded, derived } => write!(
                f,
                "the record says the umpire announced {recorded}, the umpire announces {derived}"
            ),
        }
    }
}

fn result_text(r: Option<GameResult>) -> String {
    r.map_or_else(
        || "none (game not over)".to_owned(),
        |r| format!("{} by {}", r.score(), r.reason.as_str()),
    )
}

impl Record {
    /// Replays the game from the rule set, the start position and the commands, and checks
    /// that every side, verdict and announcement and the result are exactly what the umpire
    /// says. Returns the game at its end (with this record, tags included), or the first
    /// difference, naming the entry.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let rules = *self.rules.rules();
        let umpire = Umpire::from_fen(rules, &self.fen).map_err(|error| ReplayError::Setup {
            fen: self.fen.clone(),
            error,
        })?;
        let derived = umpire.opening_announcements();
        if derived.as_slice() != self.opening.as_slice() {
            return Err(ReplayError::Opening {
                recorded: heard_list(&self.opening),
                derived: heard_list(&derived),
            });
        }
        let start_result = umpire.result();
        let start = Record {
            entries: Vec::new(),
            result: start_result,
            ..self.clone()
        };
        let mut game = Game::from_parts(umpire, start);
        for (index, entry) in self.entries.iter().enumerate() {
            let fail = |what| ReplayError::Entry {
                index,
                side: color_name(entry.side),
                command: entry.command.to_text(),
                what,
            };
            // Commands whose author is not implied by the turn (an answer to a draw offer, a
            // resignation, an end declared off the board, a command refused as out of turn) are judged as given by the recorded
            // side (`Umpire::submit_as`): the offerer's own answer replays as refused.
            let by_side = matches!(
                entry.command,
                Command::AcceptDraw
                    | Command::DeclineDraw
                    | Command::Resign
                    | Command::FlagFall
                    | Command::Abandon
                    | Command::Abort
            ) || entry.verdict == Verdict::Invalid(Invalid::NotYourTurn);
            let actor = game.umpire().actor(entry.command);
            if actor != entry.side && !by_side {
                return Err(fail(Mismatch::Side {
                    recorded: entry.side,
                    derived: actor,
                }));
            }
            let outcome = if by_side {
                game.submit_as(entry.side, entry.command)
            } else {
                game.submit(entry.command)
            };
            if outcome.side != entry.side {
                return Err(fail(Mismatch::Side {
                    recorded: entry.side,
                    derived: outcome.side,
                }));
            }
            if outcome.verdict != entry.verdict {
                return Err(fail(Mismatch::Verdict {
                    recorded: entry.verdict,
                    derived: outcome.verdict,
                }));
            }
            if outcome.announcements.as_slice() != entry.announcements.as_slice() {
                return Err(fail(Mismatch::Announcements {
                    recorded: heard_list(&entry.announcements),
                    derived: heard_list(&outcome.announcements),
                }));
            }
        }
        let derived = game.umpire().result();
        if derived != self.result {
            return Err(ReplayError::Result {
                recorded: result_text(self.result),
                derived: result_text(derived),
            });
        }
        Ok(game)
    }
}
