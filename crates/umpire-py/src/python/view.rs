//! A player's view (`PlayerView`) and belief (`Belief`): what one player knows and may
//! believe, built from its observations only.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief as CoreBelief, BeliefConfig, Marginals};
use umpire_rules::Observation;
use umpire_rules::shakmaty::Color;
use umpire_rules::shakmaty::EnPassantMode;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::{Attempt, AttemptList};
use umpire_view::PlayerView as CoreView;
use umpire_view::guided::{FilterSet, GuidedSpace};

use super::convert::{color_name, observation, side_of};
use super::err;
use super::game::KriegspielState;
use crate::{tensor, text};

/// One player's knowledge: its own men, what it heard, the enemy material it can count.
#[pyclass(module = "umpire._umpire", frozen)]
pub struct PlayerView {
    pub(crate) inner: CoreView,
}

#[pymethods]
impl PlayerView {
    /// `"white"` or `"black"`.
    #[getter]
    fn side(&self) -> &'static str {
        color_name(self.inner.side())
    }

    /// The side to move.
    #[getter]
    fn to_move(&self) -> &'static str {
        color_name(self.inner.to_move())
    }

    /// The moves played (public: every move is announced).
    #[getter]
    fn plies(&self) -> u32 {
        self.inner.plies()
    }

    /// The own men as a board FEN (the enemy's squares are unknown and shown empty).
    #[getter]
    fn own_board(&self) -> String {
        self.inner.own_board().board().to_string()
    }

    /// `{"men": n, "pawns_at_most": p}`: the enemy material the player can count.
    fn enemy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = self.inner.enemy();
        let d = PyDict::new(py);
        d.set_item("men", e.men)?;
        d.set_item("pawns_at_most", e.pawns_at_most)?;
        Ok(d)
    }

    /// The observations heard from the `start`-th on, in order (dicts: actor, command,
    /// verdict, moved, announcements).
    #[pyo3(signature = (start = 0))]
    fn heard<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.inner
            .transcript()
            .get(start..)
            .unwrap_or_default()
            .iter()
            .map(|o| observation(py, o))
            .collect()
    }

    /// The number of observations heard.
    fn heard_count(&self) -> usize {
        self.inner.transcript().len()
    }

    /// What the player may still try this turn (UCI), and `"any"` where it may ask; with
    /// `guided=True`, narrowed by the sound guided filters.
    #[pyo3(signature = (guided = false))]
    fn options(&self, guided: bool) -> Vec<String> {
        let mut list = AttemptList::new();
        let may_ask = if guided {
            GuidedSpace::new(&self.inner, FilterSet::all_sound()).options(&mut list)
        } else {
            self.inner.options(&mut list)
        };
        let mut out: Vec<String> = list.iter().map(|a| a.to_string()).collect();
        if may_ask {
            out.push("any".to_owned());
        }
        out
    }

    /// Why the guided filters hide `attempt` (UCI): the ids of the filters that hide it,
    /// empty when it is shown.
    fn why_hidden(&self, attempt: &str) -> PyResult<Vec<String>> {
        let a = Attempt::from_uci(attempt).map_err(err)?;
        Ok(GuidedSpace::new(&self.inner, FilterSet::all())
            .why_hidden(a)
            .into_iter()
            .map(|id| id.to_string())
            .collect())
    }

    /// Whether it is this player's turn.
    fn is_my_turn(&self) -> bool {
        self.inner.is_my_turn()
    }

    /// The observation string (as `KriegspielState.observation_string`).
    fn observation_string(&self) -> String {
        text::observation_string(&self.inner)
    }

    /// The observation tensor (as `KriegspielState.observation_tensor`).
    fn observation_tensor(&self) -> Vec<f32> {
        let mut out = Vec::new();
        tensor::observation_tensor(&self.inner, &mut out);
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "<PlayerView {} plies {} own {}>",
            color_name(self.inner.side()),
            self.inner.plies(),
            self.inner.own_board().board()
        )
    }
}

/// What a player may believe: the positions consistent with its observations (exact while
/// few, sampled beyond), from the standard start or a set-up start.
#[pyclass(module = "umpire._umpire")]
pub struct Belief {
    inner: CoreBelief,
    seen: usize,
    /// The start of the belief's game (FEN), to refuse a state of another game.
    start_fen: String,
}

impl Belief {
    fn build(side: Color, rules: &str, fen: Option<String>) -> PyResult<Belief> {
        let (config, umpire) = super::agent::start_umpire(rules, fen)?;
        let start = Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string();
        let inner = CoreBelief::new(
            config.rules,
            umpire.position().clone(),
            side,
            BeliefConfig::default(),
        )
        .map_err(err)?;
        Ok(Belief {
            inner,
            seen: 0,
            start_fen: start,
        })
    }

    /// Takes in the observations of `transcript` (one player's, of the game this belief
    /// follows) from the first it has not seen, without the interpreter lock.
    fn take_in(&mut self, py: Python<'_>, transcript: &[Observation]) -> PyResult<()> {
        let Some(new) = transcript.get(self.seen..) else {
            return Err(err("this is not the game the belief has been following"));
        };
        let belief = &mut self.inner;
        let result = py.detach(|| {
            for o in new {
                belief.observe(o)?;
            }
            Ok::<(), umpire_belief::BeliefError>(())
        });
        self.seen += new.len();
        result.map_err(err)
    }
}

#[pymethods]
impl Belief {
    /// The belief of `side` at the start of a game under `rules`: the standard start, or
    /// `fen`, a set-up start both players are told. Follow a game with `update(state)`.
    #[new]
    #[pyo3(signature = (side, rules = "wild16", fen = None))]
    fn new(side: &Bound<'_, PyAny>, rules: &str, fen: Option<String>) -> PyResult<Belief> {
        Belief::build(side_of(side)?, rules, fen)
    }

    /// The belief of `side` (default: the player to move) in `state`'s game, from any start
    /// and at any point (say a state loaded from a record): made at the game's start, then
    /// updated with that player's observations so far. Lets go of the interpreter lock while
    /// it works.
    #[staticmethod]
    #[pyo3(signature = (state, side = None))]
    fn for_state(
        py: Python<'_>,
        state: &KriegspielState,
        side: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Belief> {
        let side = match side {
            Some(s) => side_of(s)?,
            None => state.inner.game().umpire().turn(),
        };
        let record = state.inner.game().record();
        let mut belief = Belief::build(side, record.rules.as_str(), Some(record.fen.clone()))?;
        belief.update(py, state)?;
        Ok(belief)
    }

    /// Takes in the observations of `state` for this belief's side that it has not seen yet
    /// (from that player's view only). Lets go of the interpreter lock while it works.
    fn update(&mut self, py: Python<'_>, state: &KriegspielState) -> PyResult<()> {
        if state.inner.game().record().fen != self.start_fen {
            return Err(err(format!(
                "this state's game starts from {}, the belief's from {}",
                state.inner.game().record().fen,
                self.start_fen
            )));
        }
        self.take_in(py, state.inner.view(self.inner.side()).transcript())
    }

    /// The belief of `view`'s player (what a `Player` is handed in `choose`), from the
    /// observations the view has heard: made at the standard start, or at `fen`, the set-up
    /// start both players were told (a view of a set-up game does not know the enemy's men
    /// at the start, so it must be given; the belief then trusts it). Follow the game with
    /// `update_view(view)`. Lets go of the interpreter lock while it works.
    #[staticmethod]
    #[pyo3(signature = (view, fen = None))]
    fn for_view(py: Python<'_>, view: &PlayerView, fen: Option<String>) -> PyResult<Belief> {
        let v = &view.inner;
        if fen.is_none() && !v.standard_start() {
            return Err(err(
                "this view's game started from a set-up position: pass its FEN (fen=...)",
            ));
        }
        let mut belief = Belief::build(v.side(), v.rules().id.as_str(), fen)?;
        belief.update_view(py, view)?;
        Ok(belief)
    }

    /// Takes in the observations `view` has heard that this belief has not seen yet (a view of
    /// the same player in the game the belief follows). Lets go of the interpreter lock while
    /// it works.
    fn update_view(&mut self, py: Python<'_>, view: &PlayerView) -> PyResult<()> {
        if view.inner.side() != self.inner.side() {
            return Err(err(format!(
                "this view is {}'s, the belief is {}'s",
                color_name(view.inner.side()),
                color_name(self.inner.side())
            )));
        }
        self.take_in(py, view.inner.transcript())
    }

    /// The number of positions held (or estimated, when sampled).
    fn size(&self) -> u64 {
        self.inner.size()
    }

    /// Whether the belief holds every consistent position.
    fn is_exact(&self) -> bool {
        self.inner.is_exact()
    }

    /// `k` positions drawn from the belief (FEN), seeded.
    #[pyo3(signature = (k, seed = 0))]
    fn sample(&self, k: usize, seed: u64) -> Vec<String> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.inner
            .sample(k.min(100_000), &mut rng)
            .iter()
            .map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string())
            .collect()
    }

    /// The marginals as JSON text: for each square, the probability of each enemy man type
    /// (pawn, knight, bishop, rook, queen, king, empty). `umpire.Belief.marginals()` in the
    /// Python package parses it.
    fn marginals_json(&self, py: Python<'_>) -> String {
        let belief = &self.inner;
        py.detach(|| Marginals::of(belief).to_json())
    }
}

/// Reads one engine-protocol request line (docs/ENGINE.md): returns `(request, view,
/// options, seed)` with `request` `"choose"` or `"draw"`, the player's view rebuilt from the
/// request alone, and its options (UCI, and `"any"` where it may ask; narrowed by the sound
/// guided filters with `guided=True`).
#[pyfunction]
#[pyo3(signature = (line, guided = false))]
pub fn read_engine_request(
    line: &str,
    guided: bool,
) -> PyResult<(&'static str, PlayerView, Vec<String>, u64)> {
    let turn = crate::engine::read_request(line, guided).map_err(err)?;
    Ok((
        if turn.draw { "draw" } else { "choose" },
        PlayerView { inner: turn.view },
        turn.options,
        turn.seed,
    ))
}
