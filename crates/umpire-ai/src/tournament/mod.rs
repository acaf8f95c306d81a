//! Matches between agents: [`run_match`] (two agents, many games on several threads,
//! deterministic), [`run_round_robin`] (several agents, a ratings table), and the statistics
//! in [`stats`].

mod runner;
pub mod stats;

pub use runner::{
    GameReport, MatchConfig, MatchSummary, Points, RoundRobin, Standing, Termination, game_seed,
    play_game, run_match, run_round_robin,
};
