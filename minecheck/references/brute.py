"""Reference ``brute``: every consistent layout visited one by one, the board read on its own.

It shares no code with the constraint system, the counter or the other references, so a fault
in what they share (reading digits into equations) shows as a disagreement with it.  It declines
politely, without a finding, when the search would pass its node budget (``brute:N`` sets it).
"""

from __future__ import annotations

from minecheck.engine.enumeration import NODE_BUDGET, TooBig, enumerate_count
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, verdict_of
from minecheck.model.board import COVERED, FLAG, Board


class BruteSolver:
    """Verdicts, exact probabilities, counts and consistency, for boards within the node budget."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.budget = int(option) if option else NODE_BUDGET
        self.name = "brute" if option is None else f"brute:{option}"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if mode is Mode.GLOBAL and board.total_mines is None:
            raise ValueError("the global mode needs the total mine count (a header WxHxM)")
        digits = len(board.cells) - board.cells.count(COVERED) - board.cells.count(FLAG)
        if digits > self.budget:  # reading a digit is work too: more digits than steps is declined unread
            return SolverResult(self.name, mode, declined=f"{digits} digits to read, more than {self.budget} steps")
        try:
            count = enumerate_count(board, mode, self.budget)
        except TooBig as err:
            return SolverResult(self.name, mode, declined=str(err))
        if not count.consistent:
            return SolverResult(self.name, mode, consistent=False, reason="no layout satisfies every digit", layouts=0)
        cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in count.probabilities if p is not None)
        return SolverResult(self.name, mode, consistent=True, cells=cells, layouts=count.layouts)


def make(option: str | None = None) -> BruteSolver:
    return BruteSolver(option)
