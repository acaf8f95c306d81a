//! The Kriegspiel referee.
//!
//! An [`Umpire`] owns the true position and judges every [`Command`] a player gives
//! (attempts, "Any?", draw offers, resignation) under a [`RuleSet`]. Each judgement is an
//! [`Outcome`]: a [`Verdict`] plus [`Announcement`]s, each tagged with its [`Audience`].
//! A player learns only [`Observation`]s, built from an outcome for that player.
//!
//! ```
//! use umpire_rules::{Announcement, Command, RuleSet, Umpire, Verdict};
//! use shakmaty::Color;
//!
//! let mut umpire = Umpire::new(RuleSet::WILD16);
//! for uci in ["e2e4", "d7d5"] {
//!     assert_eq!(umpire.submit(Command::Attempt(uci.parse().unwrap())).verdict, Verdict::Accepted);
//! }
//! // White now has one pawn capture: exd5. The umpire told both players "1 try".
//! let outcome = umpire.submit(Command::Attempt("e4d5".parse().unwrap()));
//! assert_eq!(outcome.verdict, Verdict::Accepted);
//! let heard: Vec<_> = outcome.heard_by(Color::Black).collect();
//! assert!(matches!(heard[0], Announcement::Capture { .. }));
//! ```

mod announcement;
mod attempt;
mod enemy_count;
mod legality;
mod outcome;
mod own_board;
mod phrase;
pub mod playout;
pub mod record;
mod result;
mod rule_set;
pub mod rule_table;
mod umpire;
pub mod wire;

pub use announcement::{Announcement, Audience, CheckKind, Heard, Man};
pub use attempt::{Attempt, AttemptParseError, Command};
pub use enemy_count::EnemyCount;
pub use outcome::{
    Announcements, Invalid, MAX_ANNOUNCEMENTS, Observation, Outcome, OwnCommand, Verdict,
};
pub use own_board::{AttemptList, CommandParseError, MAX_ATTEMPTS, OwnBoard, PROMOTION_PIECES};
pub use record::{Game, Record};
pub use result::{EndReason, GameResult};
pub use rule_set::{
    AnyObligation, PawnCaptureInfo, Rebuff, RuleSet, RuleSetId, StalemateRule, UnknownRuleSet,
};
pub use umpire::{SetupError, Umpire};

pub use shakmaty;
