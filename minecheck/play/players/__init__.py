"""Players by name: the articles' players and minecheck's own (``PLAYERS``); any other name is a
solver from the registry (built-in, ``cmd:``, installed), played by the one documented policy
(``minecheck.play.policy``).  The contract every player follows is ``minecheck.play.player``.

Players are found by name, as solvers are (``minecheck.running.discovery``): a module is imported
when its player is asked for, so the command line starts without loading every solver.
"""

from __future__ import annotations

from importlib import import_module

from minecheck.play.player import Player

# name -> "module:factory"; the factory takes the option after ':' (or None)
PLAYERS: dict[str, str] = {
    "mineai@seed": "minecheck.play.players.mineai:seed_player",
    "mineai@fixed": "minecheck.play.players.mineai:fixed_player",
    "satdemo@seed": "minecheck.play.players.satdemo:seed_player",
    "satdemo@fixed": "minecheck.play.players.satdemo:fixed_player",
    "lookahead": "minecheck.play.players.lookahead:lookahead_player",
    "progress": "minecheck.play.players.progress:progress_player",
}
POLICY = "minecheck.play.policy:policy_player"  # every other name: a registry solver under the policy


def player_names() -> tuple[str, ...]:
    return tuple(PLAYERS)


def get_player(name: str) -> Player:
    """The player named ``name``: one of PLAYERS, else the registry's solver of that name under the policy."""
    base, _, option = name.partition(":")
    if base in PLAYERS:
        player = _factory(PLAYERS[base])(option or None)
        player.name = name
        return player
    return _factory(POLICY)(name)


def _factory(target: str):
    module, _, function = target.partition(":")
    return getattr(import_module(module), function)
