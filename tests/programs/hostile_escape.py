"""A Python solver that tries one of escape.py's attacks (issue 38) on every call, as a hosted solver: named by
import path (``hostile_escape:Escape``), served from its jail.  It answers like ``exact`` (no finding), or
raises if the attack got anywhere (a crash finding the test would see).

The attack and its targets come from the environment, which the solver's sandbox is given where its table's
``env`` names them (``table``): MINECHECK_ESCAPE (blank, stop, kill, plant, overwrite, network, proc or none),
MINECHECK_ESCAPE_RUN (the run folder), MINECHECK_ESCAPE_VICTIM (a user's file) and MINECHECK_ESCAPE_PORT (a port
listening on the loopback).  Without MINECHECK_ESCAPE it raises: a test whose attack never reached it fails.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from hostile_python import _LikeExact

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parent / "hostile"))
import escape  # noqa: E402

ENV = ("MINECHECK_ESCAPE", "MINECHECK_ESCAPE_RUN", "MINECHECK_ESCAPE_VICTIM", "MINECHECK_ESCAPE_PORT",
       "MINECHECK_ESCAPE_MARKER")


def table(name: str = "escape", **more: str) -> str:
    """The attacking solver as an inline table that passes the attack's variables on to it."""
    extra = "".join(f", {key} = {value}" for key, value in more.items())
    return f'{name}={{target = "{ESCAPE}", env = [{", ".join(f"{chr(34)}{v}{chr(34)}" for v in ENV)}]{extra}}}'


def attack_named() -> argparse.Namespace:
    env = os.environ
    if "MINECHECK_ESCAPE" not in env:
        raise RuntimeError("no attack named: MINECHECK_ESCAPE did not reach the solver")
    return argparse.Namespace(how=env.get("MINECHECK_ESCAPE", "none"), run_folder=env.get("MINECHECK_ESCAPE_RUN"),
                              victim=env.get("MINECHECK_ESCAPE_VICTIM"), port=int(env.get("MINECHECK_ESCAPE_PORT", 0)))


class Escape(_LikeExact):
    """Attacks, then answers like ``exact``."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        args = attack_named()
        if escape.attack(args):
            raise RuntimeError(f"the attack {args.how!r} got out of the sandbox")
        return self.exact(board, mode)


ESCAPE = "hostile_escape:Escape"
