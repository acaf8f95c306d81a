"""The Player class with callbacks, played locally against built-in agents and as an engine."""

import json
import os
import random
import subprocess
import sys

import pytest

import umpire
from umpire.player import Player, RandomPlayer, play_local


class Recorder(RandomPlayer):
    def __init__(self, seed):
        super().__init__(seed)
        self.calls = []

    def handle_game_start(self, side, rules, view, opponent_name):
        self.calls.append(("start", side, opponent_name))

    def handle_opponent_announcements(self, announcements, moved):
        self.calls.append(("opponent", moved, [a["kind"] for a in announcements]))

    def handle_attempt_result(self, command, verdict, announcements):
        self.calls.append(("result", command, verdict))

    def handle_game_end(self, result, record):
        self.calls.append(("end", result))


def test_callbacks_in_order():
    p = Recorder(1)
    result = play_local(p, opponent="random", side="black", seed=3)
    assert p.calls[0] == ("start", "black", "random")
    assert p.calls[-1] == ("end", result)
    kinds = {c[0] for c in p.calls}
    assert {"opponent", "result"} <= kinds
    # The opponent's commands reach the player only as what it hears: never the command.
    assert all(len(c) == 3 for c in p.calls if c[0] == "opponent")


class Greedy(Player):
    """Captures back on the square where it was just captured, asks "Any?" where it may,
    else tries a random guided option that goes forward."""

    guided = True

    def __init__(self, seed=0):
        self.rng = random.Random(seed)
        self.target = None

    def handle_opponent_announcements(self, announcements, moved):
        self.target = None
        for a in announcements:
            if a["kind"] == "capture":
                self.target = a["token"].split(":")[1]

    def choose(self, view, options):
        if self.target:
            back = [o for o in options if o[2:4] == self.target]
            if back:
                return self.rng.choice(back)
        if "any" in options:
            return "any"
        up = 1 if view.side == "white" else -1
        forward = [o for o in options if (int(o[3]) - int(o[1])) * up > 0]
        return self.rng.choice(forward or options)


def test_a_simple_player_beats_random():
    wins = losses = 0
    for g in range(12):
        side = "white" if g % 2 == 0 else "black"
        result = play_local(Greedy(g), opponent="random", side=side, seed=g, guided=True)
        wins += (result == "1-0" and side == "white") or (result == "0-1" and side == "black")
        losses += (result == "0-1" and side == "white") or (result == "1-0" and side == "black")
    assert wins >= 3 and wins > 2 * losses, (wins, losses)


@pytest.mark.skipif(not os.environ.get("UMPIRE_BIN"), reason="UMPIRE_BIN (the CLI) not given")
def test_player_as_an_engine_in_umpire_match():
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [os.environ["UMPIRE_BIN"], "match", f"cmd:{sys.executable} -m umpire.engine test_player:Greedy",
         "random", "--games", "4", "--seed", "3", "--nodes", "10", "--json"],
        check=True, capture_output=True, text=True, env=env, timeout=600,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["games"] == 4 and summary["faults"] == [], summary
    assert summary["wins"] >= summary["losses"], summary


def test_engine_answers_a_bad_line_with_an_error():
    import io

    from umpire.engine import serve

    sink = io.StringIO()
    serve(Greedy(), io.StringIO("not json\n\n"), sink)
    assert json.loads(sink.getvalue())["error"]
