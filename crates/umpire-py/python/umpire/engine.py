"""A :class:`umpire.player.Player` as an engine of the engine protocol (``docs/ENGINE.md``).

    python -m umpire.engine MODULE:CLASS

serves a new ``CLASS()`` from ``MODULE`` on standard input and output, one game per process
(as the umpire side starts an engine per game and seat). So a ``Player`` plays in
``umpire match "cmd:python -m umpire.engine mybot:MyPlayer" random``, and on a server through
the bot API with ``umpire bot --server URL --token T --agent "cmd:python -m umpire.engine
mybot:MyPlayer"``.

Each request's view is rebuilt from the request alone (``read_engine_request``); the player
is called back with the observations it has not had yet, then asked to choose. A draw offer is
answered by ``handle_draw_offer`` (declines by default). A player class with ``guided = True``
is offered the options narrowed by the sound guided filters (they never hide a legal move).
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Callable, Optional, TextIO

from . import UmpireError, read_engine_request
from .player import Player


def serve(player: Player, source: Optional[TextIO] = None, sink: Optional[TextIO] = None) -> None:
    """Answers requests from ``source`` (stdin) on ``sink`` (stdout) until the input ends."""
    source = source or sys.stdin
    sink = sink or sys.stdout
    seen = 0
    started = False
    view = None
    for line in source:
        if not line.strip():
            continue
        try:
            kind, view, options, _seed = read_engine_request(line, getattr(player, "guided", False))
        except UmpireError as e:
            sink.write(json.dumps({"protocol": "umpire-engine/1", "error": str(e)}) + "\n")
            sink.flush()
            continue
        if not started:
            player.handle_game_start(view.side, "", view, "opponent")
            started = True
        for o in view.heard(seen):
            if o["actor"] == view.side:
                player.handle_attempt_result(o["command"], o["verdict"], o["announcements"])
            else:
                player.handle_opponent_announcements(o["announcements"], o["moved"])
        seen = view.heard_count()
        if kind == "draw":
            accept = getattr(player, "handle_draw_offer", lambda: False)()
            command = "draw accept" if accept else "draw decline"
        else:
            command = player.choose(view, options)
        sink.write(json.dumps({"command": command}) + "\n")
        sink.flush()
    if started:
        player.handle_game_end(None, None)


def load(spec: str) -> Callable[[], Player]:
    """The class (or factory) named ``MODULE:NAME``."""
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"expected MODULE:CLASS, got {spec!r}")
    return getattr(importlib.import_module(module), name)


def main(argv: Optional[list] = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python -m umpire.engine MODULE:CLASS")
    serve(load(args[0])())


if __name__ == "__main__":
    main()
