"""Batched playouts, matches, agents and belief."""

import umpire


def test_play_random_games():
    r = umpire.play_random_games(20, rules="wild16", seed=1)
    assert r["games"] == 20 == r["white_wins"] + r["black_wins"] + r["draws"]
    assert r["attempts"] >= r["plies"] > 20
    assert umpire.play_random_games(20, rules="wild16", seed=1)["attempts"] == r["attempts"]
    t = umpire.play_random_games(21, seed=1, threads=2)
    assert t["games"] == 21


def test_match():
    m = umpire.match("guided-random", "random", games=4, seed=2, max_plies=300)
    assert m["games"] == 4 == m["a_wins"] + m["b_wins"] + m["draws"]


def test_agent_steps_a_game():
    game = umpire.load_game("kriegspiel")
    s = game.new_initial_state()
    agents = [umpire.Agent("random", 0, seed=1), umpire.Agent("guided-random", "black", seed=2)]
    for _ in range(400):
        if s.is_terminal():
            break
        a = agents[s.current_player()].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    assert set(umpire.agent_names()) >= {"random", "mcts"}


def test_belief_follows_a_player():
    s = umpire.load_game("kriegspiel").new_initial_state()
    b = umpire.Belief("black")
    for m in ["e2e4"]:
        s.apply_action(s.string_to_action(m))
    b.update(s)
    assert b.size() >= 20 and b.is_exact()
    fens = b.sample(3, seed=1)
    assert len(fens) == 3 and all(f.startswith("rnbqkbnr/pppppppp/8/8/") for f in fens)
    m = umpire.belief_marginals(b)
    assert m["exact"] is True
