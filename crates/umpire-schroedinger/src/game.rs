//! A game as a list of commands judged by the umpire: what the referee and records use.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;
use umpire_rules::record::{TagError, Tags};

use crate::mv::{Move, MoveError};
use crate::umpire::Umpire;
use crate::verdict::{Judgement, Refusal};

/// What a player may say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Attempt a move.
    Move(Move),
    /// Resign.
    Resign,
}

impl FromStr for Command {
    type Err = MoveError;

    /// `resign`, or a move in UCI (`e2e4`).
    fn from_str(text: &str) -> Result<Command, MoveError> {
        if text.eq_ignore_ascii_case("resign") {
            Ok(Command::Resign)
        } else {
            text.parse().map(Command::Move)
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move(mv) => write!(f, "{mv}"),
            Command::Resign => f.write_str("resign"),
        }
    }
}

/// The umpire's answer to a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move was played, or the resignation taken.
    Accepted,
    /// The move is illegal; nothing changed.
    Illegal(Refusal),
}

impl Verdict {
    /// `accepted`, `illegal`, or `game_over` for a command after the end of the game (never
    /// recorded), as the Kriegspiel umpire answers.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Illegal(Refusal::GameOver) => "game_over",
            Verdict::Illegal(_) => "illegal",
        }
    }
}

/// One judged command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Who said it (the side to move).
    pub side: Color,
    /// What was said.
    pub command: Command,
    /// The answer.
    pub verdict: Verdict,
}

/// A game: the umpire, every command judged so far, in order, and the descriptive tags
/// (players, event, date, …) its record carries.
pub struct Game {
    umpire: Umpire,
    entries: Vec<Entry>,
    tags: Tags,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("board", self.umpire.board())
            .field("entries", &self.entries)
            .field("tags", &self.tags)
            .finish()
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A new game.
    pub fn new() -> Game {
        Game {
            umpire: Umpire::new(),
            entries: Vec::new(),
            tags: Tags::new(),
        }
    }

    /// The descriptive tags, with the same rules as a Kriegspiel record's
    /// ([`umpire_rules::record::Tags`]).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// Sets a descriptive tag; refuses the names and values a Kriegspiel record refuses.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        self.tags.set(name, value)
    }

    /// Replaces every tag.
    pub fn set_tags(&mut self, tags: Tags) {
        self.tags = tags;
    }

    /// The umpire (for the board, the possible natures and the ending).
    pub fn umpire(&self) -> &Umpire {
        &self.umpire
    }

    /// The umpire, for queries that use the solver (legal moves, check status).
    pub fn umpire_mut(&mut self) -> &mut Umpire {
        &mut self.umpire
    }

    /// Every command judged so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Judges `command` for the side to move, plays it when legal, and records it. Commands
    /// after the end of the game are refused and not recorded.
    pub fn submit(&mut self, command: Command) -> Verdict {
        let side = self.umpire.turn();
        if self.umpire.ending().is_some() {
            return Verdict::Illegal(Refusal::GameOver);
        }
        let verdict = match command {
            Command::Move(mv) => match self.umpire.play(mv) {
                Judgement::Legal => Verdict::Accepted,
                Judgement::Illegal(why) => Verdict::Illegal(why),
            },
            Command::Resign => {
                self.umpire.resign();
                Verdict::Accepted
            }
        };
        self.entries.push(Entry {
            side,
            command,
            verdict,
        });
        verdict
    }
}
