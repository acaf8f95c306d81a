//! A seat's rating as a rated game's frames show it ([`SeatRating`]): rounded, with its
//! deviation and provisional flag, and once the game is rated the rating after it and the
//! change.

use serde::{Deserialize, Serialize};

use crate::side::BySide;

/// A rating rounded to integers: `{"rating":1712,"deviation":64,"provisional":false}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RoundedRating {
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation (RD), rounded.
    pub deviation: i64,
    /// Whether the RD is above the provisional bound (110).
    pub provisional: bool,
}

/// One seat's rating in a rated game's frames:
/// `{"rating":1500,"deviation":350,"provisional":true,"games":0}`, and once the game is rated
/// also `"after"` and `"change"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SeatRating {
    /// The rating going into the game.
    #[serde(flatten)]
    pub before: RoundedRating,
    /// Rated games played in the rule set and class (before the game; after it once rated).
    pub games: i64,
    /// The rating after the game, once the game is over and rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<RoundedRating>,
    /// The rounded rating after minus the rounded rating before, once rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<i64>,
}

/// Both seats' ratings in a frame's `ratings` field: `null` for a seat that is not rated (free,
/// a house agent, a guest).
pub type SeatRatings = BySide<Option<SeatRating>>;
