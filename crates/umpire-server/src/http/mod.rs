//! The HTTP layer, on top of every other: the [`router`], the shared [`state`], the
//! extractors ([`caller`], [`peer`], [`json_body`]), the refusals the framework writes
//! ([`refusals`]), the [`origin`] check, [`rate_limit`]s and the log-in [`backoff`], the
//! connections' limits ([`connections`]: accept loop, per-address cap, header timeout) and
//! the process's file descriptors ([`descriptors`]), the
//! request bodies' ([`request_body`]), the sockets' buffers ([`socket_buffers`]), and the
//! handlers, one file per area: [`accounts`], [`games`],
//! [`challenges`], [`chat_pages`], [`players`], [`downloads`], [`review`], the
//! [`belief`] overlay, [`metrics`], the
//! game socket ([`game_socket`]), the lobby socket ([`lobby_socket`]) and the embedded web
//! [`site`].
//!
//! The handlers translate requests into calls of the domain modules below and answers back;
//! nothing below uses this folder.

pub mod accounts;
pub mod address_share;
pub mod backoff;
pub mod belief;
pub mod caller;
pub mod challenges;
pub mod chat_pages;
pub mod connections;
pub mod descriptors;
pub mod downloads;
pub mod frame_limit;
pub mod game_socket;
pub mod games;
pub mod health;
pub mod json_body;
pub mod lobby_socket;
pub mod metrics;
pub mod origin;
pub mod peer;
pub mod players;
pub mod rate_limit;
pub mod refusal_budget;
pub mod refusals;
pub mod request_body;
pub mod review;
pub mod router;
pub mod site;
pub mod socket_buffers;
pub mod state;
