"""A third-party engine under test: ``ms_toollib`` (Rust, on PyPI), through its ``cal_probability_onboard``.

Global mode only, as the engine works: its float probabilities for every covered cell, and the
verdicts they imply (0.0 safe, 1.0 a mine), the way a player using it would act.  Where the
engine reads the rules differently from minecheck, the answer says so in words (``extra``
"reading"), so that a finding it causes is explained rather than only listed:

* it ignores the player's flags and keeps only the mines it deduces itself (a flagged cell comes
  back below 1.0), where minecheck takes every flag as a mine;
* it moves a total mine count the board cannot hold into the range it can (the count it used
  differs from the board's) instead of calling the board inconsistent.

Install it with ``pip install "minecheck[toollib]"`` (``pip install -e ".[toollib]"`` in a checkout); without
it, making the solver raises ``SolverUnavailable``, so a command naming it exits 2 before any work.
"""

from __future__ import annotations

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import COVERED, FLAG, Board, label
from minecheck.model.errors import SolverUnavailable
from minecheck.model.solver import require_mode

INSTALL = 'pip install "minecheck[toollib]"   (in a checkout: pip install -e ".[toollib]")'
COVERED_CODE, FLAG_CODE = 10, 11  # ms_toollib's codes for a covered and a flagged cell; digits are themselves
ERRORS = {  # the engine's own messages, in English
    "标记阶段无解的局面": "no layout (found while marking)",
    "枚举阶段无解的局面": "no layout (found while enumerating)",
}


def game_board(board: Board) -> list[list[int]]:
    """The board in ms_toollib's encoding: rows of 10 (covered), 11 (flag) and digits."""
    code = {COVERED: COVERED_CODE, FLAG: FLAG_CODE}
    return [[code.get(v, v) for v in board.cells[r * board.width:(r + 1) * board.width]] for r in range(board.height)]


class ToollibSolver:
    """ms_toollib's probabilities and the verdicts they imply, in the global mode."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.CONSISTENCY})
    modes = frozenset({Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "ms_toollib"
        try:
            import ms_toollib  # noqa: F401 - only to know, before any board, that it is there
        except ImportError:
            raise SolverUnavailable("ms_toollib is not installed", INSTALL) from None

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        if board.total_mines is None:
            raise ValueError("the global mode needs the total mine count (a header WxHxM)")
        try:
            import ms_toollib
        except ImportError:
            raise RuntimeError(f"ms_toollib is not installed: {INSTALL}") from None
        try:
            probabilities, (low, used, high) = ms_toollib.cal_probability_onboard(game_board(board),
                                                                                 float(board.total_mines))
        except RuntimeError as err:  # the engine's way of saying "inconsistent"
            said = str(err)
            return SolverResult(self.name, mode, consistent=False,
                                reason=f"ms_toollib: {ERRORS.get(said, said)}")
        flat = [p for row in probabilities for p in row]
        cells = tuple(CellAnswer(c, _verdict(flat[c]), flat[c]) for c in board.covered)
        notes = _readings(board, flat, low, used, high)
        return SolverResult(self.name, mode, consistent=True, cells=cells,
                            extra=(("reading", " ".join(notes)),) if notes else ())


def _verdict(p: float) -> Verdict:
    return Verdict.SAFE if p == 0.0 else Verdict.MINE if p == 1.0 else Verdict.UNKNOWN


def _readings(board: Board, flat: list[float], low: int, used: int, high: int) -> list[str]:
    """Where the engine read the rules otherwise than minecheck on this board, in words."""
    notes = []
    dropped = [c for c in board.flags if flat[c] != 1.0]
    if dropped:
        where = ", ".join(label(board, c) for c in dropped[:6])
        notes.append(f"ms_toollib ignored the flag(s) at {where}: it clears the player's flags, keeps only the "
                     "mines it can deduce itself and answers as if the rest were covered cells, while minecheck "
                     "takes every flag as a mine (and counts it in the total).")
    if used != board.total_mines:
        notes.append(f"ms_toollib counted {used} mines where the board says {board.total_mines}: it moves a total "
                     f"the digits cannot hold into the range it finds ({low}..{high}) instead of calling the "
                     "board inconsistent.")
    return notes


def make(option: str | None = None) -> ToollibSolver:
    return ToollibSolver(option)
