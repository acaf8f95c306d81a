"""Bad input from Python, of every kind: a Python exception carrying Umpire's message, never a
crash of the interpreter. Each kind (wrong types, illegal actions, bad FEN, huge integers,
bad records and files) has its test, over the whole API."""

import pytest

import umpire

BAD_FENS = [
    "",
    "not a fen",
    "8/8/8 w",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",                     # no kings
    "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",       # many kings
    "\x00" * 50,
    "x" * 100_000,
]


def fresh():
    return umpire.load_game("kriegspiel").new_initial_state()


@pytest.mark.parametrize("fen", BAD_FENS)
def test_bad_fens_are_umpire_errors(fen):
    makers = [
        lambda: umpire.load_game("kriegspiel", fen=fen),
        lambda: umpire.Umpire(fen=fen),
        lambda: umpire.Belief(0, fen=fen),
        lambda: umpire.Agent("random", 0, fen=fen),
        lambda: umpire.VectorEnv(2, fen=fen),
    ]
    for make in makers:
        with pytest.raises(umpire.UmpireError) as e:
            make()
        assert str(e.value)  # the Rust message


def test_wrong_types_are_type_errors():
    s = fresh()
    for bad in ("e2e4", None, 1.5, [1], object()):
        with pytest.raises(TypeError):
            s.apply_action(bad)
    for bad in ("white", None, 0.0):
        with pytest.raises(TypeError):
            s.observation_tensor(bad)
    with pytest.raises(TypeError):
        s.legal_actions("0")
    with pytest.raises(TypeError):
        umpire.load_game("kriegspiel", rules=None)
    with pytest.raises(TypeError):
        s.submit(42)
    with pytest.raises((TypeError, umpire.UmpireError)):
        s.view(1.5)
    with pytest.raises(TypeError):
        umpire.Record.from_json(b"{}")
    with pytest.raises(TypeError):
        umpire.play_random_games("ten")
    with pytest.raises(TypeError):
        umpire.Tablebase.build(3)
    belief = umpire.Belief(0)
    with pytest.raises(TypeError):
        belief.update("not a state")
    agent = umpire.Agent("random", 0)
    with pytest.raises(TypeError):
        agent.step(None)


def test_sides_and_players_out_of_range():
    s = fresh()
    for bad in (2, -1, 7):
        with pytest.raises(umpire.UmpireError, match="not 0"):
            s.observation_string(bad)
        with pytest.raises(umpire.UmpireError):
            s.legal_actions(bad)
    for bad in ("green", "", "whitish"):
        with pytest.raises(umpire.UmpireError, match="side"):
            umpire.Belief(bad)
        with pytest.raises(umpire.UmpireError):
            s.view(bad)


def test_illegal_actions_and_commands():
    s = fresh()
    legal = set(s.legal_actions())
    for bad in (-1, 4672, 4673, 4674, next(a for a in range(4672) if a not in legal)):
        with pytest.raises(umpire.UmpireError, match="not a legal action"):
            s.apply_action(bad)
    assert s.move_number() == 0 and s.current_player() == 0
    for bad in ("zz", "e2e9", "Qxh9", "", "   ", "\x00", "e2e4" * 1000):
        with pytest.raises(umpire.UmpireError):
            s.submit(bad)
        with pytest.raises(umpire.UmpireError):
            s.replay(bad)
    with pytest.raises(umpire.UmpireError):
        umpire.encode_action(0, "a1h2")
    with pytest.raises(umpire.UmpireError):
        umpire.decode_action(0, 4674)
    with pytest.raises(umpire.UmpireError):
        umpire.Agent("no-such-agent", 0)
    with pytest.raises(umpire.UmpireError):
        umpire.play_match("random", "nobody", games=1)
    with pytest.raises(umpire.UmpireError):
        umpire.load_game("kriegspiel", rules="x" * 10_000)
    # After the end, any action is refused with the reason.
    s.submit("resign")
    assert s.is_terminal()
    with pytest.raises(umpire.UmpireError, match="over"):
        s.apply_action(next(iter(legal)))


def test_huge_integers_are_overflow_errors():
    s = fresh()
    for huge in (2**63, 2**64, 10**30, -(2**70)):
        with pytest.raises(OverflowError):
            s.apply_action(huge)
        with pytest.raises(OverflowError):
            s.observation_tensor(huge)
        with pytest.raises(OverflowError):
            s.legal_actions(huge)
    with pytest.raises(OverflowError):
        s.stacked_observation_tensor_bytes(0, -1)
    with pytest.raises(OverflowError):
        umpire.play_random_games(-1)
    with pytest.raises(OverflowError):
        umpire.decode_action(0, 2**80)
    with pytest.raises(OverflowError):
        umpire.Agent("random", 0, seed=2**64)
    with pytest.raises(OverflowError):
        umpire.VectorEnv(2**70)
    with pytest.raises(OverflowError):
        umpire.Tablebase.build("krk", max_depth=256)
    # Within range but absurd: bounded, not a crash.
    assert len(s.stacked_observation_tensor_bytes(0, 10**6)) <= umpire.MAX_STACK * umpire.TENSOR_PLANES * 64 * 4
    assert len(umpire.Belief(0).sample(10**9)) <= 100_000


def test_bad_records_and_files(tmp_path):
    for bad in ("", "{", "[]", '{"format": "nope"}', "null", "\x00" * 10, "{" * 100_000):
        with pytest.raises(umpire.UmpireError):
            umpire.Record.from_json(bad)
        with pytest.raises(umpire.UmpireError):
            umpire.load_game("kriegspiel").deserialize_state(bad)
    for bad in ("garbage [[[", "1. e4 {", "[Event \"x\"]\n\n1. Qxz9"):
        with pytest.raises(umpire.UmpireError):
            umpire.Record.from_pgn(bad)
    with pytest.raises(umpire.UmpireError):
        umpire.Record.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(umpire.UmpireError):
        umpire.Record.load(binary)
    with pytest.raises(umpire.UmpireError):
        umpire.read_engine_request("not json")
    with pytest.raises(umpire.UmpireError):
        umpire.read_engine_request('{"protocol": "umpire-engine/1"}')
