"""VectorEnv: many games stepped by one call, against single states played alike."""

import numpy as np
import pytest

import umpire
from umpire.vector import ACCEPTED


def choose(actions, offsets, rng):
    counts = np.diff(offsets).astype(np.int64)
    assert (counts > 0).all()
    pick = offsets[:-1].astype(np.int64) + (rng.random(len(counts)) * counts).astype(np.int64)
    return actions[pick].astype(np.int64)


@pytest.mark.parametrize("threads", [1, 2])
def test_vector_plays_what_single_states_play(threads):
    n = 6
    env = umpire.VectorEnv(n, rules="wild16", threads=threads)
    assert len(env) == n
    game = umpire.load_game("kriegspiel", rules="wild16")
    singles = [game.new_initial_state() for _ in range(n)]
    rng = np.random.default_rng(1)
    ended = 0
    for step_no in range(2500):
        actions, offsets = env.legal_actions()
        assert offsets.shape == (n + 1,)
        for i, s in enumerate(singles):
            assert list(actions[offsets[i]:offsets[i + 1]]) == s.legal_actions()
        chosen = choose(actions, offsets, rng)
        step = env.step(chosen)
        assert step.returns.shape == (n, 2)
        for i, s in enumerate(singles):
            verdict = s.apply_action(int(chosen[i]))
            assert bool(step.done[i]) == s.is_terminal()
            if s.is_terminal():
                assert list(step.returns[i]) == s.returns()
                singles[i] = game.new_initial_state()
                ended += 1
            else:
                assert (step.verdicts[i] == ACCEPTED) == (verdict == "accepted")
            assert step.to_move[i] == singles[i].current_player()
        if step_no % 50 == 0:
            # The games are kept compactly and replayed for `state(i)`: the tensors, the
            # strings and the records are the single states' throughout.
            for p in (0, 1):
                tensors = env.observation_tensors(p)
                for i, s in enumerate(singles):
                    assert tensors[i].tobytes() == s.observation_tensor_bytes(p)
            for i, s in enumerate(singles):
                replayed = env.state(i)
                assert replayed.serialize() == s.serialize()
                for p in (0, 1):
                    assert replayed.observation_string(p) == s.observation_string(p)
                    assert replayed.information_state_string(p) == s.information_state_string(p)
    assert ended > 0 and env.games_done == ended
    # Each game's tensors are the single state's, for the mover and for a fixed player.
    tensors = env.observation_tensors()
    assert tensors.shape == (n, umpire.TENSOR_PLANES, 8, 8)
    for i, s in enumerate(singles):
        p = s.current_player()
        assert tensors[i].tobytes() == s.observation_tensor_bytes(p)
        assert env.observation_tensors(1)[i].tobytes() == s.observation_tensor_bytes(1)
        assert env.state(i).serialize() == s.serialize()


@pytest.mark.parametrize("threads", [1, 2])
def test_step_index_plays_what_step_plays_with_the_lists(threads):
    """The fast path (counts, then ranks) plays the very games the lists path plays with
    the same draws: the counts are the lists' lengths, and rank k is actions[offsets[i] + k]."""
    n = 5
    by_rank = umpire.VectorEnv(n, rules="wild16", threads=threads)
    by_list = umpire.VectorEnv(n, rules="wild16")
    rng = np.random.default_rng(4)
    for _ in range(2000):
        actions, offsets = by_list.legal_actions()
        counts = by_rank.action_counts()
        assert counts.dtype == np.uint16
        assert list(counts) == list(np.diff(offsets))
        ranks = (rng.random(n) * counts).astype(np.int64)
        a = by_rank.step_index(ranks)
        b = by_list.step(actions[offsets[:-1] + ranks])
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert by_rank.games_done > 0 and by_rank.games_done == by_list.games_done
    for i in range(n):
        assert by_rank.state(i).serialize() == by_list.state(i).serialize()
    by_rank.reset()
    assert list(by_rank.action_counts()) == [umpire.VectorEnv(1).action_counts()[0]] * n


def test_bad_indices_raise_and_move_nothing():
    env = umpire.VectorEnv(3)
    before = [env.state(i).serialize() for i in range(3)]
    count = int(env.action_counts()[0])
    with pytest.raises(umpire.UmpireError, match="3 games"):
        env.step_index([0, 0])
    with pytest.raises(umpire.UmpireError, match="game 1"):
        env.step_index([0, -1, 0])
    with pytest.raises(umpire.UmpireError, match="game 2"):
        env.step_index([0, 0, count])
    with pytest.raises(umpire.UmpireError, match="game 0"):
        env.step_index([2**40, 0, 0])
    with pytest.raises(TypeError):
        env.step_index([0.0, 0.0, 0.0])
    with pytest.raises(OverflowError):
        env.step_index(np.array([2**64 - 1, 0, 0], dtype=np.uint64))
    assert [env.state(i).serialize() for i in range(3)] == before
    env.step_index([count - 1] * 3)
    assert [env.state(i).serialize() for i in range(3)] != before


def test_bad_steps_raise_and_move_nothing():
    env = umpire.VectorEnv(3)
    before = [env.state(i).serialize() for i in range(3)]
    e2e4 = umpire.encode_action(0, "e2e4")
    with pytest.raises(umpire.UmpireError, match="3 games"):
        env.step([e2e4, e2e4])
    with pytest.raises(umpire.UmpireError, match="game 1"):
        env.step([e2e4, -5, e2e4])
    with pytest.raises(umpire.UmpireError, match="game 2"):
        env.step([e2e4, e2e4, 2**62])
    with pytest.raises(TypeError):
        env.step([0.5, 1.5, 2.5])
    with pytest.raises(OverflowError):
        env.step(np.array([2**64 - 1, 0, 0], dtype=np.uint64))
    with pytest.raises((OverflowError, TypeError, ValueError)):
        env.step([2**70, 0, 0])
    assert [env.state(i).serialize() for i in range(3)] == before
    with pytest.raises(umpire.UmpireError):
        env.state(3)
    for n in (0, 70_000):
        with pytest.raises(umpire.UmpireError):
            umpire.VectorEnv(n)
    with pytest.raises(umpire.UmpireError):
        umpire.VectorEnv(2, rules="nope")
    with pytest.raises(umpire.UmpireError):
        umpire.VectorEnv(2, fen="not a fen")
    with pytest.raises(umpire.UmpireError):
        env.observation_tensors(2)
    env.step([e2e4] * 3)
    env.reset()
    assert [env.state(i).serialize() for i in range(3)] == before


def test_a_set_up_start():
    fen = "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1"
    env = umpire.VectorEnv(2, fen=fen)
    s = umpire.load_game("kriegspiel", fen=fen).new_initial_state()
    actions, offsets = env.legal_actions()
    assert list(actions[offsets[0]:offsets[1]]) == s.legal_actions()
