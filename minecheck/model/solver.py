"""The Solver contract: what every solver under test and every reference implements, and the
mode rule they share.  Solvers depend on this and on the model, never on the harness that runs them."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.errors import BadOption

MINES, MARKS = "mines", "marks"  # how a solver reads a flag: a mine (the rule), or the player's mark of a cell
FLAG_READINGS = (MINES, MARKS)


@runtime_checkable
class Solver(Protocol):
    """What every solver under test and every reference implements."""

    name: str
    answers: frozenset[Answers]
    modes: frozenset[Mode]

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        """Answer what the solver can about the board; raise on internal failure."""
        ...


def reads_flags_as_marks(solver: object) -> bool:
    """Whether the solver declares ``flags = "marks"`` (an optional attribute; a flag is a mine without it): such
    a solver is given each board with its flags shown as covered cells, and judged on that board."""
    return getattr(solver, "flags", MINES) == MARKS


def flags_covered(board: Board) -> Board:
    """The board a solver that reads flags as marks is given: each flag a covered cell, the same total and truth
    (a flag is on a mine), as a player who never flags would see it."""
    return Board(board.width, board.height, tuple(COVERED if v == FLAG else v for v in board.cells),
                 board.total_mines, board.truth)


def require_mode(solver: Solver, mode: Mode) -> None:
    """A mode the solver does not answer is the caller's mistake, not a finding: say so plainly."""
    if mode not in solver.modes:
        names = " and ".join(sorted(m.value for m in solver.modes))
        raise BadOption(f"{solver.name} answers the {names} mode only, not {mode.value}")
