"""``VectorEnv``: ``n`` Kriegspiel games stepped by one call, with NumPy arrays in and out.

This is the fast path from Python: one call lists every game's legal actions, one array
operation chooses, one call plays them all (games that end start again at once, as
Gymnasium's vector environments do). Each game is played as a :class:`umpire.KriegspielState`
plays it, so a player's legal actions and tensors come from its own view only; a game keeps
its history compactly (the actions played) and :meth:`VectorEnv.state` replays it into a full
state.

A uniform random player over 256 games::

    import numpy as np
    import umpire

    env = umpire.VectorEnv(256, rules="wild16")
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions, offsets = env.legal_actions()
        counts = np.diff(offsets)
        pick = offsets[:-1] + (rng.random(len(env)) * counts).astype(np.int64)
        step = env.step(actions[pick])
        # step.verdicts, step.done, step.returns (n × 2), step.to_move

The same player without the lists (the fast path: only the counts cross to Python, and each
game plays the action of the drawn rank)::

    for _ in range(1000):
        counts = env.action_counts()
        step = env.step_index((rng.random(len(env)) * counts).astype(np.int64))
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

import numpy as np

from ._umpire import TENSOR_PLANES, KriegspielState, VectorEnvCore

#: Verdict codes in :attr:`Step.verdicts`.
ACCEPTED, ILLEGAL, IMPOSSIBLE, ANSWERED, OTHER = 0, 1, 2, 3, 4


class Step(NamedTuple):
    """What one :meth:`VectorEnv.step` reports, one entry per game."""

    verdicts: np.ndarray
    """uint8: ACCEPTED, ILLEGAL, IMPOSSIBLE, ANSWERED or OTHER."""
    done: np.ndarray
    """bool: the game ended with this step (and has been started again)."""
    returns: np.ndarray
    """float32, n × 2: White's and Black's returns of the games that ended, else 0."""
    to_move: np.ndarray
    """uint8: the player to move next (0 White, 1 Black)."""


class VectorEnv:
    """``n`` games (1 to 65,536) under ``rules`` from ``fen`` (or the standard start),
    stepped together; ``guided=True`` narrows the legal actions by the sound guided
    filters; ``threads`` (1 to 64) steps the games on that many threads, without the
    interpreter lock (the games played do not depend on it)."""

    def __init__(self, n: int, rules: str = "wild16", fen: Optional[str] = None,
                 guided: bool = False, threads: int = 1) -> None:
        self._core = VectorEnvCore(n, rules=rules, fen=fen, guided=guided, threads=threads)
        self._n = len(self._core)

    def __len__(self) -> int:
        return self._n

    @property
    def games_done(self) -> int:
        """The games finished since the environment was made."""
        return self._core.games_done()

    def reset(self) -> None:
        """Starts every game again."""
        self._core.reset()

    def state(self, i: int) -> KriegspielState:
        """A copy of game ``i``'s state, replayed from the game's actions (its record,
        strings and tensors are those of a state given the same actions)."""
        return self._core.state(i)

    def legal_actions(self) -> Tuple[np.ndarray, np.ndarray]:
        """Every mover's legal actions as ``(actions, offsets)`` (uint32): game ``i``'s
        sorted actions are ``actions[offsets[i]:offsets[i + 1]]``."""
        actions, offsets = self._core.legal_actions_bytes()
        return np.frombuffer(actions, dtype="<u4"), np.frombuffer(offsets, dtype="<u4")

    def action_counts(self) -> np.ndarray:
        """How many legal actions each game's mover has (uint16, one per game): the numbers
        to draw indices for :meth:`step_index` from, without the lists being read out."""
        return np.frombuffer(self._core.action_counts_bytes(), dtype="<u2")

    def step(self, actions) -> Step:
        """Plays ``actions[i]`` in game ``i`` (any integer array-like of length n). Raises
        ``UmpireError`` naming the game if an action is not legal for its mover; then no
        game moves."""
        return self._step(self._core.step_bytes(_int64_bytes(actions, "actions")))

    def step_index(self, indices) -> Step:
        """Plays in game ``i`` its mover's legal action of rank ``indices[i]`` (from 0) in
        the sorted order of :meth:`legal_actions`: the same step as
        ``step(actions[offsets[:-1] + indices])``, without the lists being read out (with
        :meth:`action_counts`, the fast path of a random or index-sampling player). Raises
        ``UmpireError`` naming the game if an index is not below its game's count; then no
        game moves."""
        return self._step(self._core.step_index_bytes(_int64_bytes(indices, "indices")))

    def _step(self, raw) -> Step:
        verdicts, done, returns, to_move = raw
        return Step(
            np.frombuffer(verdicts, dtype=np.uint8),
            np.frombuffer(done, dtype=np.uint8).astype(bool),
            np.frombuffer(returns, dtype="<f4").reshape(self._n, 2),
            np.frombuffer(to_move, dtype=np.uint8),
        )

    def observation_tensors(self, player: Optional[int] = None) -> np.ndarray:
        """Every game's observation tensor for ``player`` (0 or 1), or for each game's mover
        when None: float32, n × TENSOR_PLANES × 8 × 8."""
        raw = self._core.observation_tensors_bytes(player)
        return np.frombuffer(raw, dtype="<f4").reshape(self._n, TENSOR_PLANES, 8, 8)


def _int64_bytes(values, what: str) -> bytes:
    """``values`` (any integer array-like) as little-endian int64 bytes."""
    a = np.asarray(values)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{what} must be integers, not {a.dtype}")
    if a.dtype.itemsize == 8 and a.dtype.kind == "u" and a.size \
            and int(a.max()) > np.iinfo(np.int64).max:
        raise OverflowError(f"{what}: a value does not fit in int64")
    return np.ascontiguousarray(a, dtype="<i8").tobytes()
