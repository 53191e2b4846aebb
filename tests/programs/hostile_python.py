"""The red team's hostile Python solvers (issue 25): each attacks what runs it, not the board.

Named by import path (``hostile_python:Lie``) like ``hanging_solver``, so that pool workers import them.
``Lie`` says "mine" for every covered cell; ``LieAndPatch`` says the same and also replaces
``ExactSolver.solve`` (the ground truth's code) with one that agrees with it; the others attack the
process that runs them (kill or stop their parent, stop themselves) and otherwise answer like ``exact``,
so that the only findings are what their attack costs.
"""

from __future__ import annotations

import os
import signal
from dataclasses import replace

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board
from minecheck.solvers.exact import ExactSolver


def mine_everywhere(board: Board, mode: Mode, name: str) -> SolverResult:
    """A verdict of "mine" on every covered cell: wrong wherever a cell is safe or unknown."""
    return SolverResult(name, mode, consistent=True, cells=tuple(CellAnswer(c, Verdict.MINE) for c in board.covered))


class Lie:
    """Says "mine" for every covered cell, and claims verdicts only."""

    answers = frozenset({Answers.VERDICTS})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = type(self).__name__

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return mine_everywhere(board, mode, self.name)


class LieAndPatch(Lie):
    """Lies as ``Lie`` does, and makes the exact counter (in whatever process this runs) agree with it."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        def agree(solver, board: Board, mode: Mode) -> SolverResult:
            return mine_everywhere(board, mode, solver.name)

        ExactSolver.solve = agree
        return mine_everywhere(board, mode, self.name)


class _LikeExact(ExactSolver):
    def __init__(self, option: str | None = None):
        super().__init__(option)
        self.name = type(self).__name__

    def exact(self, board: Board, mode: Mode) -> SolverResult:
        return replace(ExactSolver.solve(self, board, mode), solver=self.name)


class KillParent(_LikeExact):
    """Kills the process that started it (SIGKILL to its parent), then answers like ``exact``."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        os.kill(os.getppid(), signal.SIGKILL)
        return self.exact(board, mode)


class StopParent(_LikeExact):
    """Stops the process that started it (SIGSTOP to its parent), then answers like ``exact``."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        os.kill(os.getppid(), signal.SIGSTOP)
        return self.exact(board, mode)


class StopSelf(_LikeExact):
    """Stops its own process (SIGSTOP) on boards with a total: only the idle stop can end it there."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if board.total_mines is not None:
            os.kill(os.getpid(), signal.SIGSTOP)
        return self.exact(board, mode)


class _Payload:
    """Unpickled, it runs ``exec`` of its code: a solver's answer that would run code in the process reading it."""

    def __init__(self, code: str):
        self.code = code

    def __reduce__(self):
        return exec, (self.code,)


class PickleBomb(Lie):
    """Answers an object whose unpickling writes the file named by $MINECHECK_PICKLE_MARKER (in the process that
    reads the answer back: the worker, were it not refused there)."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        marker = os.environ.get("MINECHECK_PICKLE_MARKER", "")
        code = f"open({marker!r}, 'w').write('ran in ' + str(__import__('os').getpid()))" if marker else "pass"
        return replace(mine_everywhere(board, mode, self.name), extra=(("payload", _Payload(code)),))


class PhoneHome(Lie):
    """Connects to 127.0.0.1:$MINECHECK_TEST_PORT before it lies; raises if that reached anything."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        import socket

        try:
            socket.create_connection(("127.0.0.1", int(os.environ["MINECHECK_TEST_PORT"])), timeout=2).close()
        except OSError:
            return mine_everywhere(board, mode, self.name)
        raise RuntimeError("reached a port of the machine")


LIE = "hostile_python:Lie"
PHONE_HOME = "hostile_python:PhoneHome"
PICKLE_BOMB = "hostile_python:PickleBomb"
LIE_AND_PATCH = "hostile_python:LieAndPatch"
KILL_PARENT = "hostile_python:KillParent"
STOP_PARENT = "hostile_python:StopParent"
STOP_SELF = "hostile_python:StopSelf"
