//! The `state` frame: everything a connection needs to show a game, sent on connecting (and to
//! every connection when the second player joins): [`PlayerState`] to a player,
//! [`SpectatorState`] to everyone else.

use serde::{Deserialize, Serialize};

use crate::announcement::HeardAnnouncement;
use crate::chat::ChatLine;
use crate::clock::Clocks;
use crate::ending::Ending;
use crate::game::header::Header;
use crate::game::presence::Presence;
use crate::man::OwnMan;
use crate::observation::{PlayerObservation, PublicObservation};
use crate::side::{Side, Spectator};

/// A `state` frame: a player's or a spectator's (told apart by `you`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum StateFrame {
    /// To a player.
    Player(PlayerState),
    /// To a spectator.
    Spectator(SpectatorState),
}

/// A player's `state`: the header, where the player stands, the whole transcript (so that a
/// client resumes exactly after a dropped connection) and the chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerState {
    /// What the game is.
    #[serde(flatten)]
    pub header: Header,
    /// The game's id.
    pub game: String,
    /// The player's colour.
    pub you: Side,
    /// `open`, `live` or `over`.
    pub status: String,
    /// The side to move.
    pub to_move: Side,
    /// Moves played so far (half-moves).
    pub plies: u32,
    /// The player's own men as the umpire holds them, in square order.
    pub men: Vec<OwnMan>,
    /// The attempts the guided space still offers (sorted UCI); empty off turn.
    pub options: Vec<String>,
    /// Whether "Any?" may be asked now.
    pub any_allowed: bool,
    /// The clocks now.
    pub clocks: Clocks,
    /// Who is connected and the abandonment countdown (`null` only from servers older than
    /// this field).
    #[serde(default)]
    pub presence: Option<Presence>,
    /// The result, `null` while the game goes on.
    pub result: Option<Ending>,
    /// What the player heard before the first move.
    pub opening: Vec<HeardAnnouncement>,
    /// The player's observations from number `transcript_from` on, in order: all of them
    /// unless the socket was opened with `?from=N`.
    pub transcript: Vec<PlayerObservation>,
    /// The number (from 0) of the first observation in `transcript` in the player's whole
    /// transcript: the `N` of `?from=N`, else 0.
    #[serde(default)]
    pub transcript_from: u32,
    /// The most recent chat lines between the players (at most the server's
    /// `STATE_CHAT_LINES`, 50), oldest first; earlier ones are paged with
    /// `GET /api/games/{id}/chat?before=N`.
    pub chat: Vec<ChatLine>,
    /// The number (from 0) of the first line in `chat` in the game's whole chat: the lines
    /// before it are not in this frame.
    #[serde(default)]
    pub chat_from: u64,
    /// The `id` of the client's `sync` this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<u64>,
}

/// A spectator's `state`: the header, the public transcript, the clocks. No men, no options, no
/// chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SpectatorState {
    /// What the game is.
    #[serde(flatten)]
    pub header: Header,
    /// The game's id.
    pub game: String,
    /// Always `spectator`.
    pub you: Spectator,
    /// `open`, `live` or `over`.
    pub status: String,
    /// The side to move.
    pub to_move: Side,
    /// Moves played so far (half-moves).
    pub plies: u32,
    /// What both players heard before the first move.
    pub opening: Vec<HeardAnnouncement>,
    /// What spectators learnt of every command so far, in order, from number
    /// `transcript_from` on.
    pub transcript: Vec<PublicObservation>,
    /// The number (from 0) of the first observation in `transcript`: the `N` of `?from=N`,
    /// else 0.
    #[serde(default)]
    pub transcript_from: u32,
    /// The clocks now.
    pub clocks: Clocks,
    /// Who is connected and the abandonment countdown (`null` only from servers older than
    /// this field).
    #[serde(default)]
    pub presence: Option<Presence>,
    /// The result, `null` while the game goes on.
    pub result: Option<Ending>,
}
