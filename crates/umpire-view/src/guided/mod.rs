//! The guided action space of seed 000: the attempts possible on a player's own board, minus
//! those that named, switchable filters hide because of what the player knows.
//!
//! Each filter ([`FilterId`]) is tagged [`Soundness::Sound`] (never hides a move legal in the
//! true position) or [`Soundness::Heuristic`]; a [`FilterSet`] switches them on and off, and
//! [`GuidedSpace::why_hidden`] names the filters that hide an attempt. Everything is worked out
//! from a [`PlayerView`](crate::PlayerView) only, through the deductions of [`Inference`].
//!
//! ```
//! use umpire_rules::{AttemptList, RuleSet};
//! use umpire_rules::shakmaty::Color;
//! use umpire_view::PlayerView;
//! use umpire_view::guided::{FilterId, FilterSet, GuidedSpace};
//!
//! let white = PlayerView::standard(RuleSet::WILD16, Color::White);
//! let space = GuidedSpace::new(&white, FilterSet::all_sound());
//! let mut offered = AttemptList::new();
//! space.options(&mut offered);
//! // 16 pawn moves and 4 knight moves: no pawn capture before any enemy man can be near.
//! assert_eq!(offered.len(), 20);
//! assert_eq!(space.why_hidden("e2d3".parse().unwrap()), [FilterId::B4, FilterId::C1]);
//! assert_eq!(space.why_hidden("f1c4".parse().unwrap()), [FilterId::B2]);
//! ```

mod explain;
mod filter;
mod filter_set;
mod inference;
mod own_board;
mod pins;
mod reach;
mod space;

pub use explain::explain;
pub use filter::{Filter, FilterId, Soundness, markdown_table};
pub use filter_set::FilterSet;
pub use inference::Inference;
pub(crate) use reach::enemy_reach;
pub use space::{GuidedSpace, guided_options, why_hidden};
