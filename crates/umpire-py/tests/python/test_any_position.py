"""Belief and Agent from any position: set-up starts and games under way (loaded records)."""

import random

import pytest

import umpire

SETUP = "4k3/pppp4/8/8/8/8/PPPP4/4K2R w K - 0 1"


def play_some(state, n, seed=3):
    rng = random.Random(seed)
    for _ in range(n):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_belief_from_a_set_up_start_holds_the_truth():
    s = play_some(umpire.load_game("kriegspiel", fen=SETUP).new_initial_state(), 30)
    for side in (0, 1):
        b = umpire.Belief.for_state(s, side)
        assert b.size() >= 1
        if b.is_exact() and b.size() <= 50:
            # The true position is among the positions consistent with what the player heard
            # (20,000 draws from at most 50 positions miss one with odds below 1e-170).
            truth = str(s).split()[0]
            assert truth in {f.split()[0] for f in b.sample(20000)}
        # The same as a belief made at the start and updated step by step.
        step = umpire.Belief(side, fen=SETUP)
        step.update(s)
        assert step.size() == b.size()
        assert umpire.belief_marginals(step) == umpire.belief_marginals(b)


def test_belief_from_a_loaded_mid_game_record():
    s = play_some(umpire.load_game("kriegspiel").new_initial_state(), 20)
    loaded = umpire.load_game("kriegspiel").deserialize_state(s.serialize())
    b = umpire.Belief.for_state(loaded, "white")
    a = umpire.Belief("white")
    a.update(s)
    assert a.size() == b.size()


def test_belief_refuses_another_game():
    b = umpire.Belief(0)
    s = umpire.load_game("kriegspiel", fen=SETUP).new_initial_state()
    with pytest.raises(umpire.UmpireError, match="starts from"):
        b.update(s)
    with pytest.raises(umpire.UmpireError):
        umpire.Belief(0, fen="8/8/8/8/8/8/8/8 w - - 0 1")


@pytest.mark.parametrize("kind", ["random", "guided-random", "belief-guided"])
def test_agents_play_from_a_set_up_start_and_mid_game(kind):
    s = play_some(umpire.load_game("kriegspiel", fen=SETUP).new_initial_state(), 10)
    agents = {p: umpire.Agent.for_state(kind, s, p, seed=p) for p in (0, 1)}
    for _ in range(200):
        if s.is_terminal():
            break
        p = s.current_player()
        action = agents[p].step(s)
        assert action in s.legal_actions()
        s.apply_action(action)
    fresh = umpire.Agent(kind, "white", fen=SETUP)
    with pytest.raises(umpire.UmpireError, match="starts from"):
        fresh.observe(umpire.load_game("kriegspiel").new_initial_state())


def test_belief_from_a_view_is_the_belief_from_the_state():
    # What a Player is handed (a PlayerView) gives the same belief as the whole state does.
    for fen in (None, SETUP):
        game = umpire.load_game("kriegspiel", fen=fen)
        s = play_some(game.new_initial_state(), 24, seed=5)
        for side in (0, 1):
            from_state = umpire.Belief.for_state(s, side)
            from_view = umpire.Belief.for_view(s.view(side), fen=fen)
            assert from_view.size() == from_state.size()
            assert umpire.belief_marginals(from_view) == umpire.belief_marginals(from_state)
        # Followed move by move with update_view, it ends where a belief made at once does.
        half = play_some(game.new_initial_state(), 12, seed=5)
        follow = umpire.Belief.for_view(half.view(0), fen=fen)
        follow.update_view(s.view(0))
        assert umpire.belief_marginals(follow) == umpire.belief_marginals(
            umpire.Belief.for_view(s.view(0), fen=fen))


def test_belief_from_a_view_refuses_what_it_cannot_know():
    s = play_some(umpire.load_game("kriegspiel", fen=SETUP).new_initial_state(), 6)
    with pytest.raises(umpire.UmpireError, match="set-up position"):
        umpire.Belief.for_view(s.view(0))
    b = umpire.Belief.for_view(s.view(0), fen=SETUP)
    with pytest.raises(umpire.UmpireError, match="view is black's"):
        b.update_view(s.view(1))
    fresh = umpire.load_game("kriegspiel", fen=SETUP).new_initial_state()
    with pytest.raises(umpire.UmpireError, match="not the game"):
        b.update_view(fresh.view(0))
