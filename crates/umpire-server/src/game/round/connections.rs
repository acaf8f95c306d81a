//! Who is connected: a player's or a spectator's connection subscribes (it gets the `state`,
//! then every update for its seat) and leaves; a player's seat with no connection starts the
//! abandonment timer (and, while the game is open, the creator's absence timer). Frames for
//! the players alone (a rematch offer) go here too.

use super::{Round, Seat, index};
use crate::game::projection::error_frame;

/// One open connection of the game and the seat whose frames it gets.
pub(super) struct Subscriber {
    /// Whose projection.
    pub(super) seat: Seat,
    /// Where its frames go.
    pub(super) tx: crate::game::outbox::Outbox,
}

impl Round {
    /// How many observations the `state` frame of `seat` holds in its whole transcript.
    fn transcript_len(&self, seat: Seat) -> usize {
        match seat {
            Seat::Player(c) => self.views[index(c)].transcript().len(),
            Seat::Spectator => self.spectators.len(),
        }
    }

    /// A new connection: it gets the `state` frame now (its transcript from observation
    /// `from` on, the whole of it when `from` is past the end, after a `bad_resume` refusal),
    /// then every update for its seat. Every other connection hears the new presence.
    pub(super) fn subscribe(
        &mut self,
        seat: Seat,
        tx: crate::game::outbox::Outbox,
        from: u32,
        conn: u64,
    ) {
        let from = if from as usize > self.transcript_len(seat) {
            let why = format!(
                "cannot resume from observation {from}: the transcript has {} so far; here is the whole state",
                self.transcript_len(seat)
            );
            if tx.send(error_frame("bad_resume", &why, None)).is_err() {
                return;
            }
            0
        } else {
            from
        };
        let was = self.gone_since;
        if let Seat::Player(c) = seat {
            self.connected.insert(conn, index(c));
            self.gone_since[index(c)] = None;
        }
        let frame = self.state_frame_from(seat, self.store.time().now(), from);
        if tx.send(frame).is_err() {
            if let Seat::Player(_) = seat {
                self.connected.remove(&conn);
                self.gone_since = was;
            }
            return;
        }
        if matches!(seat, Seat::Player(_)) {
            self.creator_left = None;
        }
        self.tell_presence();
        self.subs.push(Subscriber { seat, tx });
    }

    /// A frame for every player connection (spectators do not hear it).
    pub(super) fn notify_players(&mut self, frame: &str) {
        self.subs.retain(|s| {
            !matches!(s.seat, Seat::Player(_)) && !s.tx.is_closed()
                || s.tx.send(frame.to_owned()).is_ok()
        });
    }

    /// How many connections of the seat at `i` are open.
    pub(super) fn connections(&self, i: usize) -> usize {
        self.connected.values().filter(|&&seat| seat == i).count()
    }

    /// Connection `conn` closed; when it was a player's last, the player is gone since now
    /// (and every connection hears it). A connection that was never counted (a spectator's,
    /// or one whose `state` could not be queued) changes nothing.
    pub(super) fn leave(&mut self, conn: u64) {
        if let Some(i) = self.connected.remove(&conn)
            && self.connections(i) == 0
        {
            let now = self.store.time().now();
            self.gone_since[i] = Some(now);
            if self.row.status == "open" {
                self.creator_left = Some(now);
            }
            self.tell_presence();
        }
    }
}
