//! The `update` frame: one new observation and where the connection stands now
//! ([`PlayerUpdate`] to a player, [`SpectatorUpdate`] to a spectator).

use serde::{Deserialize, Serialize};

use crate::clock::Clocks;
use crate::ending::Ending;
use crate::man::OwnMan;
use crate::observation::{PlayerObservation, PublicObservation};
use crate::rating::SeatRatings;
use crate::side::{Side, Spectator};

/// An `update` frame: a player's or a spectator's (told apart by `you`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum UpdateFrame {
    /// To a player.
    Player(Box<PlayerUpdate>),
    /// To a spectator.
    Spectator(Box<SpectatorUpdate>),
}

/// A player's `update`: the fields of [`PlayerState`](crate::game::state::PlayerState) but the
/// header, opening, transcript and chat, plus the new observation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerUpdate {
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
    /// The result, `null` while the game goes on.
    pub result: Option<Ending>,
    /// The ratings after the game: only on the update that ends a rated game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<SeatRatings>,
    /// The new observation.
    pub observation: PlayerObservation,
    /// The `id` of the player's own command this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<u64>,
}

/// A spectator's `update`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SpectatorUpdate {
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
    /// What spectators learn of the command.
    pub observation: PublicObservation,
    /// The clocks now.
    pub clocks: Clocks,
    /// The result, `null` while the game goes on.
    pub result: Option<Ending>,
    /// The ratings after the game: only on the update that ends a rated game (ratings are
    /// public: the same as the players').
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<SeatRatings>,
}
