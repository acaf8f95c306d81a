//! Ratings: the Glicko-2 rating and its update ([`glicko`]), the time classes that are the
//! rating pools ([`time_class`]), and a seat's rating as a game's frames show it
//! ([`shown_rating`]). Pure computation: it uses nothing else of the crate.

pub mod glicko;
pub mod shown_rating;
pub mod time_class;
