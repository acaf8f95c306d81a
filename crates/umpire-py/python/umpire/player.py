"""A ``Player`` class with callbacks, as reconchess gives its bot authors.

Subclass :class:`Player`, override the callbacks, and play it with :func:`play_local`
against any built-in agent (``random``, ``guided-random``, ``belief-guided``, ``mcts``,
``darkboard``). The player is handed only what its side hears: its own attempts' verdicts and
the announcements, never the true position.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

from . import Agent, PlayerView, Record, load_game

Announcement = Dict[str, Any]


class Player:
    """A Kriegspiel player. Every callback but :meth:`choose` does nothing by default.

    Set ``guided = True`` on the class to be offered the options narrowed by the sound guided
    filters as an engine (:mod:`umpire.engine`); :func:`play_local` takes ``guided`` itself."""

    guided: bool = False

    def handle_game_start(self, side: str, rules: str, view: PlayerView, opponent_name: str) -> None:
        """The game begins: ``side`` is ``"white"`` or ``"black"``; ``view`` the start."""

    def handle_opponent_announcements(self, announcements: List[Announcement], moved: bool) -> None:
        """The opponent gave a command that this player hears of: ``moved`` is True when it
        was a move (the turn passes to this player), ``announcements`` what the umpire said
        (captures of this player's men, checks, pawn tries, ...)."""

    def handle_attempt_result(self, command: str, verdict: str, announcements: List[Announcement]) -> None:
        """The umpire's answer to this player's command: ``verdict`` is ``"accepted"``,
        ``"illegal"``, ``"impossible"``, ``"repeat"`` or ``"answered"`` (for ``any``)."""

    def choose(self, view: PlayerView, options: List[str]) -> str:
        """Returns the next command: one of ``options`` (UCI attempts, and ``"any"`` where
        the rule set lets the player ask)."""
        raise NotImplementedError

    def handle_draw_offer(self) -> bool:
        """The opponent offers a draw: True accepts. Declines by default."""
        return False

    def handle_game_end(self, result: Optional[str], record: Optional[Record]) -> None:
        """The game is over: ``result`` is ``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` (or None if
        unknown: stopped at the command limit, or as an engine); ``record`` is the whole game,
        revealed at the end of a local game (None as an engine)."""


class RandomPlayer(Player):
    """Chooses uniformly among its options."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, options: List[str]) -> str:
        return self.rng.choice(options)


def play_local(player: Player, opponent: str = "random", side: str = "white",
               rules: str = "wild16", seed: int = 0, guided: bool = False,
               max_commands: int = 20_000) -> Optional[str]:
    """Plays one game of ``player`` against the built-in agent ``opponent`` in this process
    and returns the result (``"1-0"``, ...). With ``guided=True`` the player's options are
    narrowed by the sound guided filters (they never hide a legal move)."""
    me = 0 if side in ("white", 0) else 1
    game = load_game("kriegspiel", rules=rules)
    state = game.new_initial_state()
    agent = Agent(opponent, 1 - me, rules=rules, seed=seed)
    player.handle_game_start("white" if me == 0 else "black", rules, state.view(me), opponent)
    for _ in range(max_commands):
        if state.is_terminal():
            break
        mover = state.current_player()
        if mover == me:
            view = state.view(me)
            options = view.options(guided=guided)
            command = player.choose(view, options)
            action = state.string_to_action(command)
        else:
            action = agent.step(state)
        outcome = state.apply_action_with_outcome(action)
        mine = outcome["observations"]["white" if me == 0 else "black"]
        if mine is None:
            continue
        if mover == me:
            player.handle_attempt_result(mine["command"], mine["verdict"], mine["announcements"])
        else:
            player.handle_opponent_announcements(mine["announcements"], mine["moved"])
    player.handle_game_end(state.result(), state.record())
    return state.result()
