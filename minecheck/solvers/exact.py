"""The exact counter behind the Solver protocol: verdicts, exact probabilities and counts."""

from __future__ import annotations

from minecheck.engine.counter import count_board
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, verdict_of
from minecheck.model.board import Board
from minecheck.model.errors import BadOption


class ExactSolver:
    """Ground truth; answers everything except LP values, in both modes."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        if option is not None:
            raise BadOption(f"exact takes no option, got {option!r}")
        self.name = "exact"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        count = count_board(board, mode)
        if not count.consistent:
            return SolverResult(self.name, mode, consistent=False, reason=count.reason, layouts=0)
        cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in count.probabilities if p is not None)
        return SolverResult(self.name, mode, consistent=True, cells=cells, layouts=count.layouts,
                            component_layouts=tuple(cc.layouts for cc in count.components))
