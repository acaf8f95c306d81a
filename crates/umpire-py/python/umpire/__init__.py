"""Umpire for Python: fast, correct Kriegspiel that leaks nothing.

The game, its rules and every encoding live in Rust (the crate ``umpire-py``); this package
re-exports the native module and adds the pure-Python conveniences:

- :func:`load_game` — the OpenSpiel-shaped game (``new_initial_state()``, ``legal_actions``,
  ``apply_action``, ``observation_tensor``, ...);
- :class:`Umpire`, :class:`Record`, :class:`PlayerView`, :class:`Belief`, :class:`Agent`
  (from any start and any point of a game), :class:`Tablebase` (endgame tables);
- :func:`play_random_games` and :func:`play_match` — whole games at the Rust core's speed;
- :class:`VectorEnv` (:mod:`umpire.vector`, needs NumPy) — many games stepped by one call,
  the fast path from a Python loop;
- :mod:`umpire.pettingzoo` — the PettingZoo AEC environment;
- :mod:`umpire.player` — a ``Player`` class with callbacks (as reconchess);
- :mod:`umpire.datasets` — JSONL / Parquet shards of games and a loader of training examples.
- :mod:`umpire.distributed` — ``umpire match`` and ``umpire selfplay`` runs as Ray tasks, the
  same games for the same seed (imported on its own: it needs Ray).

See ``docs/PYTHON.md`` in the repository.
"""

from __future__ import annotations

import json as _json
from typing import TYPE_CHECKING, Any, Dict

from ._umpire import (
    ANY_ACTION,
    BELIEF_PLANES,
    MAX_STACK,
    NUM_ACTIONS,
    PLANE_NAMES,
    STANDARD_FEN,
    TENSOR_PLANES,
    Agent,
    Belief,
    KriegspielGame,
    KriegspielState,
    PlayerView,
    Record,
    Tablebase,
    Umpire,
    UmpireError,
    agent_names,
    decode_action,
    encode_action,
    load_game,
    play_match,
    play_random_games,
    read_engine_request,
    rule_sets,
    rule_table,
)

if TYPE_CHECKING:
    from .vector import VectorEnv

__all__ = [
    "ANY_ACTION",
    "BELIEF_PLANES",
    "MAX_STACK",
    "NUM_ACTIONS",
    "PLANE_NAMES",
    "STANDARD_FEN",
    "TENSOR_PLANES",
    "Agent",
    "Belief",
    "KriegspielGame",
    "KriegspielState",
    "PlayerView",
    "Record",
    "Tablebase",
    "Umpire",
    "UmpireError",
    "VectorEnv",
    "agent_names",
    "belief_marginals",
    "decode_action",
    "encode_action",
    "load_game",
    "match",
    "play_match",
    "play_random_games",
    "read_engine_request",
    "rule_sets",
    "rule_table",
]


def belief_marginals(belief: Belief) -> Dict[str, Any]:
    """The marginals of a :class:`Belief` as a dict (parsed from ``marginals_json()``)."""
    return _json.loads(belief.marginals_json())


def match(a: str, b: str, games: int = 10, rules: str = "wild16", seed: int = 0,
          max_plies: int = 1000) -> Dict[str, int]:
    """Plays ``games`` games between built-in agents ``a`` and ``b`` (colours alternating).

    The same as :func:`play_match`: a quick in-process match with its own seeding and a
    1,000-ply cap. It is not ``umpire match``: for the games that command plays for a
    seed (the same records, game for game), use :func:`umpire.distributed.match`.
    """
    return play_match(a, b, games=games, rules=rules, seed=seed, max_plies=max_plies)


def __getattr__(name: str) -> Any:
    # VectorEnv needs NumPy, which the core package does not: imported on first use.
    if name == "VectorEnv":
        from .vector import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'umpire' has no attribute {name!r}")
