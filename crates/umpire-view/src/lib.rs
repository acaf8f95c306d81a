//! What one Kriegspiel player may know.
//!
//! A [`PlayerView`] is built only from a player's own start (its men, which are public at the
//! standard start) and the stream of [`Observation`]s the umpire gives that player. No function
//! of this crate takes the true position: a view cannot learn what its player did not hear.
//!
//! ```
//! use umpire_rules::{Command, RuleSet, Umpire};
//! use umpire_rules::shakmaty::Color;
//! use umpire_view::PlayerView;
//!
//! let mut umpire = Umpire::new(RuleSet::WILD16);
//! let mut black = PlayerView::standard(RuleSet::WILD16, Color::Black);
//! let command = Command::Attempt("e2e4".parse().unwrap());
//! let outcome = umpire.submit(command);
//! if let Some(seen) = outcome.observation(command, Color::Black) {
//!     black.observe(&seen).unwrap();
//! }
//! assert!(black.is_my_turn());
//! assert_eq!(black.enemy().men, 16);
//! ```
//!
//! [`Observation`]: umpire_rules::Observation

mod enemy;
pub mod guided;
mod player_view;
mod ruled_out;
mod turn;
mod unreachable;

pub use enemy::EnemyMaterial;
pub use player_view::{PlayerView, ViewError};
pub use ruled_out::ruled_out;
pub use turn::TurnKnowledge;
pub use unreachable::why_no_man_can;
