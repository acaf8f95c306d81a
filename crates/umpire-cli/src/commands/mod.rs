//! The commands of `umpire`, one file each, grouped by what they serve: playing and umpiring
//! games at the terminal ([`game`]), the server and its remote clients ([`server`]), and the
//! tools over agents, records and tables ([`research`]). A command reads its arguments, calls
//! the libraries and prints; what the terminal screens share is in [`crate::console`].

pub mod agent_help;
pub mod game;
pub mod research;
pub mod server;
