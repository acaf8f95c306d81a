"""The PettingZoo AEC environment passes PettingZoo's own API test."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import umpire.pettingzoo as upz  # noqa: E402


@pytest.mark.parametrize("rules", ["wild16", "berkeley-any"])
def test_api(rules):
    api_test(upz.env(rules=rules), num_cycles=500, verbose_progress=False)


def test_random_agent_in_twenty_lines():
    env = upz.env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
        env.step(action)
        steps += 1
    assert steps > 10
    assert sorted(env.unwrapped.state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert obs["observation"].shape == (umpire_planes(), 8, 8)


def umpire_planes():
    import umpire

    return umpire.TENSOR_PLANES


def test_stacked_and_belief_observations():
    e = upz.raw_env(stack=3, belief=True)
    e.reset()
    assert e.observe("player_0")["observation"].shape == (3 * umpire_planes() + 6, 8, 8)
    e.step(int(np.flatnonzero(e.observe("player_0")["action_mask"])[0]))
    obs = e.observe("player_1")["observation"]
    assert e.observation_space("player_1")["observation"].contains(obs)
    belief = obs[3 * umpire_planes():]
    assert abs(belief.sum() - 16.0) < 1e-3
