//! The body of `GET /api/games/{id}/review`: a finished game step by step, with the true
//! board after each command and what each player heard of it, for the review page.

use serde::{Deserialize, Serialize};

use crate::announcement::HeardAnnouncement;
use crate::ending::Ending;
use crate::side::{BySide, Side};

/// `{"game","rules","players","result","start_fen","opening","steps"}`: answered only once the
/// game is over (before that, 403 `game_not_over`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReviewBody {
    /// The game's id.
    pub game: String,
    /// The rule set's id.
    pub rules: String,
    /// The players' display names.
    pub players: BySide<String>,
    /// The result.
    pub result: Option<Ending>,
    /// The position the game started from (FEN).
    pub start_fen: String,
    /// What each player heard before the first command.
    pub opening: BySide<Vec<HeardAnnouncement>>,
    /// One step per command the umpire judged, in order: attempts (accepted or not), "Any?",
    /// draw offers and answers, resignations and the ends the server declared.
    pub steps: Vec<ReviewStep>,
}

/// One command of a finished game and what came of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReviewStep {
    /// Who gave the command (for an end the server declared: the side it concerns).
    pub actor: Side,
    /// The command in record words (`e2e4`, `any`, `draw offer`, `resign`, `flag`, …).
    pub command: String,
    /// The umpire's verdict (`accepted`, `answered`, `illegal`, `impossible`, `repeat`,
    /// `invalid`, `game_over`).
    pub verdict: String,
    /// Whether a move was played (the turn passed).
    pub moved: bool,
    /// The true board after this step, as FEN (the referee's view).
    pub fen: String,
    /// What each player heard of this step.
    pub heard: BySide<Vec<HeardAnnouncement>>,
}
