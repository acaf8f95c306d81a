//! [`Entry`]: one command of a game and the umpire's whole answer to it.

use shakmaty::Color;

use super::HeardList;
use crate::{Announcement, Command, Outcome, Verdict};

/// One command and everything the umpire said about it: the unit of a [`crate::record::Record`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Who gave the command.
    pub side: Color,
    /// What was said to the umpire.
    pub command: Command,
    /// The umpire's judgement.
    pub verdict: Verdict,
    /// Everything the umpire announced, each with its audience (the usual few inside the
    /// entry: recording a command allocates nothing).
    pub announcements: HeardList,
}

impl Entry {
    /// The entry for `command` judged as `outcome`.
    pub fn new(command: Command, outcome: &Outcome) -> Entry {
        Entry {
            side: outcome.side,
            command,
            verdict: outcome.verdict,
            announcements: HeardList::from_slice(&outcome.announcements),
        }
    }

    /// The outcome this entry records (announcements beyond the umpire's maximum are dropped;
    /// the umpire never makes that many).
    pub fn outcome(&self) -> Outcome {
        let mut out = Outcome::silent(self.side, self.verdict);
        for h in self.announcements.iter() {
            let _ = out.announcements.try_push(*h);
        }
        out
    }

    /// The result announced by this entry, if it ended the game.
    pub fn game_over(&self) -> Option<crate::GameResult> {
        self.announcements
            .iter()
            .find_map(|h| match h.announcement {
                Announcement::GameOver(r) => Some(r),
                _ => None,
            })
    }
}
