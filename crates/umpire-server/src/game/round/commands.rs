//! A player's action: read it, judge the command with the umpire, charge the clock, commit it
//! to storage, and only then let everyone hear of it.

use umpire_protocol::client_message::Action;
use umpire_rules::Command;
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;

use super::rebuild::take_in;
use super::{Round, Seat, index};
use crate::error::ApiError;
use crate::game::projection;
use crate::game::typed_move::typed_move;
use crate::store::CommandRow;

impl Round {
    /// A player's action: a command for the umpire, a chat line, or a request for a frame for
    /// that connection alone (RELIST, sync).
    pub(super) async fn act(
        &mut self,
        side: Color,
        action: Action,
        id: Option<u64>,
    ) -> Result<Option<String>, ApiError> {
        let command = match action {
            Action::Relist => {
                return Ok(Some(projection::relist_frame(&self.views[index(side)], id)));
            }
            Action::Sync => {
                let frame = self.state_frame(Seat::Player(side), self.store.time().now());
                return Ok(Some(projection::with_reply_to(frame, id)));
            }
            // The socket answers pings itself; one that came here is answered the same.
            Action::Ping(n) => return Ok(Some(projection::pong_frame(n))),
            Action::Msg(text) => {
                self.say(side, text).await?;
                return Ok(None);
            }
            Action::Attempt(text) => {
                // Read against the player's own men only: the words say nothing of the enemy's.
                match typed_move(self.views[index(side)].own_board(), &text) {
                    Ok(a) => Command::Attempt(a),
                    Err(why) => return Err(ApiError::bad_request("bad_move", why)),
                }
            }
            Action::Any => Command::AskAny,
            Action::DrawOffer => Command::OfferDraw,
            Action::DrawAccept => Command::AcceptDraw,
            Action::DrawDecline => Command::DeclineDraw,
            Action::Resign => Command::Resign,
        };
        self.command(side, command, id).await?;
        Ok(None)
    }

    /// Judges, commits, then announces one command.
    pub(super) async fn command(
        &mut self,
        side: Color,
        command: Command,
        id: Option<u64>,
    ) -> Result<(), ApiError> {
        if self.row.status == "open" {
            return Err(ApiError::conflict(
                "game_not_started",
                "the game has not started: waiting for an opponent",
            ));
        }
        if self.is_over() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        let actor = self.game.umpire().actor(command);
        // Either side may resign at any time; every other command is the actor's alone (a
        // player never sends a declared end: `Action` has none).
        if actor != side && command != Command::Resign {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("it is not your turn to say {:?}", command.to_text()),
            ));
        }
        let now = self.store.time().now();
        if self.clocks.running() == Some(side) && self.clocks.flag_fallen(side, now) {
            self.flag_check().await;
            return Err(ApiError::conflict("game_over", "your time ran out"));
        }
        let outcome = self.game.submit_as(side, command);
        // Only a move switches the clocks; any other command (a rejected attempt above all,
        // which the opponent may not hear of) leaves them as they are, so that what the
        // clocks show never depends on it. The stored `clock_ms` of such a command is a
        // reading, never read back (recovery takes the clocks of accepted moves alone).
        if outcome.is_accepted() {
            self.clocks.moved(side, now);
        }
        if self.game.result().is_some() {
            self.clocks.stop(now);
        }
        let clock_ms = self.clocks.left(side, now);
        let row = CommandRow {
            seq: self.seq,
            side: color_name(side).to_owned(),
            command: command.to_text(),
            clock_ms,
            at_ms: self.store.now_ms(),
        };
        let over = self.result_pair();
        let storing = std::time::Instant::now();
        let stored = self
            .store
            .append_command(
                &self.row.id,
                &row,
                over.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            )
            .await;
        self.store.metrics().store.record(storing.elapsed());
        if let Err(e) = stored {
            if super::deposition::index_taken(&e) {
                // Another node stored a command at this index: it owns the game now, and
                // this task ends rather than fork it (`crate::cluster`).
                tracing::warn!("game {}: stored by another node; dropping it", self.row.id);
                self.deposed = true;
                return Err(ApiError::new(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "game_moved",
                    "this game moved to another server node: reconnect",
                ));
            }
            // The command is not stored, so it did not happen: go back to what storage holds.
            self.reload().await;
            return Err(ApiError::storage(e));
        }
        self.seq += 1;
        if over.is_some() {
            self.row.status = "over".to_owned();
            self.load_ratings().await;
        }
        take_in(
            &mut self.views,
            &mut self.spectators,
            Some(&mut self.agents),
            command,
            &outcome,
        );
        self.broadcast(command, &outcome, side, id, now);
        Ok(())
    }
}
