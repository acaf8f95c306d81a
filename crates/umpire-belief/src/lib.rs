//! What a Kriegspiel player may believe about the men it cannot see.
//!
//! A [`Belief`] holds the positions consistent with a player's *whole* observation history —
//! exactly while there are at most a bound of them (default [`DEFAULT_BOUND`]), as a uniform
//! sample beyond — each witnessed by a hidden history of opponent moves. It is fed only the
//! player's [`Observation`](umpire_rules::Observation)s and the public start position, and it
//! decides what the player would have heard in each hypothetical position by running the real
//! umpire of `umpire-rules` there, so it cannot drift from the rules.
//!
//! On it: the exact guided filter ([`LegalUnion`]), per-square [`Marginals`] (JSON and SVG), the
//! Darkboard [`Metaposition`] (seed 001), and hidden histories as game records
//! ([`history::sample_record`]), and a whole game's belief ply by ply ([`review`]). See
//! `docs/BELIEF.md`.
#![warn(missing_docs)]

mod belief;
mod compare;
mod error;
mod filter;
pub mod history;
mod key_table;
mod marginals;
mod meta_causes;
mod meta_constraints;
mod meta_step;
mod metaposition;
mod parallel;
mod pseudo_step;
pub mod review;
mod simulate;
mod svg;
mod witness;
mod zobrist_key;

pub use belief::{
    Belief, BeliefConfig, DEFAULT_BOUND, DEFAULT_THREADS, FAST_PARTICLES, HISTORY_MOVE_WORK,
    PARALLEL_FROM, RECENT_CHECKPOINTS, REFRESH_WORK, REJUVENATE_AGE, REJUVENATE_HORIZON,
    REJUVENATE_WORK, REPAIR_BUDGET, SizeEstimate,
};
pub use error::BeliefError;
pub use filter::{FilterKind, LegalUnion};
pub use marginals::{MAN_TYPES, Marginals};
pub use metaposition::{EMPTY, Metaposition};
pub use svg::heatmap_svg;
