"""Solvers for the search's tests (campaigns.search): right on every board, but close to being wrong, as the
search reads it from their answers.  They live in a module so that the campaign's workers can import them."""

from __future__ import annotations

from dataclasses import replace

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.solvers.exact import ExactSolver

OFF = 1e-7  # how far its probabilities are off: within the tolerance of a float (1e-6), past a double's rounding


class NearlyRight(ExactSolver):
    """exact's answers with its probabilities as floats a hair off (``OFF``): never wrong, always a little close."""

    def __init__(self, option: str | None = None):
        super().__init__(option)
        self.name = "NearlyRight"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        result = super().solve(board, mode)
        cells = tuple(replace(a, probability=min(1.0, float(a.probability) + OFF * (0 < a.probability < 1)))
                      for a in result.cells)
        return replace(result, solver=self.name, cells=cells)


NEARLY_RIGHT = "near_solver:NearlyRight"
