//! `VectorEnv`: many games stepped by one call (`crate::vector`), arrays in and out as
//! little-endian bytes (`umpire.VectorEnv` in the Python package wraps them as NumPy arrays).

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::err;
use super::game::KriegspielState;
use crate::state::{self, GameConfig};
use crate::vector::{self, StepReport};

/// `n` Kriegspiel games stepped together; use `umpire.VectorEnv`, which speaks NumPy.
#[pyclass(module = "umpire._umpire", name = "VectorEnvCore")]
pub struct VectorEnvCore {
    inner: vector::VectorEnv,
    report: StepReport,
    /// The actions (or indices) of the last step, read from Python's bytes (kept: no
    /// allocation a step).
    chosen: Vec<i64>,
}

fn le_bytes<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    values: &[T],
    to: impl Fn(T) -> [u8; N],
) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(values.len() * N);
    for &v in values {
        out.extend_from_slice(&to(v));
    }
    PyBytes::new(py, &out)
}

/// What a step returns to Python: verdicts, done, returns and the next movers, as bytes.
type StepBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

impl VectorEnvCore {
    /// Reads little-endian int64 values into `self.chosen`.
    fn read_int64(&mut self, bytes: &[u8], what: &str) -> PyResult<()> {
        if !bytes.len().is_multiple_of(8) {
            return Err(err(format!(
                "{} bytes of {what}: int64 values expected (8 bytes each)",
                bytes.len()
            )));
        }
        self.chosen.clear();
        self.chosen.extend(bytes.chunks_exact(8).map(|c| {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            i64::from_le_bytes(b)
        }));
        Ok(())
    }

    /// The last step's report as bytes.
    fn report_bytes<'py>(&self, py: Python<'py>) -> StepBytes<'py> {
        let r = &self.report;
        (
            PyBytes::new(py, &r.verdicts),
            PyBytes::new(py, &r.done),
            le_bytes(py, &r.returns, f32::to_le_bytes),
            PyBytes::new(py, &r.to_move),
        )
    }
}

#[pymethods]
impl VectorEnvCore {
    /// `n` games (1 to 65,536) under `rules` from `fen` (or the standard start), stepped on
    /// `threads` threads (1 to 64).
    #[new]
    #[pyo3(signature = (n, rules = "wild16", fen = None, guided = false, threads = 1))]
    fn new(
        n: usize,
        rules: &str,
        fen: Option<String>,
        guided: bool,
        threads: usize,
    ) -> PyResult<VectorEnvCore> {
        let config = GameConfig::new(rules, fen, guided).map_err(err)?;
        let mut inner = vector::VectorEnv::new(config, n).map_err(err)?;
        inner.set_threads(threads);
        Ok(VectorEnvCore {
            inner,
            report: StepReport::default(),
            chosen: Vec::new(),
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The games finished since the vector was made.
    fn games_done(&self) -> u64 {
        self.inner.games_done()
    }

    /// Starts every game again.
    fn reset(&mut self) {
        self.inner.reset();
    }

    /// A copy of game `i`'s state (replayed from the game's kept actions).
    fn state(&self, py: Python<'_>, i: usize) -> PyResult<KriegspielState> {
        let inner = &self.inner;
        let s = py.detach(|| inner.state(i)).map_err(err)?;
        Ok(KriegspielState { inner: s })
    }

    /// Every mover's legal actions as compressed rows: `(actions, offsets)`, little-endian
    /// uint32 bytes; game `i`'s are `actions[offsets[i]:offsets[i + 1]]`.
    fn legal_actions_bytes<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        // Written straight into the bytes Python receives (no list of the actions first).
        let states = self.inner.games();
        let total: usize = states.iter().map(|s| s.mover_count()).sum();
        let actions = PyBytes::new_with(py, total * 4, |buf| {
            let mut slots = buf.chunks_exact_mut(4);
            for s in states {
                for a in s.mover_actions() {
                    if let Some(slot) = slots.next() {
                        slot.copy_from_slice(&u32::from(a).to_le_bytes());
                    }
                }
            }
            Ok(())
        })?;
        let offsets = PyBytes::new_with(py, (states.len() + 1) * 4, |buf| {
            let mut at = 0u32;
            let mut slots = buf.chunks_exact_mut(4);
            if let Some(slot) = slots.next() {
                slot.copy_from_slice(&at.to_le_bytes());
            }
            for s in states {
                // At most 65,536 games of a few hundred actions each: fits in a u32.
                at += s.mover_count() as u32;
                if let Some(slot) = slots.next() {
                    slot.copy_from_slice(&at.to_le_bytes());
                }
            }
            Ok(())
        })?;
        Ok((actions, offsets))
    }

    /// How many legal actions each game's mover has, as little-endian uint16 bytes (the
    /// sorted lists are not read out).
    fn action_counts_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let counts = self.inner.counts();
        PyBytes::new_with(py, counts.len() * 2, |buf| {
            for (slot, c) in buf.chunks_exact_mut(2).zip(counts) {
                slot.copy_from_slice(&c.to_le_bytes());
            }
            Ok(())
        })
    }

    /// Plays one action per game, given as little-endian int64 bytes; returns `(verdicts,
    /// done, returns, to_move)` as bytes (uint8, uint8, float32 × 2 per game, uint8).
    fn step_bytes<'py>(&mut self, py: Python<'py>, actions: &[u8]) -> PyResult<StepBytes<'py>> {
        self.read_int64(actions, "actions")?;
        let (inner, report, chosen) = (&mut self.inner, &mut self.report, &self.chosen);
        py.detach(|| inner.step(chosen, report)).map_err(err)?;
        Ok(self.report_bytes(py))
    }

    /// Plays in each game the legal action of the given rank among its mover's sorted legal
    /// actions (little-endian int64 bytes, one per game); returns what `step_bytes` returns.
    fn step_index_bytes<'py>(&mut self, py: Python<'py>, picks: &[u8]) -> PyResult<StepBytes<'py>> {
        self.read_int64(picks, "indices")?;
        let (inner, report, chosen) = (&mut self.inner, &mut self.report, &self.chosen);
        py.detach(|| inner.step_index(chosen, report))
            .map_err(err)?;
        Ok(self.report_bytes(py))
    }

    /// Every game's observation tensor for `player` (0 or 1), or for each game's mover when
    /// None: n × planes × 8 × 8 little-endian float32 bytes.
    #[pyo3(signature = (player = None))]
    fn observation_tensors_bytes<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let fixed = player.map(state::color_of).transpose().map_err(err)?;
        let inner = &self.inner;
        let out = py.detach(|| {
            let mut all = Vec::with_capacity(inner.len() * crate::tensor::TENSOR_SIZE * 4);
            let mut one = Vec::new();
            for g in inner.games() {
                let side = fixed.unwrap_or_else(|| g.turn());
                g.observation_tensor(side, &mut one);
                for x in &one {
                    all.extend_from_slice(&x.to_le_bytes());
                }
            }
            all
        });
        Ok(PyBytes::new(py, &out))
    }
}
