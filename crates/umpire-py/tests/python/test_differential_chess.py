"""The bindings' umpire against python-chess: an attempt is accepted exactly when it is legal
in the true position, and the game ends as python-chess says (checkmate, stalemate)."""

import random

import chess
import pytest

import umpire


@pytest.mark.parametrize("seed", range(6))
def test_verdicts_agree_with_python_chess(seed):
    rng = random.Random(seed)
    rules = ["wild16", "berkeley", "english"][seed % 3]
    u = umpire.Umpire(rules)
    board = chess.Board()
    attempts = 0
    while not u.is_over() and attempts < 3000:
        view = u.player_view(u.turn())
        options = [o for o in view.options() if o != "any"]
        command = rng.choice(options)
        out = u.submit(command)
        move = chess.Move.from_uci(command)
        legal = move in board.legal_moves
        assert (out["verdict"] == "accepted") == legal, (board.fen(), command, out["verdict"])
        if legal:
            board.push(move)
            assert u.fen().split()[:4] == board.fen().split()[:4]
        attempts += 1
    result = u.result()
    if result and result[1] == "checkmate":
        assert board.is_checkmate()
    if result and result[1] == "stalemate":
        assert board.is_stalemate()
    if result and result[1] == "insufficient_material":
        assert board.is_insufficient_material()
