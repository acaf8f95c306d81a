//! Live games: the [`hub`] of running games, each game one task ([`round`], one file per
//! thing a live game does), its [`clock`]s, the [`projection`] that is all a connection
//! hears of it, the bounded [`outbox`] of frames each connection is sent, and the built-in
//! agents the server seats ([`house_agent`], [`strength`]) with their server-wide queue of
//! decisions ([`agent_pool`]), a finished game step by step for review ([`review`]), and one
//! side's belief for the overlay ([`belief`]) with its bounded cache of answers
//! ([`belief_cache`]) and of beliefs followed along games ([`belief_stream`]); a typed move
//! read against the player's own men, or why it names no move of theirs ([`typed_move`]).
//!
//! Uses the lobby (to tell it of joins and withdrawals), the accounts' rows, ratings and
//! storage; never the HTTP layer.

pub mod adoption;
pub mod agent_pool;
pub mod belief;
pub mod belief_cache;
pub mod belief_stream;
pub mod clock;
pub mod cluster_node;
pub mod house_agent;
pub mod hub;
pub mod outbox;
pub mod projection;
pub mod review;
pub mod round;
pub mod strength;
pub mod typed_move;
