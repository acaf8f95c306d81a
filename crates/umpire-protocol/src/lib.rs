//! The Umpire wire protocol (`docs/PROTOCOL.md`, `docs/SERVER.md`) as types: every frame the
//! server sends on the game socket ([`game::GameFrame`]) and the lobby feed
//! ([`lobby::LobbyFrame`]), what a client sends and how it is parsed with its limits
//! ([`client_message`]), the bodies of the HTTP API ([`http`]), the pieces they contain
//! (observations, announcements, clocks, results, ratings), and how a player's frames read back
//! into the rules core's observations ([`decode`]).
//!
//! Both sides speak it: `umpire-server` writes these frames, `umpire-client` (and the web page
//! and Python) read them. No runtime, no database: types, limits and pure functions.
//!
//! # TypeScript
//!
//! The web page's declarations of these types, `web/src/protocol/*.ts`, are generated from
//! them by `ts-rs` (a dev-dependency: no binary carries it) and checked in. A test of this
//! crate generates them afresh and fails, naming the stale file, when the checked-in ones
//! differ. To refresh them after changing a type:
//!
//! ```sh
//! UMPIRE_WRITE_TS=1 cargo test --profile ci -p umpire-protocol typescript
//! ```

#![warn(missing_docs)]

pub mod announcement;
pub mod chat;
pub mod client_message;
pub mod clock;
pub mod cpu_time;
pub mod decode;
pub mod ending;
pub mod error_frame;
pub mod game;
pub mod http;
pub mod lobby;
pub mod man;
pub mod observation;
pub mod rating;
pub mod side;
#[cfg(test)]
mod typescript;

use umpire_view::guided::FilterSet;

/// The protocol version written in every `state` frame (see `docs/PROTOCOL.md`).
pub const PROTOCOL_VERSION: u32 = 1;

/// The guided filters whose options are offered to players: the sound ones only, so that no
/// legal move is ever hidden.
pub const OFFERED_FILTERS: FilterSet = FilterSet::all_sound();
