//! Matches between agents: [`run_match`] (two agents, many games on several threads,
//! deterministic), [`run_round_robin`] (several agents, a ratings table), and the statistics
//! in [`stats`]; [`selfplay_game`] (one game of a self-play run); every seed of a run comes
//! from its secret [`RunKey`], and every game is a function of the key and its index alone.

mod material;
mod runner;
mod seeds;
mod selfplay;
pub mod stats;

pub use material::MaterialAccount;
pub use runner::{
    GameReport, MatchConfig, MatchSummary, Points, RoundRobin, Standing, Termination, play_game,
    run_match, run_round_robin,
};
pub use seeds::{BadRunKey, RunKey};
pub use selfplay::{SelfplayConfig, SelfplayGame, selfplay_game};
