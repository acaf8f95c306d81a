//! The query and body of `GET /api/games/{id}/belief`: what one side may believe of the enemy
//! men, square by square, computed from that side's observations only (the overlay of the
//! game page and of the review).

use serde::{Deserialize, Serialize};

use crate::side::Side;

/// `?side=white|black&ply=P`: whose belief, and after how many moves (`ply` absent: now).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BeliefQuery {
    /// The side whose belief is asked for.
    pub side: Side,
    /// The number of moves played at the point asked for; absent: the game as it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub ply: Option<u32>,
}

/// `{"side","plies","exact","size","squares"}`: the probabilities, for one side, of an enemy
/// man on every square.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BeliefBody {
    /// The side whose belief this is (the enemy is the other).
    pub side: Side,
    /// The number of moves played in the game at this point.
    pub plies: u32,
    /// Whether the positions counted are every position the side cannot rule out (else a
    /// sample of them).
    pub exact: bool,
    /// The positions counted (the set, or the sample).
    #[cfg_attr(test, ts(type = "number"))]
    pub size: u64,
    /// 64 entries, `a1, b1, …, h1, a2, …, h8`.
    pub squares: Vec<SquareBelief>,
}

/// The probabilities of an enemy man on one square, in all and per kind, rounded to 3
/// decimals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SquareBelief {
    /// Of any enemy man.
    pub any: f64,
    /// Of an enemy pawn.
    pub pawn: f64,
    /// Of an enemy knight.
    pub knight: f64,
    /// Of an enemy bishop.
    pub bishop: f64,
    /// Of an enemy rook.
    pub rook: f64,
    /// Of an enemy queen.
    pub queen: f64,
    /// Of the enemy king.
    pub king: f64,
}
