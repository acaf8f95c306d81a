//! Matches between agents: [`run_match`] (two agents, many games on several threads,
//! deterministic), [`run_round_robin`] (several agents, a ratings table), and the statistics
//! in [`stats`]; every seed of a run comes from
//! its secret [`RunKey`].

mod runner;
mod seeds;
pub mod stats;

pub use runner::{
    GameReport, MatchConfig, MatchSummary, Points, RoundRobin, Standing, Termination, play_game,
    run_match, run_round_robin,
};
pub use seeds::{BadRunKey, RunKey};
