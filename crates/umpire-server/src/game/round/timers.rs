//! The game's timers while it is live: a flag falls when the side to move runs out of time,
//! and a person who stays away from a game past the timeout loses it by abandonment (or the
//! game is aborted before both sides have moved).

use tokio::time::Instant;

use umpire_rules::Command;

use super::{Round, index};
use crate::ratings::time_class::CORRESPONDENCE_MS;

impl Round {
    /// If the running side's time is up, its flag falls: stored, then announced to all.
    pub(super) async fn flag_check(&mut self) {
        let now = self.store.time().now();
        let Some(side) = self.clocks.running() else {
            return;
        };
        if !self.clocks.flag_fallen(side, now) || self.is_over() {
            return;
        }
        self.clocks.stop(now);
        self.clocks.set(side, 0);
        self.server_end(side, Command::FlagFall, now).await;
    }

    /// When the side to move, a person, has been away past the timeout (never in
    /// correspondence games).
    pub(super) fn abandon_deadline(&self) -> Option<Instant> {
        // Correspondence games are never abandoned: only their clocks end them.
        if self.row.initial_ms >= CORRESPONDENCE_MS {
            return None;
        }
        let side = self.game.umpire().turn();
        self.row.users[index(side)].as_ref()?;
        self.gone_since[index(side)].map(|t| t + self.abandon_after)
    }

    /// If the side to move has been away past the timeout, it loses by abandonment, or the
    /// game is aborted if the two sides have not both moved yet.
    pub(super) async fn abandon_check(&mut self) {
        let now = self.store.time().now();
        if self.is_over() || self.row.status != "live" {
            return;
        }
        if self.abandon_deadline().is_none_or(|d| d > now) {
            return;
        }
        let side = self.game.umpire().turn();
        let end = if self.game.umpire().plies() < 2 {
            Command::Abort
        } else {
            Command::Abandon
        };
        self.clocks.stop(now);
        self.server_end(side, end, now).await;
    }
}
