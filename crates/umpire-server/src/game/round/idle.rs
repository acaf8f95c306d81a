//! Unloading a finished game's task once nobody watches it: a finished game woken by anyone
//! (a socket to an old game) is rebuilt from storage, and its task ends after
//! [`IDLE_UNLOAD`] without a connection, so that no finished game stays in memory. The hub
//! starts it again from storage when someone comes back. Live and open games keep their
//! tasks (their clocks, abandonment and expiry run there).

use std::time::Duration;

use tokio::time::Instant;

use super::Round;

/// How long a finished game's task stays without a connection before it ends: 60 seconds.
pub const IDLE_UNLOAD: Duration = Duration::from_secs(60);

impl Round {
    /// Whether any connection still listens to this game.
    pub(super) fn watched(&self) -> bool {
        self.subs.iter().any(|s| !s.tx.is_closed())
    }

    /// When a finished game's task looks again whether anyone listens (and ends if nobody
    /// does): `idle_unload` after the last message; `None` while the game is not over. (A
    /// connection that closes says so before its channel is gone, so the look is repeated
    /// rather than made once at the leaving.)
    pub(super) fn unload_deadline(&self, last_message: Instant) -> Option<Instant> {
        (self.row.status == "over" || self.is_over()).then(|| last_message + self.idle_unload)
    }
}
