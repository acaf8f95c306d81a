//! The gauntlet: opponents that punish mistakes, to measure how safely an agent plays.
//!
//! - [`RaiderAgent`] (`raider`): a fair, aggressive club player (it hears only its own
//!   announcements): queen and rooks out early, every capture its tries, announcements and
//!   belief allow, checks where its belief says a check is likely, and the recapture on the
//!   square just announced.
//! - [`PeekAgent`] (`peek`): a **cheating** yardstick that sees the true board through a
//!   [`TrueBoard`] the match runner fills; a shallow greedy search. Never a built-in agent by
//!   name ([`crate::AgentKind::ALL`] leaves it out), only `umpire match --allow-cheating-agents`.

mod greedy;
mod peek;
mod raider;
mod true_board;

pub use greedy::{MATE_SCORE, best_move, capture_score};
pub use peek::PeekAgent;
pub use raider::RaiderAgent;
pub use true_board::TrueBoard;
