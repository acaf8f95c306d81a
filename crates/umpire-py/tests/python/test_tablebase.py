"""Endgame tables from Python: probe a FEN, a set of squares, or White's view of a game."""

import pytest

import umpire

MATE_IN_ONE = "7k/8/6K1/8/8/8/8/1R6 w - - 0 1"


@pytest.fixture(scope="module")
def krk():
    return umpire.Tablebase.build("krk", max_depth=3)


def test_probe_a_position(krk):
    assert krk.ending == "krk" and not krk.is_complete
    p = krk.probe(MATE_IN_ONE)
    assert p["wdl"] == "win" and p["dtm"] == 1 and p["exact"]
    assert "b1b8" in p["best"]
    # White knowing only that the king is on g8 or h8: the table still answers, not exact.
    q = krk.probe(MATE_IN_ONE, squares=["g8", "h8"])
    assert not q["exact"]
    assert q["wdl"] in ("win", "unknown")
    # A mate beyond the depth-limited table's depth is unknown, not a draw.
    far = krk.probe("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
    assert far["dtm"] is None and far["wdl"] == "unknown"


@pytest.mark.parametrize("fen,why", [
    ("not a fen", "FEN"),
    ("7k/8/6K1/8/8/8/8/1R6 b - - 0 1", "Black is to move"),
    ("7k/7p/6K1/8/8/8/8/1R6 w - - 0 1", "lone black king"),
    ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "not a position of this"),
    ("7k/8/6K1/8/8/8/8/1RRR4 w - - 0 1", "table ending"),
])
def test_clear_errors_where_no_table_answers(krk, fen, why):
    with pytest.raises(umpire.UmpireError, match=why):
        krk.probe(fen)


def test_bad_squares_and_files(krk, tmp_path):
    with pytest.raises(umpire.UmpireError, match="not a square"):
        krk.probe(MATE_IN_ONE, squares=["z9"])
    with pytest.raises(umpire.UmpireError):
        krk.probe(MATE_IN_ONE, squares=[])
    with pytest.raises(umpire.UmpireError):
        umpire.Tablebase.build("kxk")
    with pytest.raises(umpire.UmpireError):
        umpire.Tablebase.load(tmp_path / "missing.tb")
    junk = tmp_path / "junk.tb"
    junk.write_bytes(b"not a table")
    with pytest.raises(umpire.UmpireError):
        umpire.Tablebase.load(junk)


def test_save_load_and_probe_a_game(krk, tmp_path):
    path = tmp_path / "krk.tb"
    krk.save(path)
    back = umpire.Tablebase.load(path)
    assert back.probe(MATE_IN_ONE) == krk.probe(MATE_IN_ONE)
    s = umpire.load_game("kriegspiel", fen=MATE_IN_ONE).new_initial_state()
    p = back.probe_state(s)
    # White knows only that Black's king is alone: a set of squares, exact knowledge.
    assert p["exact"] and len(p["squares"].split()) > 1
    s.submit("b1b8")
    with pytest.raises(umpire.UmpireError):
        back.probe_state(s)  # the game is over: no White turn
    other = umpire.load_game("kriegspiel", rules="english", fen=MATE_IN_ONE).new_initial_state()
    with pytest.raises(umpire.UmpireError, match="wild16"):
        back.probe_state(other)
