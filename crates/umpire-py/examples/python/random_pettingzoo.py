"""A random agent against the PettingZoo environment: plays whole games and counts results."""

import numpy as np

import umpire.pettingzoo


def play(games=3, seed=1):
    env = umpire.pettingzoo.env(rules="wild16")
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                if agent == "player_0":
                    results.append(reward)  # White's return: 1, 0 or -1
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return results


if __name__ == "__main__":
    print(play())
