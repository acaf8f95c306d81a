//! [`unrated_because`]: when a game chosen as rated changes no rating, because its result could
//! be bought rather than won (rating farming).
//!
//! A rating is bought when one person controls both seats, or plays the same accommodating
//! opponent over and over. What the server can see of that:
//!
//! - an account and a bot it made ([`Farming::OwnBot`]): the owner decides how its bot plays
//!   (it may resign at once), so the game says nothing of the owner's strength;
//! - two bots of the same owner ([`Farming::SiblingBots`]): one person on both seats;
//! - the same two players' rated games within [`PAIR_WINDOW_MS`] beyond the first
//!   [`MAX_RATED_PAIR_GAMES`] ([`Farming::SamePairAgain`]): a friend (or a second account)
//!   who loses on purpose gives at most that many results a day, which Glicko-2's deviation
//!   already weighs little once a rating is settled.
//!
//! Guests are never rated, and bot creation is limited per owner
//! (`MAX_BOTS_PER_OWNER` in the accounts). What is left (unrelated second accounts,
//! each costing a registration) is the part only moderation sees.
//!
//! Such a game is played as chosen and made casual in the transaction that stores its result
//! (`games.rated` set to 0, no rating or history row written).

/// Rated games between the same two players that count, per [`PAIR_WINDOW_MS`]: 3.
pub const MAX_RATED_PAIR_GAMES: i64 = 3;

/// The window of [`MAX_RATED_PAIR_GAMES`]: 24 hours.
pub const PAIR_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// Why a game chosen as rated changes no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Farming {
    /// One seat is a bot the other seat's account made.
    OwnBot,
    /// Both seats are bots of the same owner.
    SiblingBots,
    /// The two players already had [`MAX_RATED_PAIR_GAMES`] rated games within
    /// [`PAIR_WINDOW_MS`].
    SamePairAgain,
}

/// One seat as farming is judged: the user's id and, for a bot, its owner's.
#[derive(Clone, Copy, Debug)]
pub struct SeatOwner<'a> {
    /// The user.
    pub id: &'a str,
    /// The account that made it (a bot).
    pub owner: Option<&'a str>,
}

/// Why a game between `white` and `black`, who have had `recent_pair_games` rated games
/// together within [`PAIR_WINDOW_MS`], may not change their ratings; `None` if it may.
pub fn unrated_because(
    white: SeatOwner<'_>,
    black: SeatOwner<'_>,
    recent_pair_games: i64,
) -> Option<Farming> {
    if white.owner == Some(black.id) || black.owner == Some(white.id) {
        return Some(Farming::OwnBot);
    }
    if white.owner.is_some() && white.owner == black.owner {
        return Some(Farming::SiblingBots);
    }
    if recent_pair_games >= MAX_RATED_PAIR_GAMES {
        return Some(Farming::SamePairAgain);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat<'a>(id: &'a str, owner: Option<&'a str>) -> SeatOwner<'a> {
        SeatOwner { id, owner }
    }

    #[test]
    fn owners_bots_and_repeated_pairs_are_unrated() {
        let alice = seat("a", None);
        let bob = seat("b", None);
        let alices_bot = seat("ab", Some("a"));
        let alices_other = seat("ac", Some("a"));
        let bobs_bot = seat("bb", Some("b"));
        assert_eq!(unrated_because(alice, alices_bot, 0), Some(Farming::OwnBot));
        assert_eq!(unrated_because(alices_bot, alice, 0), Some(Farming::OwnBot));
        assert_eq!(
            unrated_because(alices_bot, alices_other, 0),
            Some(Farming::SiblingBots)
        );
        assert_eq!(unrated_because(alice, bob, 0), None);
        assert_eq!(unrated_because(alice, bobs_bot, 0), None);
        assert_eq!(unrated_because(alices_bot, bobs_bot, 0), None);
        assert_eq!(unrated_because(alice, bob, MAX_RATED_PAIR_GAMES - 1), None);
        assert_eq!(
            unrated_because(alice, bob, MAX_RATED_PAIR_GAMES),
            Some(Farming::SamePairAgain)
        );
    }
}
