//! The Umpire wire protocol (`docs/PROTOCOL.md`, `docs/SERVER.md`): what a client may send
//! and how it is parsed ([`client_message`]), how an observation travels ([`observation`])
//! and how a player's frames read back into the rules core's observations ([`decode`]).
//!
//! Both sides speak it: `umpire-server` writes these frames, `umpire-client` (and the web page
//! and Python) read them. No runtime, no database: types, limits and pure functions.

#![warn(missing_docs)]

pub mod client_message;
pub mod cpu_time;
pub mod decode;
pub mod observation;

use umpire_view::guided::FilterSet;

/// The protocol version written in every `state` frame (see `docs/PROTOCOL.md`).
pub const PROTOCOL_VERSION: u32 = 1;

/// The guided filters whose options are offered to players: the sound ones only, so that no
/// legal move is ever hidden.
pub const OFFERED_FILTERS: FilterSet = FilterSet::all_sound();
