"""Python solvers that leave processes behind, for the process-tree tests: run in the sandbox, each
starts children (tests/programs/hostile/child.py) that try to outlive the call, then answers like ``exact``,
or sleeps, or dies.

Like ``hanging_solver`` they live in a module so that worker processes can import them by name
(``hostile_solvers:ForkAndReturn``).  ``HOSTILE_PIDS`` in the environment names a file where every process
started records its id (a test sets it, and names the solver with its folder in ``writable``: the solver's
sandbox, in the jail, writes nowhere else).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver
from minecheck.solvers.exact import ExactSolver

CHILD = Path(__file__).resolve().parent / "hostile" / "child.py"


PIDS = "HOSTILE_PIDS"


class _Hostile(ExactSolver):
    def __init__(self, option: str | None = None):
        super().__init__(option)
        self.name = type(self).__name__
        self.pids = os.environ.get(PIDS)

    def start(self, role: str) -> subprocess.Popen:
        """A child doing ``role`` in a session of its own (out of the group's reach), once it runs (its
        word read on its standard output), its output detached."""
        child = subprocess.Popen([sys.executable, str(CHILD), role, self.pids or ""], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        child.stdout.read(1)
        child.stdout.close()
        return child

    def exact(self, board: Board, mode: Mode) -> SolverResult:
        return replace(super().solve(board, mode), solver=self.name)


class ForkAndReturn(_Hostile):
    """Starts a sleeping child in its own session and answers: the child must end with the call."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        self.start("sleep")
        return self.exact(board, mode)


class DoubleForkAndReturn(_Hostile):
    """Starts a child that leaves an orphaned grandchild in a session of its own, and answers."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        self.start("double").wait()
        return self.exact(board, mode)


class SpinningChild(_Hostile):
    """Starts a child that computes forever in its own session, and sleeps: a CPU timeout, not idling."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        self.start("spin")
        time.sleep(600)
        return self.exact(board, mode)


class ForkAndDie(_Hostile):
    """Starts a sleeping child in its own session, then ends its own process: the child is orphaned
    away from the sandbox, and must still be found and killed."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        self.start("sleep")
        time.sleep(0.5)  # the watchdog has looked at the tree by now (a death sooner may leave the child: see
        os._exit(3)      # Tree in minecheck.running.sandbox)


FORK = "hostile_solvers:ForkAndReturn"
DOUBLE = "hostile_solvers:DoubleForkAndReturn"
SPIN_CHILD = "hostile_solvers:SpinningChild"
FORK_AND_DIE = "hostile_solvers:ForkAndDie"


def recording(target: str, folder: Path) -> str:
    """The solver named by ``target``, as a table that lets it write its pids file in ``folder``."""
    return f'{target.rpartition(":")[2]}={{target = "{target}", writable = ["{folder}"], env = ["{PIDS}"]}}'


def run_one(name: str) -> str | None:
    """Run one solver on a small board with a long budget, as a campaign's pool worker would; its error."""
    return run_solver(get_solver(name), parse_board("HHH\n121"), Mode.LOCAL, budget=Budget(cpu=60, idle=60)).error
