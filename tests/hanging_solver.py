"""Misbehaving solvers for the campaign tests: one hangs, one raises, one kills its worker process.

They live in a module (not in a test) so that worker processes can import them; the tests
register them in ``minecheck.registry.REGISTRY`` before the pool forks.  Where they answer,
they answer exactly like ``exact``, so the only findings are the misbehaviour itself.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

from minecheck.answers import Mode, SolverResult
from minecheck.board import Board
from minecheck.solvers.exact import ExactSolver

REGISTERED = {
    "hang@test": "hanging_solver:HangingSolver",
    "raise@test": "hanging_solver:RaisingSolver",
    "die@test": "hanging_solver:DyingSolver",
}


def dies_on(board: Board) -> bool:
    """The boards that kill DyingSolver's process: those with an odd number of mines (a fixed, visible rule)."""
    return board.total_mines is not None and board.total_mines % 2 == 1


class _LikeExact(ExactSolver):
    def __init__(self, option: str | None = None):
        super().__init__(option)
        self.name = type(self).registered_as

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return replace(super().solve(board, mode), solver=self.name)


class HangingSolver(_LikeExact):
    """Sleeps far past any test's per-board timeout."""

    registered_as = "hang@test"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        time.sleep(600)
        return super().solve(board, mode)


class RaisingSolver(_LikeExact):
    """Raises on every board, as a solver with a bug would."""

    registered_as = "raise@test"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        raise RuntimeError("deliberate failure")


class DyingSolver(_LikeExact):
    """Ends its whole process (below Python's exceptions) on the boards ``dies_on`` picks."""

    registered_as = "die@test"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            os._exit(3)
        return super().solve(board, mode)
