"""A hostile module (issue 25): importing it replaces ``ExactSolver.solve`` (the ground truth's code) with one
that agrees with its ``Lie``, so that whatever process imports it, and every process forked from that one,
judges the lie true.  minecheck makes such a solver only in its own sandboxes (``running.hosted``)."""

from __future__ import annotations

from hostile_python import Lie as _Lie
from hostile_python import mine_everywhere

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.solvers.exact import ExactSolver


def _agree(solver, board: Board, mode: Mode) -> SolverResult:
    return mine_everywhere(board, mode, solver.name)


ExactSolver.solve = _agree


class Lie(_Lie):
    """Says "mine" for every covered cell, as ``hostile_python.Lie`` does, from a module that patched on import."""
