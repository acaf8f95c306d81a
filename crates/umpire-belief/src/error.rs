//! [`BeliefError`]: an observation that does not fit the belief it is given to.

use shakmaty::Color;

/// An observation that does not fit the belief it is given to, or a start that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BeliefError {
    /// The observation is meant for the other player.
    #[error("this observation is {observer:?}'s, not {belief:?}'s")]
    WrongPlayer {
        /// Whose belief this is.
        belief: Color,
        /// Whom the observation is for.
        observer: Color,
    },
    /// The observation says the player gave a command but does not say which.
    #[error("an observation of the player's own command lacks the command")]
    MissingOwnCommand,
    /// The start position cannot begin a game (the side to move has no move).
    #[error("the start position cannot begin a game: the side to move has no move")]
    DeadStart,
}
