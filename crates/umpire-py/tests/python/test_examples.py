"""The examples of docs/PYTHON.md run: each is a file under examples/python that the docs show
verbatim (checked here), so what a reader copies is what the tests run. The server example is
run by test_server.py."""

import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples" / "python"
DOCS = HERE.parents[3] / "docs" / "PYTHON.md"
sys.path.insert(0, str(EXAMPLES))


def shown_in_docs():
    """{file name: code} for each block after a `<!-- example: NAME -->` line of the docs."""
    text = DOCS.read_text()
    return dict(re.findall(r"<!-- example: (\S+) -->\n```python\n(.*?)```", text, re.S))


@pytest.mark.skipif(not DOCS.is_file(), reason="docs/PYTHON.md not beside (an installed copy)")
def test_the_docs_show_the_example_files_verbatim():
    shown = shown_in_docs()
    assert set(shown) == {"random_pettingzoo.py", "recapture.py"}
    for name, code in shown.items():
        assert code == (EXAMPLES / name).read_text(), name


def test_the_random_pettingzoo_agent_plays_whole_games():
    import random_pettingzoo

    results = random_pettingzoo.play(games=2, seed=3)
    assert len(results) == 2 and all(r in (-1.0, 0.0, 1.0) for r in results)


def test_the_recapture_player_beats_random_locally():
    from recapture import Recapture

    from umpire.player import play_local

    wins = losses = 0
    for g in range(10):
        side = "white" if g % 2 == 0 else "black"
        result = play_local(Recapture(g), opponent="random", side=side, seed=g, guided=True)
        wins += result == ("1-0" if side == "white" else "0-1")
        losses += result == ("0-1" if side == "white" else "1-0")
    assert wins > losses, (wins, losses)
