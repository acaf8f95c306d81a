//! What the game's connections hear: the public part of the game every frame carries, the
//! whole `state` a connection gets when it subscribes, and the `update` each seat gets
//! after a command, each built by the projection for that seat alone.

use tokio::time::Instant;

use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, Outcome};

use super::{Round, Seat, index};
use crate::game::projection::{self, Public};

impl Round {
    /// What every frame says of the game, whoever it is for.
    pub(super) fn public<'a>(
        &'a self,
        now: Instant,
        result: &'a Option<(String, String)>,
    ) -> Public<'a> {
        Public {
            game: &self.row.id,
            rules: &self.rules,
            names: [&self.names[0], &self.names[1]],
            status: self.status(),
            clocks: self.clocks.reading(now),
            time_control: (self.row.initial_ms, self.row.increment_ms),
            rated: self.row.rated,
            practice: self.row.practice,
            result: result.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            ratings: &self.ratings,
            presence: self.presence(now),
        }
    }

    /// The whole `state` frame for `seat`: a player's own view and the chat, or the
    /// spectators' record.
    pub(super) fn state_frame(&self, seat: Seat, now: Instant) -> String {
        self.state_frame_from(seat, now, 0)
    }

    /// The `state` frame for `seat` whose transcript starts at observation `from` (a client
    /// that resumes holding `from` observations already).
    pub(super) fn state_frame_from(&self, seat: Seat, now: Instant, from: u32) -> String {
        let result = self.result_pair();
        let public = self.public(now, &result);
        match seat {
            Seat::Player(side) => {
                let chat_from = self
                    .chat
                    .len()
                    .saturating_sub(super::chat::STATE_CHAT_LINES);
                let chat: Vec<(Color, &str)> = self.chat[chat_from..]
                    .iter()
                    .map(|(c, t)| (*c, t.as_str()))
                    .collect();
                projection::player_state(
                    &self.views[index(side)],
                    &public,
                    &chat,
                    chat_from as u64,
                    from,
                )
            }
            Seat::Spectator => projection::spectator_state(
                &public,
                &projection::public_opening(self.views[0].opening(), self.views[1].opening()),
                &self.spectators,
                self.game.umpire().plies(),
                self.game.umpire().turn(),
                from,
            ),
        }
    }

    /// Sends each connection its `update` for one outcome: each player the observation the
    /// umpire gave it (the actor's answering its `id`), the spectators theirs; connections
    /// closed are dropped.
    pub(super) fn broadcast(
        &mut self,
        command: Command,
        outcome: &Outcome,
        actor: Color,
        id: Option<u64>,
        now: Instant,
    ) {
        if self.subs.is_empty() {
            return;
        }
        let result = self.result_pair();
        let public = self.public(now, &result);
        let mut frames: [Option<String>; 3] = [None, None, None];
        for side in [Color::White, Color::Black] {
            if let Some(obs) = outcome.observation(command, side) {
                let reply_to = if side == actor { id } else { None };
                frames[index(side)] = Some(projection::player_update(
                    &self.views[index(side)],
                    &obs,
                    &public,
                    reply_to,
                ));
            }
        }
        if let Some(s) = self
            .spectators
            .last()
            .filter(|_| projection::spectator_observation(outcome).is_some())
        {
            frames[2] = Some(projection::spectator_update(
                &public,
                s,
                self.game.umpire().plies(),
                self.game.umpire().turn(),
            ));
        }
        self.subs.retain(|s| {
            let slot = match s.seat {
                Seat::Player(c) => index(c),
                Seat::Spectator => 2,
            };
            match &frames[slot] {
                Some(f) => s.tx.send(f.clone()).is_ok(),
                None => !s.tx.is_closed(),
            }
        });
    }
}
