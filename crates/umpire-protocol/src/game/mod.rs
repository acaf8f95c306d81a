//! The frames the server sends on the game WebSocket (`GET /api/games/{id}/ws`), one type per
//! frame, gathered in [`GameFrame`] (tagged by `type`).

pub mod game_over;
pub mod header;
pub mod pong;
pub mod presence;
pub mod relist;
pub mod rematch;
pub mod state;
pub mod update;
pub mod withdrawn;

use serde::{Deserialize, Serialize};

use crate::chat::ChatLine;
use crate::error_frame::ErrorFrame;
use game_over::GameOverFrame;
use pong::PongFrame;
use presence::Presence;
use relist::RelistFrame;
use rematch::RematchFrame;
use state::StateFrame;
use update::UpdateFrame;
use withdrawn::WithdrawnFrame;

/// A frame of the game socket, server to client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameFrame {
    /// Everything to show the game.
    State(Box<StateFrame>),
    /// One new observation.
    Update(UpdateFrame),
    /// A MSG line between the players (players only).
    Chat(ChatLine),
    /// The answer to RELIST.
    Relist(RelistFrame),
    /// The end of a game the server declared.
    GameOver(GameOverFrame),
    /// A rematch was asked for.
    Rematch(RematchFrame),
    /// The open game was withdrawn.
    Withdrawn(WithdrawnFrame),
    /// A refusal.
    Error(ErrorFrame),
    /// The answer to a client's `ping` (that connection only).
    Pong(PongFrame),
    /// A player's presence changed (every connection of a live game).
    Presence(Presence),
}

impl GameFrame {
    /// The frame as the text of a WebSocket message.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The `id` of the client's frame this answers, if it answers one.
    pub fn reply_to(&self) -> Option<u64> {
        match self {
            GameFrame::State(s) => match &**s {
                StateFrame::Player(p) => p.reply_to,
                StateFrame::Spectator(_) => None,
            },
            GameFrame::Update(UpdateFrame::Player(u)) => u.reply_to,
            GameFrame::Relist(r) => r.reply_to,
            GameFrame::Error(e) => e.reply_to,
            _ => None,
        }
    }

    /// Reads a frame; an error in words if it is not one.
    pub fn parse(text: &str) -> Result<GameFrame, String> {
        serde_json::from_str(text).map_err(|e| format!("game frame: {e}"))
    }
}
