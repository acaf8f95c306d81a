//! [`TrueBoard`]: the one channel by which a cheating agent sees the true position.

use std::sync::{Arc, Mutex};

use umpire_rules::shakmaty::Chess;

/// A shared slot holding the true position, written by whoever referees the game (the match
/// runner, before each decision) and read by a cheating agent ([`super::PeekAgent`]). Only code
/// that builds a cheating agent on purpose creates one; no fair agent ever holds one.
#[derive(Clone, Debug, Default)]
pub struct TrueBoard {
    slot: Arc<Mutex<Option<Chess>>>,
}

impl TrueBoard {
    /// An empty slot (the agent plays blind until it is set).
    pub fn new() -> TrueBoard {
        TrueBoard::default()
    }

    /// Puts the true position in the slot.
    pub fn set(&self, position: &Chess) {
        // A poisoned lock only means a panic elsewhere: the slot's value is still whole.
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        match slot.as_mut() {
            Some(held) => held.clone_from(position),
            None => *slot = Some(position.clone()),
        }
    }

    /// The position in the slot, if any.
    pub fn get(&self) -> Option<Chess> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
