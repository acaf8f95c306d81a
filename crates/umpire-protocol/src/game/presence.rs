//! [`Presence`]: whether each player of a game is connected, and when the side that is gone
//! loses by abandonment. Public, like the clocks: it depends on connections and time only.

use serde::{Deserialize, Serialize};

/// Whether a player has a connection to the game: `"connected"` or `"gone"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SeatPresence {
    /// At least one socket of the player is open on the game (a house agent: always; a bot
    /// over the API: while its socket is open).
    Connected,
    /// No socket of the player is open on the game (or the seat is still free).
    Gone,
}

/// `{"white":"connected"|"gone","black":…,"abandon_in_ms":N|null}`: the `presence` frame (sent
/// to every connection of a live game when a player's first socket opens or last socket
/// closes, or when an abandonment deadline starts or stops running) and the `presence` field
/// of the `state` frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Presence {
    /// White's presence.
    pub white: SeatPresence,
    /// Black's presence.
    pub black: SeatPresence,
    /// Milliseconds from this frame until the side that is gone loses by abandonment (or the
    /// game is aborted); `null` when no such deadline runs (both present, a correspondence
    /// game, a game not live, or the side that is gone is not to move).
    pub abandon_in_ms: Option<u64>,
}
