//! [`ShownRating`]: a seat's rating as a rated game's frames show it to players and
//! spectators: rounded, with its deviation and provisional flag, and once the game is rated,
//! the rating after it and the change.

use serde_json::{Value, json};

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

fn rounded(r: &Rating) -> Value {
    json!({
        "rating": r.rating.round() as i64,
        "deviation": r.deviation.round() as i64,
        "provisional": r.is_provisional(),
    })
}

impl ShownRating {
    /// `{"rating":1500,"deviation":350,"provisional":true,"games":0}`, and once rated
    /// `"after":{…}` and `"change"`: the difference of the two rounded ratings, so that the
    /// numbers shown add up.
    pub fn to_json(&self) -> Value {
        let mut v = rounded(&self.before);
        v["games"] = self.games.into();
        if let Some(after) = &self.after {
            v["after"] = rounded(after);
            v["change"] = (after.rating.round() as i64 - self.before.rating.round() as i64).into();
        }
        v
    }
}

/// Both seats' ratings as a frame's `ratings` field: `{"white":…,"black":…}`, `null` for a
/// seat that is not rated (free, an agent, a guest).
pub fn ratings_json(ratings: &[Option<ShownRating>; 2]) -> Value {
    let side = |r: &Option<ShownRating>| r.as_ref().map_or(Value::Null, ShownRating::to_json);
    json!({"white": side(&ratings[0]), "black": side(&ratings[1])})
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
