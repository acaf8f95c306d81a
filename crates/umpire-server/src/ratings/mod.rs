//! Ratings: the Glicko-2 rating and its update ([`glicko`]), the time classes that are the
//! rating pools ([`time_class`]), and a seat's rating as a game's frames show it
//! ([`shown_rating`]), and which rated games change no rating because their result could be
//! bought ([`farming`]). Pure computation: it uses nothing else of the crate.

pub mod farming;
pub mod glicko;
pub mod shown_rating;
pub mod time_class;
