//! Game records: [`Game`] (an umpire that keeps its record), [`Record`] (lossless, versioned
//! JSON; replay that fails loudly on any difference) and Kriegspiel PGN, both the referee's
//! view ([`Record::to_pgn`], [`Record::from_pgn`]) and each player's filtered view
//! ([`Record::player_view`], [`PlayerView::to_pgn`]).
//!
//! The formats are described in `docs/RECORDS.md`.

mod date;
mod entry;
mod game;
mod game_record;
mod heard_list;
mod json;
mod movetext;
pub mod notation;
mod pgn_export;
mod pgn_import;
mod player_view;
mod replay;
mod tags;

pub use date::pgn_date;
pub use entry::Entry;
pub use game::Game;
pub use game_record::{FORMAT, Record, STANDARD_FEN, VERSION};
pub use heard_list::{HeardList, INLINE_HEARD};
pub use json::RecordError;
pub use pgn_export::ExportError;
pub use pgn_import::PgnError;
pub use player_view::{PLAYER_VIEW_FORMAT, PLAYER_VIEW_TAGS, PlayerView, public_tags};
pub use replay::{Mismatch, ReplayError};
pub use tags::{TagError, Tags};
