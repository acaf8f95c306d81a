"""Information hiding through the bindings: histories that give White the same observations
give it byte-identical observation tensor, observation string and information-state string.

The Rust suite (crates/umpire-py/tests/leak.rs) checks the same functions on histories paired
by the independent oracle; these are the two pairs of issue 26, where OpenSpiel 2.0.2 leaks
(its fifty-move counter and repetition planes are read from the true board)."""

import struct

import pytest

import umpire

PAIRS = [
    (["e2e4", "e7e5"], ["e2e4", "g8f6"]),
    (["g1f3", "g8f6", "f3g1", "f6g8"], ["g1f3", "e7e6", "f3g1", "e8e7"]),
    # Black's rejected attempts (White hears nothing of them under wild16) in one game only.
    (["e2e4", "e7e5"], ["e2e4", "d8h4", "e7e5"]),
]


def play(moves, rules="wild16"):
    s = umpire.load_game("kriegspiel", rules=rules).new_initial_state()
    for m in moves:
        s.submit(m)
    return s


@pytest.mark.parametrize("a_moves,b_moves", PAIRS)
def test_paired_histories_are_identical_for_white(a_moves, b_moves):
    a, b = play(a_moves), play(b_moves)
    assert a.serialize() != b.serialize()  # the true histories differ
    ta, tb = a.observation_tensor(0), b.observation_tensor(0)
    assert struct.pack(f"<{len(ta)}f", *ta) == struct.pack(f"<{len(tb)}f", *tb)
    assert a.observation_tensor_bytes(0) == b.observation_tensor_bytes(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.legal_actions(0) == b.legal_actions(0)
    assert a.legal_actions_mask(0) == b.legal_actions_mask(0)


def test_the_observer_sees_its_own_rejection():
    a, b = play(["e2e4", "e7e5"]), play(["e2e4", "d8h4", "e7e5"])
    # Black itself knows of its rejected attempt.
    assert a.information_state_string(1) != b.information_state_string(1)
