//! Kriegspiel players. An [`Agent`] receives its player's observations and answers with
//! commands; it holds a [`PlayerView`](umpire_view::PlayerView), never the umpire.

mod agent;
mod random;

pub use agent::{Agent, play_observations};
pub use random::RandomAgent;
