"""A Player subclass plays on a server, end to end: the built ``umpire serve`` on a free port,
the Player behind ``umpire bot`` through the bot API (as an engine, ``python -m
umpire.engine``), against a bot playing ``random``.

``UMPIRE_BIN`` names the built CLI (``scripts/test.sh`` sets it); without it the test is
skipped with that reason."""

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

BIN = os.environ.get("UMPIRE_BIN")
pytestmark = pytest.mark.skipif(
    not BIN or not Path(BIN).is_file(), reason="UMPIRE_BIN (the built umpire CLI) not given")

HERE = Path(__file__).resolve().parent


def call(url, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read().decode())


@pytest.fixture()
def server(tmp_path):
    # Port 0: the server takes a free port and prints its address on its first line.
    proc = subprocess.Popen(
        [BIN, "serve", "--listen", "127.0.0.1:0", "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        # The house agents load the endgame tables at need: no 200 MB per test server.
        env={**os.environ, "UMPIRE_TABLES": "lazy"})
    try:
        first = proc.stdout.readline().strip()
        prefix = "umpire serve: listening on "
        assert first.startswith(prefix), first
        yield first[len(prefix):]
    finally:
        proc.kill()
        proc.wait(timeout=30)


def bot_token(url, owner, name):
    session = call(url, "POST", "/api/register",
                   {"name": owner, "password": "a long password"})["session"]
    return call(url, "POST", "/api/bots", {"name": name}, token=session)["token"]


def test_a_player_plays_random_through_the_bot_api(server):
    url = server
    mine = bot_token(url, "owner-one", "py-player")
    theirs = bot_token(url, "owner-two", "random-bot")
    games = 2
    examples = HERE.parents[1] / "examples" / "python"
    env = dict(os.environ, PYTHONPATH=str(examples) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    opponent = subprocess.Popen(
        [BIN, "bot", "--server", url, "--token", theirs, "--agent", "random",
         "--create", "wild16", "--games", str(games), "--parallel", "1", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    player = subprocess.Popen(
        [BIN, "bot", "--server", url, "--token", mine, "--games", str(games),
         "--parallel", "1",
         "--agent", f"cmd:{sys.executable} -m umpire.engine recapture:Recapture"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = player.communicate(timeout=900)
        assert player.returncode == 0, err[-3000:]
        theirs_out, theirs_err = opponent.communicate(timeout=120)
        assert opponent.returncode == 0, theirs_err[-3000:]
    finally:
        for p in (player, opponent):
            if p.poll() is None:
                p.kill()
                p.wait()
    lines = [line.split() for line in out.splitlines() if line.strip()]
    assert len(lines) == games, out
    # No score is asserted: two games between agents that hear the server's timing are not
    # reproducible, and a strength figure from two games would be a flaky statistic.
    for line in lines:
        summary = call(url, "GET", f"/api/games/{line[0]}")
        assert summary["status"] == "over", summary
        result = summary["result"]
        assert result in ("1-0", "0-1", "1/2-1/2"), summary
        me = "white" if summary["players"]["white"] == "py-player" else "black"
        assert summary["players"]["black" if me == "white" else "white"] == "random-bot"
        # The whole game is on the server: the record replays.
        record = call(url, "GET", f"/games/{line[0]}.json")
        assert record["result"]["score"] == result and len(record["entries"]) > 20, record["result"]
