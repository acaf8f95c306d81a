//! Finishing a game the server ends for a side (a flag fall, an abandonment, an abort): the
//! umpire judges the end, it is stored, the ratings are read again (a rated game's update
//! is applied with the stored end), and every connection hears the `update` and `game_over`.

use tokio::time::Instant;

use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;
use umpire_rules::{Command, Verdict};

use super::Round;
use super::rebuild::take_in;
use crate::game::projection;
use crate::store::CommandRow;

impl Round {
    /// Has the umpire judge an end the server declares for `side` (a flag fall, an
    /// abandonment, an abort), stores it, then tells every connection: each player and the
    /// spectators get the `update` the umpire's announcement makes, then everyone `game_over`.
    pub(super) async fn server_end(&mut self, side: Color, end: Command, now: Instant) {
        let outcome = self.game.submit_as(side, end);
        if outcome.verdict != Verdict::Answered {
            tracing::error!(
                "game {}: the umpire refuses the end {:?} ({})",
                self.row.id,
                end.to_text(),
                outcome.verdict.as_str()
            );
            self.reload().await;
            return;
        }
        let row = CommandRow {
            seq: self.seq,
            side: color_name(side).to_owned(),
            command: end.to_text(),
            clock_ms: self.clocks.left(side, now).max(0),
            at_ms: self.store.now_ms(),
        };
        let over = self.result_pair();
        if let Err(e) = self
            .store
            .append_command(
                &self.row.id,
                &row,
                over.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            )
            .await
        {
            tracing::error!(
                "game {}: cannot store the end {:?}: {e}",
                self.row.id,
                end.to_text()
            );
            if super::deposition::index_taken(&e) {
                self.deposed = true;
                return;
            }
            // Not stored, so it did not happen: go back to what storage holds.
            self.reload().await;
            return;
        }
        self.seq += 1;
        self.row.status = "over".to_owned();
        self.load_ratings().await;
        take_in(
            &mut self.views,
            &mut self.spectators,
            Some(&mut self.agents),
            end,
            &outcome,
        );
        self.broadcast(end, &outcome, side, None, now);
        let result = self.result_pair();
        let frame = projection::game_over_frame(&self.public(now, &result));
        self.subs.retain(|s| s.tx.send(frame.clone()).is_ok());
    }
}
