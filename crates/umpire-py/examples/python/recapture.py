"""A Player that beats random: takes back where it was just captured, asks "Any?" where it
may, else pushes forward among the sound guided options."""

import random

from umpire.player import Player, play_local


class Recapture(Player):
    guided = True  # offered the sound guided options (they never hide a legal move)

    def __init__(self, seed=1):
        self.rng, self.target = random.Random(seed), None

    def handle_opponent_announcements(self, announcements, moved):
        caps = [a["token"].split(":")[1] for a in announcements if a["kind"] == "capture"]
        self.target = caps[0] if caps else None

    def choose(self, view, options):
        back = [o for o in options if self.target and o[2:4] == self.target]
        if back:
            return self.rng.choice(back)
        if "any" in options:
            return "any"
        up = 1 if view.side == "white" else -1
        forward = [o for o in options if (int(o[3]) - int(o[1])) * up > 0]
        return self.rng.choice(forward or options)


if __name__ == "__main__":
    print(play_local(Recapture(), opponent="random", side="black", guided=True))
