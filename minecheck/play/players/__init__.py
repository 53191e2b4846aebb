"""Players by name: the articles' players and minecheck's own (``PLAYERS``); any other name is a
solver from the registry (built-in, ``cmd:``, installed), played by the one documented policy
(``minecheck.play.policy``).  The contract every player follows is ``minecheck.play.player``.
"""

from __future__ import annotations

from collections.abc import Callable

from minecheck.play.player import Player
from minecheck.play.players import lookahead, mineai, satdemo
from minecheck.play.policy import policy_player

# name -> factory; the factory takes the option after ':' (or None)
PLAYERS: dict[str, Callable[[str | None], Player]] = {
    "mineai@seed": mineai.seed_player,
    "mineai@fixed": mineai.fixed_player,
    "satdemo@seed": satdemo.seed_player,
    "satdemo@fixed": satdemo.fixed_player,
    "lookahead": lookahead.lookahead_player,
}


def player_names() -> tuple[str, ...]:
    return tuple(PLAYERS)


def get_player(name: str) -> Player:
    """The player named ``name``: one of PLAYERS, else the registry's solver of that name under the policy."""
    base, _, option = name.partition(":")
    if base in PLAYERS:
        player = PLAYERS[base](option or None)
        player.name = name
        return player
    return policy_player(name)
