"""Faulty solvers of our own making, each one planted fault in a correct solver: what ``bench/reach.py``
times, beside the seed ports' named defects, to show that the default campaign finds a fault it was not
built for within a few boards.

Each is the exact counter (``minecheck.engine``) reading the board its own way, with one mistake a
solver author could make; none is one of the seed ports' defects (``minecheck.solvers.defects``).
``FAULTS`` maps a name to its class; ``WITNESS`` gives, per fault, a board that shows it, and
tests/bench/test_reach.py checks that each fault shows there and agrees with ``exact`` on a plain board.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction

from minecheck.engine.constraints import ConstraintSystem, Equation, split_components
from minecheck.engine.counter import count_system
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict, verdict_of
from minecheck.model.board import COVERED, FLAG, Board


class Faulty:
    """The exact answer, read through ``read`` (the board's equations) and ``adjust`` (the answer): a
    subclass overrides one of them with its fault."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})
    fault = ""  # one line: the planted mistake

    key = ""  # the fault's name, for a fault kept outside FAULTS (bench/numeric_faults.py); else FAULTS' key

    def __init__(self, option: str | None = None):
        self.name = f"fault:{self.key or KEYS[type(self)]}"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return replace(self.adjust(board, mode, self.count(board, mode)), solver=self.name)

    def neighbours(self, board: Board, cell: int) -> tuple[int, ...]:
        return board.neighbours(cell)

    def skip(self, board: Board, digit: int) -> bool:
        """A digit left out of the reading."""
        return False

    def need(self, board: Board, digit: int, flagged: int) -> int:
        return board.cells[digit] - flagged

    def remaining(self, board: Board) -> int | None:
        return None if board.total_mines is None else board.total_mines - len(board.flags)

    def read(self, board: Board) -> list[Equation] | str:
        """The digits' equations, or why the board is impossible."""
        equations = []
        for d in board.digits:
            if self.skip(board, d):
                continue
            around = self.neighbours(board, d)
            covered = tuple(sorted(n for n in around if board.is_covered(n)))
            need = self.need(board, d, sum(1 for n in around if board.is_flag(n)))
            if not 0 <= need <= len(covered):
                return f"the digit at cell {d} cannot be met"
            if covered:
                equations.append(Equation(covered, need, d))
        return equations

    def count(self, board: Board, mode: Mode) -> SolverResult:
        equations = self.read(board)
        if isinstance(equations, str):
            return SolverResult("", mode, consistent=False, reason=equations, layouts=0)
        frontier = tuple(sorted({c for eq in equations for c in eq.cells}))
        off = tuple(c for c in board.covered if c not in set(frontier))
        system = ConstraintSystem(board, frontier, tuple(equations), split_components(tuple(equations)), off,
                                  self.remaining(board))
        count = count_system(system, mode)
        if not count.consistent:
            return SolverResult("", mode, consistent=False, reason=count.reason, layouts=0)
        cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in count.probabilities if p is not None)
        return SolverResult("", mode, consistent=True, cells=cells, layouts=count.layouts,
                            component_layouts=tuple(cc.layouts for cc in count.components))

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return result


def _with_cells(result: SolverResult, cells) -> SolverResult:
    return replace(result, cells=tuple(cells))


class FlagsIgnored(Faulty):
    fault = "flags are read as covered cells"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        blind = Board(board.width, board.height, tuple(COVERED if v == FLAG else v for v in board.cells),
                      board.total_mines)
        result = self.count(blind, mode)
        return replace(result, solver=self.name, cells=tuple(a for a in result.cells if not board.is_flag(a.cell)))


class LastDigitDropped(Faulty):
    fault = "the loop over the digits stops one short: the last digit is never read"

    def skip(self, board: Board, digit: int) -> bool:
        return digit == board.digits[-1]


class TotalOffByOne(Faulty):
    fault = "the global mode takes one mine fewer than the total minus the flags"

    def remaining(self, board: Board) -> int | None:
        left = super().remaining(board)
        return None if left is None else left - 1


class FloatThreshold(Faulty):
    fault = "verdicts from the float probability with a tolerance: below 0.05 safe, above 0.95 a mine"
    threshold = 0.05

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        def verdict(p: float) -> Verdict:
            return Verdict.SAFE if p < self.threshold else Verdict.MINE if p > 1 - self.threshold else Verdict.UNKNOWN

        return _with_cells(result, (CellAnswer(a.cell, verdict(float(a.probability)), float(a.probability))
                                    for a in result.cells))


class CrashOnOneWide(Faulty):
    fault = "looks at the row below every cell: an IndexError on a board one cell wide or tall"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if board.width == 1 or board.height == 1:
            raise IndexError("list index out of range")
        return super().solve(board, mode)


class ImpossibleAllSafe(Faulty):
    fault = "a board with no layout comes back consistent, every covered cell safe"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if result.consistent is not False:
            return result
        return SolverResult("", mode, consistent=True, cells=tuple(CellAnswer(c, Verdict.SAFE, Fraction(0))
                                                                   for c in board.covered), layouts=1)


class GlobalFrontierLocal(Faulty):
    fault = "in the global mode the frontier cells keep their local probabilities (the total only weighs the rest)"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if mode is Mode.LOCAL:
            return result
        local = self.count(board, Mode.LOCAL)
        if local.consistent is False:
            return result
        if result.consistent is False:  # the total does not fit: not noticed, the local answer stands
            return replace(local, mode=mode)
        frontier = {a.cell: a for a in local.cells}
        return _with_cells(result, (frontier.get(a.cell, a) for a in result.cells))


class RoundedProbability(Faulty):
    fault = "probabilities rounded to two decimals"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return _with_cells(result, (replace(a, probability=round(float(a.probability), 2)) for a in result.cells))


class ClosedDigitSkipped(Faulty):
    fault = "a digit with no covered neighbour is never checked (2x1x1/F0, 1x1x0/1 pass as consistent)"

    def skip(self, board: Board, digit: int) -> bool:
        return not any(board.is_covered(n) for n in board.neighbours(digit))


class EdgeWrap(Faulty):
    fault = "neighbours by index offsets: the cell left of column 0 is the end of the row above"

    def neighbours(self, board: Board, cell: int) -> tuple[int, ...]:
        w = board.width
        return tuple(n for n in {cell + dr * w + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
                     if n != cell and 0 <= n < board.size)


class ComponentsAdded(Faulty):
    fault = "the local mode's layout count adds the components' counts instead of multiplying them"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if mode is Mode.GLOBAL or not result.component_layouts:
            return result
        return replace(result, layouts=sum(result.component_layouts))


class OverflaggedMet(Faulty):
    fault = "a digit with more flags around it than it shows counts as met (its need clamped at 0)"

    def need(self, board: Board, digit: int, flagged: int) -> int:
        return max(0, board.cells[digit] - flagged)


class NoFrontierCrash(Faulty):
    fault = "takes the largest component: a ValueError when no digit touches a covered cell"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        equations = self.read(board)
        if board.covered and not isinstance(equations, str):
            max(len(eq.cells) for eq in equations)  # max() arg is an empty sequence
        return super().solve(board, mode)


class DensityOffFrontier(Faulty):
    fault = "off-frontier cells in the global mode get the plain density: mines left over covered cells left"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if mode is Mode.LOCAL or result.consistent is False:
            return result
        equations = self.read(board)
        frontier = {c for eq in equations for c in eq.cells}
        density = Fraction(self.remaining(board), len(board.covered))
        return _with_cells(result, (a if a.cell in frontier else CellAnswer(a.cell, verdict_of(density), density)
                                    for a in result.cells))


class CountOverflow(Faulty):
    fault = "layout counts kept in a 32-bit integer (wrap past 2**31 - 1)"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        def wrap(n: int | None) -> int | None:
            return None if n is None else (n + 2**31) % 2**32 - 2**31

        return replace(result, layouts=wrap(result.layouts),
                       component_layouts=None if result.component_layouts is None
                       else tuple(map(wrap, result.component_layouts)))


FAULTS: dict[str, type[Faulty]] = {
    "flags-ignored": FlagsIgnored,
    "last-digit-dropped": LastDigitDropped,
    "total-off-by-one": TotalOffByOne,
    "float-threshold": FloatThreshold,
    "crash-on-one-wide": CrashOnOneWide,
    "impossible-all-safe": ImpossibleAllSafe,
    "global-frontier-local": GlobalFrontierLocal,
    "rounded-probability": RoundedProbability,
    "closed-digit-skipped": ClosedDigitSkipped,
    "edge-wrap": EdgeWrap,
    "components-added": ComponentsAdded,
    "overflagged-met": OverflaggedMet,
    "no-frontier-crash": NoFrontierCrash,
    "density-off-frontier": DensityOffFrontier,
    "count-overflow": CountOverflow,
}
KEYS = {cls: key for key, cls in FAULTS.items()}

# a board that shows each fault (board text; rows joined by "/")
WITNESS = {
    "flags-ignored": "3x1/F1H",
    "last-digit-dropped": "3x1/H1H",
    "total-off-by-one": "3x1x1/H1H",
    "float-threshold": "5x5x1/HHHHH/HHHHH/HHHHH/HHHHH/HHHHH",
    "crash-on-one-wide": "2x1/0H",
    "impossible-all-safe": "2x1/2H",
    "global-frontier-local": "5x1x2/H1H1H",
    "rounded-probability": "2x2/1H/HH",
    "closed-digit-skipped": "1x1x0/1",
    "edge-wrap": "3x2/HH1/HHH",
    "components-added": "5x1/H1HH1",
    "overflagged-met": "2x1/0F",
    "no-frontier-crash": "2x1/HH",
    "density-off-frontier": "3x3x2/1HH/HHH/HHH",
    "count-overflow": "8x5x20/HHHHHHHH/HHHHHHHH/HHHHHHHH/HHHHHHHH/HHHHHHHH",
}


# -- a fault every reference shares ----------------------------------------------------------------

SHARED_FAULT = ("the board's geometry bounds the rows by the width where the height was meant (the smaller of the "
                "two): on a board taller than wide the rows from `width` down have no neighbours")
SHARED_WITNESS = "2x3/1H/HH/00"  # the 0s are blind: r0c1 is a mine and r1c0, r1c1 are safe, not all unknown


def _rows_bounded_by_width(width: int, height: int, cell: int) -> tuple[int, ...]:
    row, col = divmod(cell, width)
    rows = min(width, height)
    if row >= rows:
        return ()
    return tuple(r * width + c for r in (row - 1, row, row + 1) if 0 <= r < rows
                 for c in (col - 1, col, col + 1) if 0 <= c < width and (r, c) != (row, col))


@contextmanager
def shared_fault():
    """Plant ``SHARED_FAULT`` where every reference reads a board (``Board.neighbours`` and the exact counter's
    neighbour table), so that exact, cbc, minisat and brute agree with each other and are all wrong on tall
    boards; only what reads the board on its own (minecheck.certify) can tell.  Boards made before or meanwhile
    are drawn right: the generators read the geometry through their own import."""
    from minecheck.engine import constraints, scan
    from minecheck.model import board as model_board
    from minecheck.references import minisat

    saved = model_board.neighbours, scan.neighbour_table
    model_board.neighbours = _rows_bounded_by_width
    scan.neighbour_table = lambda width, height: tuple(_rows_bounded_by_width(width, height, c)
                                                       for c in range(width * height))
    constraints.build_constraints.cache_clear()
    try:
        yield SHARED_FAULT
    finally:
        model_board.neighbours, scan.neighbour_table = saved
        constraints.build_constraints.cache_clear()
        minisat.backbone_solutions.cache_clear()
