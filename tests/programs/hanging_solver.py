"""Misbehaving solvers for the isolation and campaign tests: each fails in one way a real solver can.

They live in a module (not in a test) so that worker processes can import them: the tests name
them by import path (``hanging_solver:HangingSolver``), which works in forked workers and on
dask workers alike.  Where they answer, they answer exactly like ``exact``, so the only findings
are the misbehaviour itself.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.solvers.exact import ExactSolver


def hoard_without_bound() -> None:
    """Allocates 64 MiB after 64 MiB without touching the pages (numpy.empty): the memory limit stops it at once
    on any machine, where zero-filled blocks spend CPU on page faults and can meet a short CPU budget first."""
    hoard = []
    while True:
        hoard.append(numpy.empty(64 * 2**20, dtype=numpy.uint8))


def dies_on(board: Board) -> bool:
    """The boards that DyingSolver and KILL_WORKER fail on: those with an odd number of mines."""
    return board.total_mines is not None and board.total_mines % 2 == 1


class _LikeExact(ExactSolver):
    def __init__(self, option: str | None = None):
        super().__init__(option)
        self.name = type(self).__name__

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return replace(super().solve(board, mode), solver=self.name)


class HangingSolver(_LikeExact):
    """Sleeps far past any test's budget, using no CPU: only the idle stop can end it."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        time.sleep(600)
        return super().solve(board, mode)


class SpinningSolver(_LikeExact):
    """Computes forever in Python: the CPU-time budget stops it."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        n = 0
        while True:
            n = (n * 31 + 7) % 1_000_003


class StuckInCSolver(_LikeExact):
    """Computes forever inside one C call (a catastrophic regular expression), where Python's signal
    handlers never run: only the watchdog outside the process can stop it."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        re.match(r"(a+)+$", "a" * 64 + "b")
        return super().solve(board, mode)


class HungrySolver(_LikeExact):
    """Allocates without bound: the memory limit stops it."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        hoard_without_bound()


class StackSmashingSolver(_LikeExact):
    """Overflows the C stack (recursion through a C function, the limit lifted), as a native library can."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        sys.setrecursionlimit(10**8)

        def deeper(n: int) -> int:
            return sum(map(deeper, [n + 1]))

        return deeper(0)


class RaisingSolver(_LikeExact):
    """Raises on every board, as a solver with a bug would."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        raise RuntimeError("deliberate failure")


class DyingSolver(_LikeExact):
    """Ends its own process (below Python's exceptions) on the boards ``dies_on`` picks."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            os._exit(3)
        return super().solve(board, mode)


HANG = "hanging_solver:HangingSolver"
SPIN = "hanging_solver:SpinningSolver"
STUCK_IN_C = "hanging_solver:StuckInCSolver"
HUNGRY = "hanging_solver:HungrySolver"
STACK = "hanging_solver:StackSmashingSolver"
RAISE = "hanging_solver:RaisingSolver"
DIE = "hanging_solver:DyingSolver"
# kills the campaign's worker on the boards ``dies_on`` picks: a program, as a solver made in a sandbox cannot
# reach the worker (its own PID namespace), while a ``cmd:`` program runs below the worker's guardian
KILL_WORKER = (f"cmd:{shlex.quote(sys.executable)} "
               f"{shlex.quote(str(Path(__file__).with_name('protocol_program.py')))} --misbehave kill-worker")


class SpuriousStopSolver(_LikeExact):
    """Stopped 'at its CPU budget' at once on its first run (the marker file says whether it ran), as a
    stray signal or a kernel limit could stop any solver: the run must be tried again, not reported."""

    marker = None  # a path, set by the test before the sandbox is forked

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        from pathlib import Path

        from minecheck.running.stops import CpuBudget

        if not Path(self.marker).exists():
            Path(self.marker).write_text("stopped once")
            raise CpuBudget()
        return super().solve(board, mode)


# -- misbehaving on some boards only (``dies_on``), answering like exact on the others: for batches, where one
# board's trouble must cost that board alone


class SpinsOnSome(_LikeExact):
    def solve(self, board: Board, mode: Mode) -> SolverResult:
        while dies_on(board):
            pass
        return super().solve(board, mode)


class StuckInCOnSome(_LikeExact):
    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            re.match(r"(a+)+$", "a" * 64 + "b")
        return super().solve(board, mode)


class SleepsOnSome(_LikeExact):
    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            time.sleep(600)
        return super().solve(board, mode)


class HungryOnSome(_LikeExact):
    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            hoard_without_bound()
        return super().solve(board, mode)


class RaisesOnSome(_LikeExact):
    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if dies_on(board):
            raise RuntimeError("deliberate failure")
        return super().solve(board, mode)


SPINS_ON_SOME = "hanging_solver:SpinsOnSome"
STUCK_IN_C_ON_SOME = "hanging_solver:StuckInCOnSome"
SLEEPS_ON_SOME = "hanging_solver:SleepsOnSome"
HUNGRY_ON_SOME = "hanging_solver:HungryOnSome"
RAISES_ON_SOME = "hanging_solver:RaisesOnSome"
