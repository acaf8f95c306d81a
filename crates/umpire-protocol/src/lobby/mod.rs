//! The frames of the lobby feed (`GET /api/lobby/ws`), gathered in [`LobbyFrame`] (tagged by
//! `type`).

pub mod challenge;

use serde::{Deserialize, Serialize};

use crate::error_frame::ErrorFrame;
use challenge::ChallengeJson;

/// The version of the lobby feed's frames.
pub const LOBBY_PROTOCOL: u32 = 1;

/// A frame of the lobby feed, server to client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyFrame {
    /// First: the challenges the caller sees now, newest first.
    Lobby(LobbySnapshot),
    /// A challenge the caller sees was opened.
    Added(AddedFrame),
    /// A challenge shown on this feed left the lobby.
    Removed(RemovedFrame),
    /// A refusal: `unknown_command` or `lagged`.
    Error(ErrorFrame),
}

/// `{"type":"lobby","protocol":1,"you":…,"challenges":[…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LobbySnapshot {
    /// [`LOBBY_PROTOCOL`].
    pub protocol: u32,
    /// The caller's name, `null` for an anonymous listener.
    pub you: Option<String>,
    /// The challenges, newest first.
    pub challenges: Vec<ChallengeJson>,
}

/// `{"type":"added","challenge":CHALLENGE}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AddedFrame {
    /// The new challenge.
    pub challenge: ChallengeJson,
}

/// `{"type":"removed","game":ID,"reason":"joined"|"cancelled"|"declined"|"expired"|"abandoned"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RemovedFrame {
    /// The game's id.
    pub game: String,
    /// Why it left.
    pub reason: String,
}

impl LobbyFrame {
    /// The frame as the text of a WebSocket message.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a frame; an error in words if it is not one.
    pub fn parse(text: &str) -> Result<LobbyFrame, String> {
        serde_json::from_str(text).map_err(|e| format!("lobby frame: {e}"))
    }
}
