//! What talks to an Umpire server, over the protocol of [`umpire_protocol`]: the HTTP and
//! WebSocket [`client`], a built-in agent playing a server game as a remote player with
//! reconnect and resume ([`remote`]), the bot runner of `umpire bot` ([`bot`]) and the load
//! generator of `umpire loadtest` ([`load`], paced by [`pacer`]), and the frame that sends a
//! player's command ([`command_frame`]). It never links the server.

#![warn(missing_docs)]

pub mod bot;
pub mod client;
pub mod command_frame;
pub mod load;
pub mod pacer;
pub mod remote;
