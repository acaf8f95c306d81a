"""The referee's Kriegspiel PGN is ordinary PGN: python-chess reads the same moves.

Sample records come from the `record_samples` example of umpire-rules (built by
`cargo test`). UMPIRE_BIN must point at the `umpire` binary: the records its `selfplay` writes are
checked the same way.
"""

import io
import json
import os
import pathlib
import subprocess
import tempfile

import chess
import chess.pgn
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def accepted_moves(record):
    """The UCI of every accepted attempt, as the record stores it."""
    return [e["command"] for e in record["entries"] if e["verdict"] == "accepted"]


def same_move(recorded, read):
    # Under always-queen rules a promotion may be recorded without its piece (e7e8 = e7e8q).
    return recorded == read or (len(recorded) == 4 and read == recorded + "q")


def read_pgn(text):
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    # python-chess must read it without any complaint, and replay it on a board.
    assert game.errors == [], game.errors
    game.board()
    return game


def check_pair(json_path, pgn_path):
    record = json.loads(json_path.read_text())
    game = read_pgn(pgn_path.read_text())
    assert game.headers["KriegspielRules"] == record["rules"]
    assert "Variant" not in game.headers
    start = game.headers.get("FEN", chess.STARTING_FEN)
    assert chess.Board(start).fen() == chess.Board(record["fen"]).fen()
    board = chess.Board(start)
    read = []
    for move in game.mainline_moves():
        assert board.is_legal(move), (pgn_path, move)
        read.append(move.uci())
        board.push(move)
    recorded = accepted_moves(record)
    assert len(read) == len(recorded), pgn_path
    for r, p in zip(recorded, read):
        assert same_move(r, p), (pgn_path, r, p)
    expected_result = record["result"]["score"] if record["result"] else "*"
    assert game.headers["Result"] == expected_result


@pytest.fixture(scope="module")
def samples():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["cargo", "run", "--quiet", "--release", "-p", "umpire-rules", "--example", "record_samples", "--", tmp, "4"],
            cwd=ROOT,
            check=True,
        )
        yield pathlib.Path(tmp)


def test_python_chess_reads_the_mainline_of_every_referee_pgn(samples):
    pairs = sorted(samples.glob("*.json"))
    assert len(pairs) == 7 * 4
    for json_path in pairs:
        check_pair(json_path, json_path.with_suffix(".pgn"))


def test_player_views_hide_the_opponent_moves(samples):
    for json_path in sorted(samples.glob("*.json")):
        record = json.loads(json_path.read_text())
        for player in ("white", "black"):
            view = json_path.with_name(json_path.stem + f".{player}.pgn").read_text()
            assert f'[KriegspielView "{player}"]' in view
            movetext = view.split("\n\n", 1)[1]
            opponent_moves = [
                e["command"] for e in record["entries"] if e["verdict"] == "accepted" and e["side"] != player
            ]
            own_attempts = {e["command"] for e in record["entries"] if e["side"] == player}
            assert movetext.count("??") >= len(opponent_moves)
            for uci in opponent_moves:
                if uci not in own_attempts:
                    assert f" {uci} " not in movetext.replace("\n", " ")


def test_selfplay_records():
    binary = os.environ.get("UMPIRE_BIN")
    assert binary and os.path.exists(binary), f"no umpire binary at UMPIRE_BIN={binary!r} (scripts/test.sh sets it)"
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(
            [binary, "selfplay", "--rules", "wild16", "--games", "3", "--seed", "5", "--out", tmp],
            capture_output=True,
            text=True,
        )
        pgns = sorted(pathlib.Path(tmp).glob("game-*.pgn"))
        assert run.returncode == 0 and pgns, f"selfplay wrote no records: {run.stderr.strip()[:500]}"
        for pgn_path in pgns:
            json_path = pgn_path.with_suffix(".json")
            if json_path.exists() and ".white" not in pgn_path.name and ".black" not in pgn_path.name:
                check_pair(json_path, pgn_path)
