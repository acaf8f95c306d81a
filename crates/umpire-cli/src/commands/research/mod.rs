//! Tools over agents, records and tables: `umpire selfplay`, `match`, `engine`, `bench`,
//! `audit`, `belief`, `tablebase` and `record`.

pub mod audit;
pub mod belief;
pub mod bench;
pub mod engine_cmd;
pub mod match_cmd;
pub mod record_cmd;
pub mod run_secret;
pub mod selfplay;
pub mod tablebase;
