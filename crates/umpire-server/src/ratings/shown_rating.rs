//! [`ShownRating`]: a seat's rating as a rated game's frames show it to players and
//! spectators: rounded, with its deviation and provisional flag, and once the game is rated,
//! the rating after it and the change.

use serde_json::Value;
use umpire_protocol::rating::{RoundedRating, SeatRating, SeatRatings};
use umpire_protocol::side::BySide;

use crate::ratings::glicko::Rating;

/// One seat's rating in a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShownRating {
    /// The rating going into the game: as of the game's start (the deviation grown over idle
    /// rating periods), or, once the game is rated, the rating its update started from.
    pub before: Rating,
    /// Rated games played in the rule set and class (before this game; after it once rated).
    pub games: i64,
    /// The rating after the game, once the game is over and rated.
    pub after: Option<Rating>,
}

fn rounded(r: &Rating) -> RoundedRating {
    RoundedRating {
        rating: r.rating.round() as i64,
        deviation: r.deviation.round() as i64,
        provisional: r.is_provisional(),
    }
}

impl ShownRating {
    /// The seat's rating as frames carry it: rounded, and once rated the rating after and the
    /// change: the difference of the two rounded ratings, so that the numbers shown add up.
    pub fn seat(&self) -> SeatRating {
        let before = rounded(&self.before);
        let after = self.after.as_ref().map(rounded);
        SeatRating {
            before,
            games: self.games,
            after,
            change: after.map(|a| a.rating - before.rating),
        }
    }

    /// `{"rating":1500,"deviation":350,"provisional":true,"games":0}`, and once rated
    /// `"after":{…}` and `"change"` ([`ShownRating::seat`] as JSON).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.seat()).unwrap_or_default()
    }
}

/// Both seats' ratings as a frame's `ratings` field, `None` for a seat that is not rated (free,
/// an agent, a guest).
pub fn seat_ratings(ratings: &[Option<ShownRating>; 2]) -> SeatRatings {
    BySide::from_array(ratings.map(|r| r.as_ref().map(ShownRating::seat)))
}

/// Both seats' ratings as JSON: `{"white":…,"black":…}`, `null` for a seat that is not rated.
pub fn ratings_json(ratings: &[Option<ShownRating>; 2]) -> Value {
    serde_json::to_value(seat_ratings(ratings)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_rounded_and_the_change_adds_up() {
        let before = Rating {
            rating: 1500.4,
            deviation: 349.6,
            volatility: 0.06,
        };
        let after = Rating {
            rating: 1662.5,
            deviation: 290.3,
            volatility: 0.06,
        };
        let mut shown = ShownRating {
            before,
            games: 0,
            after: None,
        };
        let v = shown.to_json();
        assert_eq!(v["rating"], 1500);
        assert_eq!(v["deviation"], 350);
        assert_eq!(v["provisional"], true);
        assert_eq!(v["games"], 0);
        assert!(v.get("change").is_none());
        shown.after = Some(after);
        shown.games = 1;
        let v = shown.to_json();
        assert_eq!(v["after"]["rating"], 1663);
        assert_eq!(v["after"]["deviation"], 290);
        assert_eq!(v["change"], 163);
        let both = ratings_json(&[Some(shown), None]);
        assert_eq!(both["white"]["change"], 163);
        assert!(both["black"].is_null());
    }
}
