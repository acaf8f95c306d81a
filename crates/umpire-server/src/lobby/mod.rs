//! The lobby: the open challenges as a [`feed`] of events, and [`challenge`]s withdrawn
//! (cancelled, declined, expired) with the tombstones that say why.
//!
//! Uses storage and ratings' time classes; the games' tasks publish into it.

pub mod challenge;
pub mod feed;
