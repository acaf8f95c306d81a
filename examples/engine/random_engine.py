#!/usr/bin/env python3
"""A random Kriegspiel engine speaking the Umpire engine protocol "umpire-engine/1".

Plain Python 3, no dependencies. It reads one JSON request per line on stdin and answers
each with one JSON line on stdout (see docs/ENGINE.md):

- "choose": a uniformly random pick among the request's "options" (the attempts its player
  may still make on its own board), and "any" when "may_ask_any" is true;
- "draw": it declines.

It keeps no state between requests: everything it needs is in each request. Its random
choices are seeded by the request's "seed" and the number of observations, so a game is
reproducible.

    umpire match "cmd:python3 examples/engine/random_engine.py" random --games 2
"""

import json
import random
import sys

PROTOCOL = "umpire-engine/1"


def answer(request):
    if request.get("protocol") != PROTOCOL:
        return {"protocol": PROTOCOL, "error": "unknown protocol"}
    if request.get("request") == "draw":
        return {"protocol": PROTOCOL, "command": "draw decline"}
    choices = list(request.get("options", []))
    if request.get("may_ask_any"):
        choices.append("any")
    if not choices:
        return {"protocol": PROTOCOL, "command": "resign"}
    rng = random.Random(request["seed"] * 1000003 + len(request["observations"]))
    return {"protocol": PROTOCOL, "command": rng.choice(choices), "value": 0.0}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            reply = answer(json.loads(line))
        except (ValueError, KeyError, TypeError) as error:
            reply = {"protocol": PROTOCOL, "error": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
