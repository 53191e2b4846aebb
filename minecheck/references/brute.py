"""Reference ``brute``: every layout enumerated; declines politely above a cap of covered cells."""

from __future__ import annotations

from minecheck.answers import Answers, CellAnswer, Mode, SolverResult, verdict_of
from minecheck.board import Board
from minecheck.brute import CAP, TooBig, brute_count


class BruteSolver:
    """Verdicts, exact probabilities, counts and consistency for boards of at most CAP cells to enumerate."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.cap = int(option) if option else CAP
        self.name = "brute" if option is None else f"brute:{option}"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        try:
            count = brute_count(board, mode, self.cap)
        except TooBig as err:
            return SolverResult(self.name, mode, declined=str(err))
        if not count.consistent:
            return SolverResult(self.name, mode, consistent=False, reason="no layout satisfies every digit", layouts=0)
        cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in count.probabilities if p is not None)
        return SolverResult(self.name, mode, consistent=True, cells=cells, layouts=count.layouts)


def make(option: str | None = None) -> BruteSolver:
    return BruteSolver(option)
