"""The Solver contract: what every solver under test and every reference implements, and the
mode rule they share.  Solvers depend on this and on the model, never on the harness that runs them."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.errors import BadOption


@runtime_checkable
class Solver(Protocol):
    """What every solver under test and every reference implements."""

    name: str
    answers: frozenset[Answers]
    modes: frozenset[Mode]

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        """Answer what the solver can about the board; raise on internal failure."""
        ...


def require_mode(solver: Solver, mode: Mode) -> None:
    """A mode the solver does not answer is the caller's mistake, not a finding: say so plainly."""
    if mode not in solver.modes:
        names = " and ".join(sorted(m.value for m in solver.modes))
        raise BadOption(f"{solver.name} answers the {names} mode only, not {mode.value}")
