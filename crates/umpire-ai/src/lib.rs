//! Kriegspiel players. An [`Agent`] receives its player's observations and answers with
//! commands; it holds a [`PlayerView`](umpire_view::PlayerView), never the umpire.
//!
//! [`audit`] checks the guided action space against the truth (the auditor sees the true
//! position; the filters it audits see only a view).

mod agent;
pub mod audit;
mod belief_guided;
mod budget;
pub mod catch_up;
pub mod cpu_clock;
mod darkboard;
mod decision_times;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod gauntlet;
pub mod guided_bench;
mod guided_random;
mod kind;
mod match_play;
pub mod mcts;
mod random;
pub mod restart;
pub mod restart_worlds;
pub mod safety;
mod seat;
mod spec;
pub mod sure_lead;
pub mod time_bound;
pub mod tournament;
mod tuning;

pub use agent::{Agent, opening_heard, play_observations};
pub use belief_guided::{AGENT_BOUND, AGENT_REPAIR_WORK, BeliefGuidedAgent};
pub use budget::{AgentConfig, Analysis, Budget};
pub use darkboard::DarkboardAgent;
pub use decision_times::DecisionTimes;
pub use guided_random::GuidedRandomAgent;
pub use kind::{AgentKind, UnknownAgent};
pub use match_play::{
    MAX_COMMANDS_PER_TURN, MatchError, MatchStats, Table, Watcher, play_match, setup_view,
};
pub use random::RandomAgent;
pub use seat::{Seat, SeatError};
pub use spec::{AgentSpec, CMD_PREFIX, UnknownSpec, engine_timeout, known_agents};
pub use tuning::{MAX_TUNED_BOUND, MAX_TUNED_REPAIR, Tuning};
