//! Chat between the players: stored, then sent to both players (never to spectators).

use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;

use super::{Round, Seat};
use crate::error::ApiError;
use crate::game::projection;
use crate::store::ChatRow;

impl Round {
    pub(super) async fn say(&mut self, side: Color, text: String) -> Result<(), ApiError> {
        if self.row.status == "open" {
            return Err(ApiError::conflict(
                "game_not_started",
                "nobody to talk to yet",
            ));
        }
        let line = ChatRow {
            side: color_name(side).to_owned(),
            text,
            at_ms: self.store.now_ms(),
        };
        self.store
            .append_chat(&self.row.id, self.chat.len() as i64, &line)
            .await?;
        let frame = projection::chat_frame(side, &line.text);
        self.chat.push((side, line.text));
        self.subs.retain(|s| {
            matches!(s.seat, Seat::Player(_)) && s.tx.send(frame.clone()).is_ok()
                || matches!(s.seat, Seat::Spectator) && !s.tx.is_closed()
        });
        Ok(())
    }
}
