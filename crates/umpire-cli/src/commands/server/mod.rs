//! The server and its remote clients: `umpire serve`, `umpire bot` (with where its token comes
//! from) and `umpire loadtest`.

pub mod bot;
pub mod bot_token;
pub mod loadtest;
pub mod serve;
