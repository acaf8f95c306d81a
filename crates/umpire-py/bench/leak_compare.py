"""The leak comparison of docs/PYTHON.md: pairs of true histories that give White the same
observations; does each library give White byte-identical observations?

Run with whichever of `pyspiel` (open_spiel) and `umpire` is installed:

    python crates/umpire-py/bench/leak_compare.py
"""

import struct

PAIRS = [
    # White hears nothing of Black's quiet replies: e5 resets the fifty-move counter, Nf6 not.
    ("counter", ["e2e4", "e7e5"], ["e2e4", "g8f6"]),
    # Both sides' knights go out and back (the start repeats) versus a history without repetition.
    ("repetition", ["g1f3", "g8f6", "f3g1", "f6g8"], ["g1f3", "e7e6", "f3g1", "e8e7"]),
]


def tensor_bytes(values):
    return struct.pack(f"<{len(values)}f", *values)


def openspiel(moves):
    import pyspiel

    game = pyspiel.load_game("kriegspiel")
    s = game.new_initial_state()
    for m in moves:
        by_text = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
        s.apply_action(by_text[m])
    return s


def umpire_state(moves):
    import umpire

    s = umpire.load_game("kriegspiel", rules="wild16").new_initial_state()
    for m in moves:
        assert s.apply_action(s.string_to_action(m)) == "accepted", m
    return s


def compare(name, make, white):
    print(f"## {name}")
    for label, a_moves, b_moves in PAIRS:
        try:
            a, b = make(a_moves), make(b_moves)
        except Exception as e:  # noqa: BLE001
            print(f"{label}: could not play the pair: {e}")
            continue
        same_string = a.observation_string(white) == b.observation_string(white)
        same_info = a.information_state_string(white) == b.information_state_string(white)
        ta, tb = a.observation_tensor(white), b.observation_tensor(white)
        same_tensor = tensor_bytes(ta) == tensor_bytes(tb)
        diff = [i for i, (x, y) in enumerate(zip(ta, tb)) if x != y]
        print(f"{label}: observation_string equal {same_string}, information_state_string equal "
              f"{same_info}, observation_tensor equal {same_tensor}"
              + (f" (differs at {len(diff)} entries, first {diff[:4]}: {[ta[i] for i in diff[:4]]} vs {[tb[i] for i in diff[:4]]})" if diff else ""))
    return


if __name__ == "__main__":
    # OpenSpiel's chess numbers Black 0 and White 1; Umpire numbers White 0, as the oracle.
    for name, make, white in (("umpire", umpire_state, 0), ("open_spiel kriegspiel", openspiel, 1)):
        try:
            compare(name, make, white)
        except ImportError as e:
            print(f"## {name}: not installed ({e})")
