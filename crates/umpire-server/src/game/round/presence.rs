//! Presence: whether each player has a connection to the game, and when the side that is gone
//! loses by abandonment. Told to every connection of a live game when it changes (a player's
//! first socket opened, its last closed, an abandonment deadline started or stopped by a move).
//! It depends on connections, whose turn it is and time only: public, like the clocks.

use tokio::time::Instant;

use umpire_protocol::game::presence::{Presence, SeatPresence};

use super::{Round, index};
use crate::game::projection;

/// What a presence frame says, to tell a change from none: each seat connected, and the
/// abandonment deadline if one runs.
pub(super) type PresenceKey = ([bool; 2], Option<Instant>);

impl Round {
    /// Whether the seat at `i` counts as connected: a house agent always; a person (or a bot
    /// over the API) while one of its sockets is open.
    fn seat_connected(&self, i: usize) -> bool {
        self.agents[i].is_some() || self.connections(i) > 0
    }

    /// The abandonment deadline that runs now, if any (live games only).
    fn running_abandon_deadline(&self) -> Option<Instant> {
        if self.row.status != "live" || self.is_over() {
            return None;
        }
        self.abandon_deadline()
    }

    fn presence_key(&self) -> PresenceKey {
        (
            [self.seat_connected(0), self.seat_connected(1)],
            self.running_abandon_deadline(),
        )
    }

    /// Presence as of `now`.
    pub(super) fn presence(&self, now: Instant) -> Presence {
        let seat = |i| {
            if self.seat_connected(i) {
                SeatPresence::Connected
            } else {
                SeatPresence::Gone
            }
        };
        Presence {
            white: seat(index(umpire_rules::shakmaty::Color::White)),
            black: seat(index(umpire_rules::shakmaty::Color::Black)),
            abandon_in_ms: self.running_abandon_deadline().map(|d| {
                u64::try_from(d.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX)
            }),
        }
    }

    /// Takes the presence now as told (the connections' `state` frames carry it).
    pub(super) fn presence_told(&mut self) {
        self.told_presence = Some(self.presence_key());
    }

    /// Tells every connection of a live game the presence, if it changed since last told.
    pub(super) fn tell_presence(&mut self) {
        if self.row.status != "live" || self.is_over() {
            return;
        }
        let key = self.presence_key();
        if self.told_presence == Some(key) {
            return;
        }
        self.told_presence = Some(key);
        let frame = projection::presence_frame(self.presence(self.store.time().now()));
        self.subs.retain(|s| s.tx.send(frame.clone()).is_ok());
    }
}
