//! The game before it starts, as a challenge: a user takes the free seat ([`Round`]'s
//! `join`), the creator cancels or the addressee declines it (`withdraw`), or it expires
//! unanswered.

use tokio::time::Instant;

use umpire_rules::shakmaty::Color;

use super::Round;
use crate::error::ApiError;
use crate::lobby::feed::{LobbyEvent, Removal, withdrawn_frame};
use crate::store::UserRow;

impl Round {
    /// When an open game expires: its creation plus the expiry time.
    pub(super) fn expiry_deadline(&self) -> Instant {
        let age_ms = (self.store.now_ms() - self.row.created_ms).max(0) as u64;
        let left = self
            .challenge_expiry
            .saturating_sub(std::time::Duration::from_millis(age_ms));
        self.store.time().now() + left
    }

    /// When this open game is withdrawn unanswered, and why: at its expiry, or
    /// [`CREATOR_GONE`](super::CREATOR_GONE) after its creator's last game socket closed
    /// (unless one opened again), whichever comes first.
    pub(super) fn open_deadline(&self) -> (Instant, Removal) {
        let expiry = self.expiry_deadline();
        match self.creator_left.map(|t| t + self.creator_gone) {
            Some(gone) if gone < expiry => (gone, Removal::Abandoned),
            _ => (expiry, Removal::Expired),
        }
    }

    /// Whether `user` may withdraw this open game for the reason `why`: the creator cancels,
    /// the addressee of a direct challenge declines.
    pub(super) fn may_withdraw(&self, user: &UserRow, why: Removal) -> Result<(), ApiError> {
        if self.row.status != "open" {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player: it can no longer be cancelled or declined",
            ));
        }
        let creator = self.row.users.iter().flatten().any(|u| *u == user.id);
        let addressee = self.row.opponent.as_deref() == Some(user.id.as_str());
        match why {
            Removal::Cancelled if !creator => Err(ApiError::forbidden(
                "not_your_challenge",
                "only the creator of a challenge may cancel it",
            )),
            Removal::Declined if !addressee => Err(ApiError::forbidden(
                "not_your_challenge",
                "only the player a challenge is addressed to may decline it",
            )),
            _ => Ok(()),
        }
    }

    /// Removes this open game from storage (leaving its tombstone), tells the lobby and its
    /// connections.
    pub(super) async fn withdraw(&mut self, why: Removal) -> Result<(), ApiError> {
        if !self
            .store
            .withdraw_open_game(&self.row.id, why.as_str(), self.store.now_ms())
            .await?
        {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player any more",
            ));
        }
        if let Some(lobby) = &self.lobby {
            lobby.publish(LobbyEvent::Removed {
                id: self.row.id.clone(),
                reason: why,
            });
        }
        let frame = withdrawn_frame(&self.row.id, why);
        for s in &self.subs {
            let _ = s.tx.send(frame.clone());
        }
        Ok(())
    }

    /// `user` takes the free seat: the game starts, the lobby hears it is gone, and every
    /// connection gets the new `state`.
    pub(super) async fn join(&mut self, user: UserRow) -> Result<Color, ApiError> {
        if self.row.status != "open" {
            return Err(ApiError::conflict(
                "game_not_open",
                "this game is not waiting for a player",
            ));
        }
        if self
            .row
            .opponent
            .as_deref()
            .is_some_and(|to| to != user.id.as_str())
            && !self.row.users.iter().flatten().any(|u| *u == user.id)
        {
            return Err(ApiError::forbidden(
                "not_your_challenge",
                "this challenge is addressed to another player",
            ));
        }
        if self
            .row
            .users
            .iter()
            .any(|u| u.as_deref() == Some(user.id.as_str()))
        {
            return Err(ApiError::conflict(
                "own_game",
                "you already play in this game",
            ));
        }
        if self.row.rated && user.kind == "guest" {
            return Err(ApiError::guest_unrated());
        }
        let Some(free) =
            (0..2).find(|&i| self.row.users[i].is_none() && self.row.agents[i].is_none())
        else {
            return Err(ApiError::conflict("game_not_open", "no free seat"));
        };
        if !self.store.take_seat(&self.row.id, free, &user.id).await? {
            return Err(ApiError::conflict(
                "game_not_open",
                "the seat was just taken",
            ));
        }
        self.row.users[free] = Some(user.id);
        self.names[free] = user.name;
        if self.connections(free) == 0 {
            self.gone_since[free] = Some(self.store.time().now());
        }
        self.row.status = "live".to_owned();
        if let Some(lobby) = &self.lobby {
            lobby.publish(LobbyEvent::Removed {
                id: self.row.id.clone(),
                reason: Removal::Joined,
            });
        }
        self.load_ratings().await;
        let now = self.store.time().now();
        self.clocks.start(self.game.umpire().turn(), now);
        for s in &self.subs {
            let _ = s.tx.send(self.state_frame(s.seat, now));
        }
        self.presence_told();
        Ok(if free == 0 {
            Color::White
        } else {
            Color::Black
        })
    }
}
