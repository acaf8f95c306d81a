"""The PettingZoo AEC environment of Kriegspiel.

``env(rules="wild16")`` gives an ``AECEnv`` with agents ``"player_0"`` (White) and
``"player_1"`` (Black). Each observation is ``{"observation": float32[planes, 8, 8],
"action_mask": int8[4673]}``, computed from that player's view only (see ``docs/PYTHON.md``);
actions are the 4,672 + 1 encoding. A rejected attempt leaves the same agent to act, as in
Kriegspiel. Rewards are +1 / -1 / 0 at the end of the game.

Needs ``pettingzoo``, ``gymnasium`` and ``numpy`` (``pip install "umpire-kriegspiel[pettingzoo]"``).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import BELIEF_PLANES, NUM_ACTIONS, TENSOR_PLANES, load_game

AGENTS = ["player_0", "player_1"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (order enforcing, illegal-action
    termination is not used: an action outside the mask raises)."""
    e = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Kriegspiel as an AEC environment; every observation from the observer's view only."""

    metadata = {"render_modes": ["ansi"], "name": "umpire_kriegspiel_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "wild16", fen: Optional[str] = None, guided: bool = False,
                 stack: int = 1, belief: bool = False, render_mode: Optional[str] = None) -> None:
        """``stack``: the last k observation tensors, newest first (k × 35 planes);
        ``belief``: 6 belief-marginal planes appended (standard start only; slow)."""
        super().__init__()
        self.game = load_game("kriegspiel", rules=rules, fen=fen, guided=guided)
        self.stack = stack
        self.belief = belief
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.render_mode = render_mode
        self.planes = TENSOR_PLANES * stack + (BELIEF_PLANES if belief else 0)
        shape = (self.planes, 8, 8)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.state = self.game.new_initial_state()
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        p = AGENTS.index(agent)
        if self.stack > 1:
            raw = self.state.stacked_observation_tensor_bytes(p, self.stack)
        else:
            raw = self.state.observation_tensor_bytes(p)
        if self.belief:
            raw += self.state.belief_planes_bytes(p)
        obs = np.frombuffer(raw, dtype="<f4").reshape(self.planes, 8, 8).astype(np.float32, copy=True)
        mask = np.frombuffer(self.state.legal_actions_mask(p), dtype=np.int8).copy()
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.state = self.game.new_initial_state()
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        verdict = self.state.apply_action(int(action))
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = {"verdict": verdict}
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            for i, a in enumerate(AGENTS):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
        else:
            self.agent_selection = AGENTS[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        """The referee's position (FEN) and the side to move."""
        if self.render_mode is None:
            return None
        return repr(self.state)

    def close(self) -> None:
        pass
