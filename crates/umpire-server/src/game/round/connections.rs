//! Who is connected: a player's or a spectator's connection subscribes (it gets the whole
//! `state`, then every update for its seat) and leaves; a player's seat with no connection
//! starts the abandonment timer. Frames for the players alone (a rematch offer) go here too.

use super::{Round, Seat, index};

/// One open connection of the game and the seat whose frames it gets.
pub(super) struct Subscriber {
    /// Whose projection.
    pub(super) seat: Seat,
    /// Where its frames go.
    pub(super) tx: crate::game::outbox::Outbox,
}

impl Round {
    /// A new connection: it gets the `state` frame now, then every update for its seat.
    pub(super) fn subscribe(&mut self, seat: Seat, tx: crate::game::outbox::Outbox) {
        let frame = self.state_frame(seat, self.store.time().now());
        if tx.send(frame).is_ok() {
            self.subs.push(Subscriber { seat, tx });
            if let Seat::Player(c) = seat {
                self.connected[index(c)] += 1;
                self.gone_since[index(c)] = None;
            }
        }
    }

    /// A frame for every player connection (spectators do not hear it).
    pub(super) fn notify_players(&mut self, frame: &str) {
        self.subs.retain(|s| {
            !matches!(s.seat, Seat::Player(_)) && !s.tx.is_closed()
                || s.tx.send(frame.to_owned()).is_ok()
        });
    }

    /// A connection closed; when it was a player's last, the player is gone since now.
    pub(super) fn leave(&mut self, seat: Seat) {
        if let Seat::Player(c) = seat {
            let n = &mut self.connected[index(c)];
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.gone_since[index(c)] = Some(self.store.time().now());
            }
        }
    }
}
