//! `load_game("kriegspiel")`, the game object and its states, shaped as OpenSpiel's.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use umpire_rules::shakmaty::Color;

use super::convert::{color_name, outcome, side_of};
use super::err;
use crate::action::{self, Action, NUM_ACTIONS};
use crate::state::{self, GameConfig};
use crate::tensor;

/// The Kriegspiel game: a rule set, a start and the kind of legal actions.
#[pyclass(module = "umpire._umpire", frozen)]
pub struct KriegspielGame {
    config: GameConfig,
}

/// Loads a game by name: `"kriegspiel"` (also `"umpire"`), with `rules` a rule-set id
/// (`wild16` by default), `fen` a set-up start, and `guided=True` for legal actions narrowed
/// by the sound guided filters.
#[pyfunction]
#[pyo3(signature = (name = "kriegspiel", rules = "wild16", fen = None, guided = false))]
pub fn load_game(
    name: &str,
    rules: &str,
    fen: Option<String>,
    guided: bool,
) -> PyResult<KriegspielGame> {
    if name != "kriegspiel" && name != "umpire" {
        return Err(err(format!(
            "unknown game {name:?} (this module plays \"kriegspiel\")"
        )));
    }
    let config = GameConfig::new(rules, fen, guided).map_err(err)?;
    Ok(KriegspielGame { config })
}

#[pymethods]
impl KriegspielGame {
    /// A new game at its start.
    fn new_initial_state(&self) -> PyResult<KriegspielState> {
        let inner = state::KriegspielState::new(self.config.clone()).map_err(err)?;
        Ok(KriegspielState { inner })
    }

    /// 4,673: the 4,672 moves and "Any?".
    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// 2.
    fn num_players(&self) -> usize {
        2
    }

    /// -1.0 (a loss).
    fn min_utility(&self) -> f64 {
        -1.0
    }

    /// 1.0 (a win).
    fn max_utility(&self) -> f64 {
        1.0
    }

    /// [planes, 8, 8].
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![tensor::PLANES, 8, 8]
    }

    /// The number of floats in an observation tensor.
    fn observation_tensor_size(&self) -> usize {
        tensor::TENSOR_SIZE
    }

    /// The rule-set id.
    fn rules(&self) -> String {
        self.config.rules.id.as_str().to_owned()
    }

    /// A state from `KriegspielState.serialize()`.
    fn deserialize_state(&self, text: &str) -> PyResult<KriegspielState> {
        let inner = state::KriegspielState::deserialize(self.config.clone(), text).map_err(err)?;
        Ok(KriegspielState { inner })
    }

    fn __repr__(&self) -> String {
        format!(
            "load_game(\"kriegspiel\", rules={:?}, fen={:?}, guided={})",
            self.config.rules.id.as_str(),
            self.config.fen,
            if self.config.guided { "True" } else { "False" }
        )
    }
}

/// One game in progress. Everything per player is computed from that player's view alone.
#[pyclass(module = "umpire._umpire")]
#[derive(Clone)]
pub struct KriegspielState {
    pub(crate) inner: state::KriegspielState,
}

fn player_or_current(s: &state::KriegspielState, player: Option<i64>) -> PyResult<Color> {
    match player {
        Some(p) => state::color_of(p).map_err(err),
        None => Ok(s.game().umpire().turn()),
    }
}

#[pymethods]
impl KriegspielState {
    /// 0 (White) or 1 (Black) to move, or -4 when the game is over.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// The legal actions of `player` (default: the player to move), sorted; empty for the
    /// player not to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<usize>> {
        let side = player_or_current(&self.inner, player)?;
        let mut out = Vec::new();
        self.inner.legal_actions(side, &mut out);
        Ok(out)
    }

    /// The legal actions of `player` as a mask: 4,673 bytes, 1 where legal.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let side = player_or_current(&self.inner, player)?;
        let mut out = Vec::new();
        self.inner.legal_mask(side, &mut out);
        Ok(PyBytes::new(py, &out))
    }

    /// Plays `action` for the player to move; returns the verdict (`"accepted"`,
    /// `"illegal"`, `"impossible"`, `"answered"` for "Any?"). A rejected attempt leaves the
    /// same player to move. Raises `UmpireError` for an action not legal now.
    fn apply_action(&mut self, action: i64) -> PyResult<&'static str> {
        let out = self.inner.apply_action(action).map_err(err)?;
        Ok(out.verdict.as_str())
    }

    /// Plays `action` and returns the umpire's whole answer (referee information: both
    /// players' observations and every announcement's audience).
    fn apply_action_with_outcome<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let command = usize::try_from(action)
            .ok()
            .and_then(|a| self.inner.command_of(a))
            .ok_or_else(|| err(format!("action {action} is out of range")))?;
        let out = self.inner.apply_action(action).map_err(err)?;
        outcome(py, command, &out)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Always False: Kriegspiel has no chance nodes.
    fn is_chance_node(&self) -> bool {
        false
    }

    /// [White's, Black's] return: 1 to the winner, -1 to the loser, 0 otherwise.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// The returns of this step; non-zero only at the end (the game's returns).
    fn rewards(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// A copy.
    #[pyo3(name = "clone")]
    fn clone_state(&self) -> KriegspielState {
        KriegspielState {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> KriegspielState {
        self.clone_state()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> KriegspielState {
        self.clone_state()
    }

    /// The true game as a JSON record (referee information).
    fn serialize(&self) -> String {
        self.inner.serialize()
    }

    /// The text of `action` (UCI or `any`) for the player to move. Called as
    /// `action_to_string(action)` or, as OpenSpiel does, `action_to_string(player, action)`.
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<i64>) -> PyResult<String> {
        let (side, a) = match action {
            Some(a) => (state::color_of(player_or_action).map_err(err)?, a),
            None => (self.inner.game().umpire().turn(), player_or_action),
        };
        let a = usize::try_from(a).map_err(|_| err(format!("action {a} is out of range")))?;
        let pawns = self.inner.view(side).own_board().board().pawns();
        match action::decode(a, side, |sq| pawns.contains(sq)) {
            Some(Action::Attempt(at)) => Ok(at.to_string()),
            Some(Action::AskAny) => Ok("any".to_owned()),
            None => Err(err(format!("action {a} is out of range"))),
        }
    }

    /// The action of an attempt in UCI (or `any`) for the player to move.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let side = self.inner.game().umpire().turn();
        let command = self
            .inner
            .view(side)
            .own_board()
            .parse_command(text)
            .map_err(err)?;
        match command {
            umpire_rules::Command::AskAny => Ok(action::ANY_ACTION),
            umpire_rules::Command::Attempt(a) => {
                action::encode(a, side).ok_or_else(|| err(format!("{text:?} has no action")))
            }
            other => Err(err(format!("{other} is not an action"))),
        }
    }

    /// `player`'s observation string (its knowledge now, from its view only).
    fn observation_string(&self, player: i64) -> PyResult<String> {
        Ok(self
            .inner
            .observation_string(state::color_of(player).map_err(err)?))
    }

    /// `player`'s information-state string (its whole observation history).
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        Ok(self
            .inner
            .information_state_string(state::color_of(player).map_err(err)?))
    }

    /// `player`'s observation tensor as a list of floats (planes × 8 × 8, see PLANE_NAMES).
    fn observation_tensor(&self, player: i64) -> PyResult<Vec<f32>> {
        let mut out = Vec::new();
        self.inner
            .observation_tensor(state::color_of(player).map_err(err)?, &mut out);
        Ok(out)
    }

    /// `player`'s observation tensor as little-endian float32 bytes (for `numpy.frombuffer`).
    fn observation_tensor_bytes<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mut out = Vec::new();
        self.inner
            .observation_tensor(state::color_of(player).map_err(err)?, &mut out);
        let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// `player`'s last `k` observation tensors stacked, newest first (k × planes × 8 × 8
    /// floats; frames before the start are zeros), as little-endian float32 bytes.
    fn stacked_observation_tensor_bytes<'py>(
        &self,
        py: Python<'py>,
        player: i64,
        k: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let side = state::color_of(player).map_err(err)?;
        let mut out = Vec::new();
        py.detach(|| self.inner.stacked_observation_tensor(side, k, &mut out));
        let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// `player`'s belief planes (6 × 8 × 8 floats: the probability of each enemy man type on
    /// each square among the positions consistent with its observations), as little-endian
    /// float32 bytes. Standard start only; slow (the belief is worked out at each call,
    /// without the interpreter lock).
    fn belief_planes_bytes<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let side = state::color_of(player).map_err(err)?;
        let mut out = Vec::new();
        py.detach(|| self.inner.belief_planes(side, &mut out))
            .ok_or_else(|| err("belief planes need the standard start"))?;
        let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// `player`'s view (own board, what it heard, options).
    fn view(&self, player: &Bound<'_, PyAny>) -> PyResult<super::view::PlayerView> {
        let side = side_of(player)?;
        Ok(super::view::PlayerView {
            inner: self.inner.view(side).clone(),
        })
    }

    /// The true game's record (referee information).
    fn record(&self) -> super::record::Record {
        super::record::Record {
            inner: self.inner.game().record().clone(),
        }
    }

    /// The number of moves played.
    fn move_number(&self) -> u32 {
        self.inner.game().umpire().plies()
    }

    /// The result as `"1-0"`, `"0-1"`, `"1/2-1/2"`, or None while the game goes on.
    fn result(&self) -> Option<&'static str> {
        self.inner.game().result().map(|r| r.score())
    }

    /// Submits any command as the umpire judges it, for `player` (default: the player to
    /// move): an attempt in UCI or SAN as the player's own board reads it, even one outside
    /// the legal actions (answered impossible or illegal), `any`, `draw offer`,
    /// `draw accept`, `draw decline`, `resign`. Returns the verdict.
    #[pyo3(signature = (command, player = None))]
    fn submit(&mut self, command: &str, player: Option<i64>) -> PyResult<&'static str> {
        let side = player_or_current(&self.inner, player)?;
        let parsed = self
            .inner
            .view(side)
            .own_board()
            .parse_command(command)
            .map_err(err)?;
        Ok(self.inner.submit_as(side, parsed).verdict.as_str())
    }

    /// Submits a command as records write it (`"e2e4"`, `"e7e8q"`, `"any"`, `"draw offer"`,
    /// …: the `command` of a JSON record's entry) for `player` (default: the player to
    /// move), read exactly and never through the player's board, so that any recorded
    /// command, even an attempt from an empty square, is judged again as the umpire judged
    /// it. Returns the verdict.
    #[pyo3(signature = (command, player = None))]
    fn replay(&mut self, command: &str, player: Option<i64>) -> PyResult<&'static str> {
        let side = player_or_current(&self.inner, player)?;
        let parsed = match umpire_rules::record::notation::parse_command_text(command) {
            Ok(c) => c,
            // Records also hold attempts no notation reads back, say from a square to itself.
            Err(e) => raw_attempt(command).ok_or_else(|| err(e))?,
        };
        Ok(self.inner.submit_as(side, parsed).verdict.as_str())
    }

    /// The true position as FEN (referee information).
    fn __str__(&self) -> String {
        use umpire_rules::shakmaty::EnPassantMode;
        use umpire_rules::shakmaty::fen::Fen;
        Fen::from_position(self.inner.game().umpire().position(), EnPassantMode::Legal).to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<KriegspielState {} to move {}>",
            self.__str__(),
            color_name(self.inner.game().umpire().turn())
        )
    }
}

/// An attempt written as two square names (and a promotion letter), whatever the squares.
fn raw_attempt(text: &str) -> Option<umpire_rules::Command> {
    use umpire_rules::shakmaty::{Role, Square};
    let t = text.trim();
    let from: Square = t.get(0..2)?.parse().ok()?;
    let to: Square = t.get(2..4)?.parse().ok()?;
    let promotion = match t.get(4..)? {
        "" => None,
        "q" => Some(Role::Queen),
        "r" => Some(Role::Rook),
        "b" => Some(Role::Bishop),
        "n" => Some(Role::Knight),
        _ => return None,
    };
    Some(umpire_rules::Command::Attempt(umpire_rules::Attempt {
        from,
        to,
        promotion,
    }))
}

/// The action of an attempt (UCI) for `player`.
#[pyfunction]
pub fn encode_action(player: &Bound<'_, PyAny>, uci: &str) -> PyResult<usize> {
    let side = side_of(player)?;
    if uci.trim().eq_ignore_ascii_case("any") {
        return Ok(action::ANY_ACTION);
    }
    let a = umpire_rules::Attempt::from_uci(uci).map_err(err)?;
    action::encode(a, side).ok_or_else(|| err(format!("{uci:?} has no action")))
}

/// The attempt (UCI) or `"any"` an action means for `player`; `pawn_on_from` says whether
/// the player has a pawn on the starting square (a queen-like step to the last rank is then
/// a promotion to a queen).
#[pyfunction]
#[pyo3(signature = (player, action, pawn_on_from = false))]
pub fn decode_action(
    player: &Bound<'_, PyAny>,
    action: usize,
    pawn_on_from: bool,
) -> PyResult<String> {
    let side = side_of(player)?;
    match action::decode(action, side, |_| pawn_on_from) {
        Some(Action::Attempt(a)) => Ok(a.to_string()),
        Some(Action::AskAny) => Ok("any".to_owned()),
        None => Err(err(format!("action {action} is out of range"))),
    }
}
