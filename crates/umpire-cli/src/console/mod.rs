//! What the terminal screens share (`umpire play`, `umpire connect`, `umpire referee` and the
//! Schrödinger forms): reading input lines with a bound ([`input`], [`input_feed`]), printing
//! to stdout ([`stdout`]), Ctrl-C ([`interrupt`]), save files and records ([`save_file`],
//! [`record_file`]), the board ([`board`]), the wording of announcements and commands
//! ([`wording`], [`words`], [`options`]), what a player types ([`typed_command`]), sides
//! ([`side`]), the consoles' JSON answers
//! ([`json_answer`]), a password typed without echo ([`password`]) and the notice before the
//! endgame tables are built ([`table_notice`]).
//!
//! Nothing here knows a command: the commands and screens use these pieces, never the
//! reverse (`tests/layers.rs` checks that no module of the CLI reaches back in a circle).

pub mod board;
pub mod input;
pub mod input_feed;
pub mod interrupt;
pub mod json_answer;
pub mod options;
pub mod password;
pub mod record_file;
pub mod save_file;
pub mod session_file;
pub mod side;
pub mod stdout;
pub mod table_notice;
pub mod typed_command;
pub mod wording;
pub mod words;
