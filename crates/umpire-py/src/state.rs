//! [`KriegspielState`]: the OpenSpiel-shaped state behind `umpire.load_game("kriegspiel")`.
//!
//! It owns the true game (a recording [`Game`]) and one [`PlayerView`] per player. The views
//! are fed only through [`umpire_rules::Outcome::observation`], the one projection from truth
//! to a player; everything a player is given (legal actions, observation tensor and strings)
//! is computed from its view alone.

use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, Outcome, RuleSet, RuleSetId, Verdict};
use umpire_view::PlayerView;

use crate::action::{self, Action};
use crate::action_set::ActionSet;
pub use crate::legal::{legal_actions_of, legal_set_of};
use crate::{tensor, text};

/// OpenSpiel's player id of a terminal state.
pub const TERMINAL_PLAYER: i32 = -4;

/// What can go wrong with a state; every message is shown to the Python caller.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// The rule-set name is not one of the table's.
    #[error("unknown rule set {0:?} (known: {1})")]
    UnknownRules(String, String),
    /// The FEN is not a position the umpire accepts.
    #[error("bad start position: {0}")]
    Setup(String),
    /// A player id other than 0 (White) or 1 (Black).
    #[error("player {0} is not 0 (white) or 1 (black)")]
    BadPlayer(i64),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action is not among the mover's legal actions.
    #[error("action {action} is not a legal action of player {player} now")]
    NotLegal {
        /// The action.
        action: i64,
        /// The mover.
        player: i32,
    },
    /// A serialised state that does not load.
    #[error("cannot load the state: {0}")]
    Load(String),
}

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// The rule set.
    pub rules: RuleSet,
    /// A set-up start (FEN), or the standard start.
    pub fen: Option<String>,
    /// Legal actions narrowed by the sound guided filters (never hides a legal move) instead
    /// of every attempt possible on the own board.
    pub guided: bool,
}

impl GameConfig {
    /// A configuration by rule-set id (`"wild16"`, `"icc"`, …).
    pub fn new(rules: &str, fen: Option<String>, guided: bool) -> Result<GameConfig, StateError> {
        let id: RuleSetId = rules.parse().map_err(|_| {
            let known: Vec<&str> = RuleSetId::ALL.iter().map(|id| id.as_str()).collect();
            StateError::UnknownRules(rules.to_owned(), known.join(", "))
        })?;
        let config = GameConfig {
            rules: *id.rules(),
            fen,
            guided,
        };
        config.new_game()?;
        Ok(config)
    }

    fn new_game(&self) -> Result<Game, StateError> {
        match &self.fen {
            Some(fen) => {
                Game::from_fen(self.rules, fen).map_err(|e| StateError::Setup(e.to_string()))
            }
            None => Ok(Game::new(self.rules)),
        }
    }
}

/// The views of `side` at the start and after the observations of `record`, rebuilt from the
/// player's filtered record alone.
pub fn view_of(record: &Record, side: Color) -> Result<(PlayerView, PlayerView), StateError> {
    let filtered = record
        .player_view(side)
        .map_err(|e| StateError::Load(e.to_string()))?;
    let start = PlayerView::at_start_of(&filtered);
    let mut view = start.clone();
    for o in &filtered.observations {
        view.observe(o)
            .map_err(|e| StateError::Load(e.to_string()))?;
    }
    Ok((start, view))
}

/// The index of `side` in per-player arrays (White 0, Black 1, as OpenSpiel's player ids).
pub fn index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The color of player id `p`.
pub fn color_of(p: i64) -> Result<Color, StateError> {
    match p {
        0 => Ok(Color::White),
        1 => Ok(Color::Black),
        other => Err(StateError::BadPlayer(other)),
    }
}

/// One game in progress, as OpenSpiel's `State`.
#[derive(Debug)]
pub struct KriegspielState {
    config: GameConfig,
    game: Game,
    start: [PlayerView; 2],
    views: [PlayerView; 2],
    /// The legal actions of the player to move, worked out once after each command (the
    /// Python loop asks for them every step, and `apply_action` checks against them), as a
    /// bit set: a vectorised step counts them and picks one by rank without reading out a
    /// sorted list, and a membership test is one word.
    mover: ActionSet,
    /// How many actions `mover` holds.
    mover_count: u16,
}

impl Clone for KriegspielState {
    fn clone(&self) -> KriegspielState {
        KriegspielState {
            config: self.config.clone(),
            game: self.game.clone(),
            start: self.start.clone(),
            views: self.views.clone(),
            mover: self.mover.clone(),
            mover_count: self.mover_count,
        }
    }

    /// Copies `source` into `self` keeping `self`'s buffers (the record, the views'
    /// transcripts, the legal actions): a vectorised environment resets ended games this way,
    /// and after the first games a reset allocates nothing.
    fn clone_from(&mut self, source: &KriegspielState) {
        // Every field is named: a new field fails to compile here until it is copied.
        let KriegspielState {
            config,
            game,
            start,
            views,
            mover,
            mover_count,
        } = source;
        self.config.clone_from(config);
        self.game.clone_from(game);
        for (mine, theirs) in self.start.iter_mut().zip(start) {
            mine.clone_from(theirs);
        }
        for (mine, theirs) in self.views.iter_mut().zip(views) {
            mine.clone_from(theirs);
        }
        self.mover.clone_from(mover);
        self.mover_count = *mover_count;
    }
}

impl KriegspielState {
    /// A new game.
    pub fn new(config: GameConfig) -> Result<KriegspielState, StateError> {
        let game = config.new_game()?;
        KriegspielState::from_game(config, game)
    }

    fn from_game(config: GameConfig, game: Game) -> Result<KriegspielState, StateError> {
        let (ws, wv) = view_of(game.record(), Color::White)?;
        let (bs, bv) = view_of(game.record(), Color::Black)?;
        let mut state = KriegspielState {
            config,
            game,
            start: [ws, bs],
            views: [wv, bv],
            mover: ActionSet::new(),
            mover_count: 0,
        };
        state.refresh();
        Ok(state)
    }

    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The true game (referee information: never hand it to a player).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The view of `side`.
    pub fn view(&self, side: Color) -> &PlayerView {
        &self.views[index(side)]
    }

    fn start_view(&self, side: Color) -> &PlayerView {
        &self.start[index(side)]
    }

    /// 0 (White) or 1 (Black) to move, or [`TERMINAL_PLAYER`].
    pub fn current_player(&self) -> i32 {
        if self.is_terminal() {
            TERMINAL_PLAYER
        } else {
            match self.game.umpire().turn() {
                Color::White => 0,
                Color::Black => 1,
            }
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.game.umpire().is_over()
    }

    /// The returns (White, Black): +1 to the winner, −1 to the loser, 0 each otherwise and
    /// while the game goes on.
    pub fn returns(&self) -> [f64; 2] {
        match self.game.result().and_then(|r| r.winner) {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// The legal actions of `side`, sorted: its options from its own view (every attempt
    /// possible on its own board and not yet rejected, narrowed by the sound guided filters
    /// when configured), and "Any?" where it may be asked. Empty when `side` is not to move.
    pub fn legal_actions(&self, side: Color, out: &mut Vec<usize>) {
        out.clear();
        if !self.is_terminal() && side == self.game.umpire().turn() {
            out.extend(self.mover.iter().map(usize::from));
        }
    }

    /// The legal actions of the player to move, sorted (none when the game is over).
    pub fn mover_actions(&self) -> impl Iterator<Item = u16> + '_ {
        self.mover.iter()
    }

    /// The legal actions of the player to move as a set (empty when the game is over).
    pub fn mover_set(&self) -> &ActionSet {
        &self.mover
    }

    /// How many legal actions the player to move has (0 when the game is over).
    pub fn mover_count(&self) -> usize {
        usize::from(self.mover_count)
    }

    fn refresh(&mut self) {
        self.mover.clear();
        if !self.is_terminal() {
            let side = self.game.umpire().turn();
            legal_set_of(
                &self.views[index(side)],
                self.config.guided,
                &mut self.mover,
            );
        }
        // At most 4,673 actions: fits in a u16.
        self.mover_count = self.mover.len() as u16;
    }

    /// The mask of legal actions of `side`, one byte per action (1 = legal).
    pub fn legal_mask(&self, side: Color, out: &mut Vec<u8>) {
        out.clear();
        out.resize(action::NUM_ACTIONS, 0);
        if !self.is_terminal() && side == self.game.umpire().turn() {
            for a in self.mover.iter() {
                if let Some(slot) = out.get_mut(usize::from(a)) {
                    *slot = 1;
                }
            }
        }
    }

    /// The command `action` means for the player to move, from that player's own board.
    pub fn command_of(&self, action: usize) -> Option<Command> {
        let side = self.game.umpire().turn();
        let pawns = self.view(side).own_board().board().pawns();
        match action::decode(action, side, |sq| pawns.contains(sq))? {
            Action::Attempt(a) => Some(Command::Attempt(a)),
            Action::AskAny => Some(Command::AskAny),
        }
    }

    /// Plays `action` for the player to move and returns the umpire's outcome. Refuses an
    /// action outside [`KriegspielState::legal_actions`]. A rejected attempt leaves the same
    /// player to move.
    pub fn apply_action(&mut self, action: i64) -> Result<Outcome, StateError> {
        if self.is_terminal() {
            return Err(StateError::GameOver);
        }
        match u16::try_from(action) {
            Ok(id) if self.mover.contains(usize::from(id)) => {
                self.play_legal(id).ok_or_else(|| self.not_legal(action))
            }
            _ => Err(self.not_legal(action)),
        }
    }

    fn not_legal(&self, action: i64) -> StateError {
        StateError::NotLegal {
            action,
            player: self.current_player(),
        }
    }

    /// Plays `id`, one of [`KriegspielState::mover_actions`] (the caller has checked it: a
    /// vectorised step checks every game's action before it plays any, and checks once),
    /// as [`KriegspielState::apply_action`] does. `None`, with nothing played, for an action
    /// that means no command for the mover (never one of its legal actions).
    pub(crate) fn play_legal(&mut self, id: u16) -> Option<Outcome> {
        self.play_legal_then(id, |outcome| outcome)
    }

    /// Plays `id` as [`KriegspielState::play_legal`] does and hands the outcome to `take`.
    #[inline]
    fn play_legal_then<R>(&mut self, id: u16, take: impl FnOnce(Outcome) -> R) -> Option<R> {
        let action = usize::from(id);
        let command = self.command_of(action)?;
        let side = self.game.umpire().turn();
        let before = {
            let t = self.views[index(side)].turn();
            (t.must_try_pawn_capture, t.any_answer)
        };
        let outcome = self.game.submit(command);
        match command {
            Command::Attempt(attempt)
                if outcome.verdict.is_rejection()
                    && !self.config.guided
                    && self.game.umpire().turn() == side =>
            {
                // A rejected attempt that leaves the "Any?" answer and the pawn-capture
                // obligation as they were changes the mover's options (`PlayerView::options`)
                // only by itself, when it joins the turn's rejected attempts: take it out
                // instead of working them all out again. The state tests check this against a
                // fresh computation at every step.
                self.observe_all(command, &outcome);
                let t = self.views[index(side)].turn();
                if (t.must_try_pawn_capture, t.any_answer) == before {
                    if t.rejected.contains(&attempt) && self.mover.contains(action) {
                        self.mover.remove(action);
                        self.mover_count -= 1;
                    }
                } else {
                    self.refresh();
                }
            }
            _ => self.hand_out(command, &outcome),
        }
        Some(take(outcome))
    }

    /// Submits any command (draw offers and resignations included) as the umpire's
    /// `submit` does, and hands each player its observation.
    pub fn submit(&mut self, command: Command) -> Outcome {
        let outcome = self.game.submit(command);
        self.hand_out(command, &outcome);
        outcome
    }

    /// Submits a command as `side` (a resignation or a draw answer out of turn).
    pub fn submit_as(&mut self, side: Color, command: Command) -> Outcome {
        let outcome = self.game.submit_as(side, command);
        self.hand_out(command, &outcome);
        outcome
    }

    fn hand_out(&mut self, command: Command, outcome: &Outcome) {
        self.observe_all(command, outcome);
        self.refresh();
    }

    fn observe_all(&mut self, command: Command, outcome: &Outcome) {
        for side in [Color::White, Color::Black] {
            if let Some(obs) = outcome.observation(command, side) {
                // The umpire's observations always fit the views they are built for.
                let _ = self.views[index(side)].observe(&obs);
            }
        }
    }

    /// The text of `action` for the player to move (UCI, or `any`).
    pub fn action_to_string(&self, action: usize) -> String {
        match self.command_of(action) {
            Some(c) => c.to_text(),
            None => format!("invalid action {action}"),
        }
    }

    /// `side`'s observation tensor ([`tensor::observation_tensor`]).
    pub fn observation_tensor(&self, side: Color, out: &mut Vec<f32>) {
        tensor::observation_tensor(self.view(side), out);
    }

    /// `side`'s last `k` observation tensors, newest first
    /// ([`tensor::stacked_observation_tensor`]).
    pub fn stacked_observation_tensor(&self, side: Color, k: usize, out: &mut Vec<f32>) {
        tensor::stacked_observation_tensor(self.start_view(side), self.view(side), k, out);
    }

    /// `side`'s belief planes ([`tensor::belief_planes`]); `None` from a set-up start.
    pub fn belief_planes(&self, side: Color, out: &mut Vec<f32>) -> Option<()> {
        tensor::belief_planes(self.view(side), out)
    }

    /// `side`'s observation string ([`text::observation_string`]).
    pub fn observation_string(&self, side: Color) -> String {
        text::observation_string(self.view(side))
    }

    /// `side`'s information state string ([`text::information_state_string`]).
    pub fn information_state_string(&self, side: Color) -> String {
        text::information_state_string(self.start_view(side), self.view(side))
    }

    /// The game as a lossless JSON record (the true history: referee information).
    pub fn serialize(&self) -> String {
        self.game.record().to_json()
    }

    /// A state from [`KriegspielState::serialize`]'s text, replayed and checked.
    pub fn deserialize(config: GameConfig, text: &str) -> Result<KriegspielState, StateError> {
        let record = Record::from_json(text).map_err(|e| StateError::Load(e.to_string()))?;
        let game = record
            .replay()
            .map_err(|e| StateError::Load(e.to_string()))?;
        let config = GameConfig {
            rules: *game.umpire().rules(),
            ..config
        };
        KriegspielState::from_game(config, game)
    }

    /// The verdict of the last command, if any.
    pub fn last_verdict(&self) -> Option<Verdict> {
        self.game.record().entries.last().map(|e| e.verdict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn random_games_end_and_rejections_keep_the_mover() {
        for rules in [
            "wild16",
            "english",
            "berkeley-any",
            "cincinnati",
            "rand",
            "umpire1965",
        ] {
            let config = GameConfig::new(rules, None, false).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            for _ in 0..3 {
                let mut s = KriegspielState::new(config.clone()).unwrap();
                let mut actions = Vec::new();
                let mut steps = 0;
                while !s.is_terminal() && steps < 20_000 {
                    let p = s.current_player();
                    s.legal_actions(color_of(i64::from(p)).unwrap(), &mut actions);
                    assert!(!actions.is_empty(), "{rules}: no legal action");
                    let a = actions[rng.random_range(0..actions.len())];
                    let out = s.apply_action(a as i64).unwrap();
                    if out.verdict.is_rejection() || out.verdict == Verdict::Answered {
                        assert_eq!(s.current_player(), p);
                    } else {
                        assert!(out.is_accepted(), "{rules}: {:?}", out.verdict);
                        assert!(s.is_terminal() || s.current_player() != p);
                    }
                    steps += 1;
                    // The kept legal actions are those worked out afresh from the view.
                    let mut fresh = Vec::new();
                    if !s.is_terminal() {
                        let mover = s.game().umpire().turn();
                        legal_actions_of(s.view(mover), false, &mut fresh);
                    }
                    assert_eq!(s.mover_count(), fresh.len());
                    assert_eq!(
                        s.mover_actions().collect::<Vec<_>>(),
                        fresh,
                        "{rules} step {steps} {:?}",
                        s.last_verdict()
                    );
                    // The views the state keeps step by step are the views rebuilt from the
                    // players' filtered records (what the leak test pairs).
                    if steps % 7 == 0 {
                        for side in [Color::White, Color::Black] {
                            let (_, rebuilt) = view_of(s.game().record(), side).unwrap();
                            assert_eq!(&rebuilt, s.view(side));
                        }
                    }
                }
                assert!(s.is_terminal(), "{rules}: not over after {steps} steps");
                let r = s.returns();
                assert_eq!(r[0] + r[1], 0.0);
                // The record round-trips through serialize.
                let back = KriegspielState::deserialize(config.clone(), &s.serialize()).unwrap();
                assert_eq!(back.returns(), r);
                for side in [Color::White, Color::Black] {
                    assert_eq!(
                        back.information_state_string(side),
                        s.information_state_string(side)
                    );
                }
            }
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(
            GameConfig::new("nope", None, false),
            Err(StateError::UnknownRules(..))
        ));
        assert!(matches!(
            GameConfig::new("wild16", Some("not a fen".into()), false),
            Err(StateError::Setup(_))
        ));
        let mut s = KriegspielState::new(GameConfig::new("wild16", None, false).unwrap()).unwrap();
        assert!(s.apply_action(-1).is_err());
        assert!(s.apply_action(1 << 40).is_err());
        // e7e5 is not an option of White's.
        assert!(s.apply_action(4672 + 1).is_err());
        assert!(color_of(2).is_err());
        assert!(KriegspielState::deserialize(s.config().clone(), "{").is_err());
    }
}
