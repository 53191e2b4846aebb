"""Faulty solvers at the numeric edges (issue 27): the arithmetic real engines get wrong, each one
mistake planted in the exact counter as in ``bench/faults.py`` (thresholds on a float probability,
counts in 64-bit integers or a double, weights as doubles, three printed decimals, an estimate or a
32-bit mask past a component size).  ``NUMERIC_FAULTS`` maps a name to its class, ``NUMERIC_WITNESS``
names the ``numeric`` edge whose boards show it (tests/bench/test_numeric_faults.py checks both ways).
"""

from __future__ import annotations

import math
from dataclasses import replace

from faults import Faulty, FloatThreshold, _with_cells

from minecheck.engine.constraints import build_constraints
from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board


class Threshold001(FloatThreshold):
    key = "float-threshold-0.01"
    fault = "verdicts from the float probability with a tolerance: below 0.01 safe, above 0.99 a mine"
    threshold = 0.01


class Threshold00001(FloatThreshold):
    key = "float-threshold-0.0001"
    fault = "verdicts from the float probability with a tolerance: below 0.0001 safe, above 0.9999 a mine"
    threshold = 0.0001


def _counts(result: SolverResult, read) -> SolverResult:
    """The result with its layout counts read through ``read`` (what a fixed-width engine keeps)."""
    return replace(result, layouts=None if result.layouts is None else read(result.layouts),
                   component_layouts=None if result.component_layouts is None
                   else tuple(map(read, result.component_layouts)))


class CountWrap64(Faulty):
    key = "count-wrap-64"
    fault = "layout counts in an unsigned 64-bit integer (wrap at 2**64)"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return _counts(result, lambda n: n % 2**64)


class CountInt64(Faulty):
    key = "count-int64"
    fault = "layout counts in a signed 64-bit integer (wrap past 2**63 - 1)"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return _counts(result, lambda n: (n + 2**63) % 2**64 - 2**63)


class CountFloat64(Faulty):
    key = "count-float64"
    fault = "layout counts in a double: rounded past 2**53, an overflow past 1e308"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return _counts(result, lambda n: int(float(n)))  # OverflowError past the double range, as a cast traps


def double(n: int) -> float:
    """An integer as a double, inf past the largest (as C's arithmetic gives, where Python's raises)."""
    return float(n) if n < 2**1024 else math.inf


class WeightsAsDoubles(Faulty):
    key = "weights-as-doubles"
    fault = "layout weights summed in doubles: past 1e308 they are inf, and the probabilities inf/inf = NaN"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if result.consistent is False or not result.layouts:
            return result
        total = double(result.layouts)

        def cell(a: CellAnswer) -> CellAnswer:
            p = double(int(a.probability * result.layouts)) / total
            return CellAnswer(a.cell, Verdict.SAFE if p == 0 else Verdict.MINE if p == 1 else Verdict.UNKNOWN, p)

        return replace(_with_cells(result, map(cell, result.cells)),
                       layouts=None if math.isinf(total) else result.layouts)


class RoundedThree(Faulty):
    key = "rounded-3-decimals"
    fault = "probabilities printed with three decimals"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        return _with_cells(result, (replace(a, probability=round(float(a.probability), 3)) for a in result.cells))


LARGEST_EXACT = 32  # cells in a component past which the next two faults give up on exactness


def _large(board: Board) -> list[tuple[int, ...]]:
    return [c.cells for c in build_constraints(board).components if len(c.cells) > LARGEST_EXACT]


class EstimatePastSize(Faulty):
    key = "estimate-past-32-cells"
    fault = "a component of more than 32 cells is estimated: each cell gets its digits' mean need per covered cell"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        large = {c for cells in _large(board) for c in cells}
        if not large or result.consistent is False:
            return result
        shares: dict[int, list[float]] = {}
        for eq in build_constraints(board).equations:
            for c in eq.cells:
                shares.setdefault(c, []).append(eq.mines / len(eq.cells))
        return _with_cells(result, (CellAnswer(a.cell, Verdict.UNKNOWN, sum(shares[a.cell]) / len(shares[a.cell]))
                                    if a.cell in large else a for a in result.cells))


class Bitmask32(Faulty):
    key = "bitmask-32"
    fault = "a component's cells as bits of a 32-bit mask: cell 32 of a component is cell 0 again (1 << 32 wraps)"

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if result.consistent is False:
            return result
        by_cell = {a.cell: a for a in result.cells}
        alias = {cells[i]: cells[i % LARGEST_EXACT] for cells in _large(board) for i in range(len(cells))}
        return _with_cells(result, (replace(by_cell[alias[a.cell]], cell=a.cell) if a.cell in alias else a
                                    for a in result.cells))


NUMERIC_FAULTS: dict[str, type[Faulty]] = {cls.key: cls for cls in (
    Threshold001, Threshold00001, CountWrap64, CountInt64, CountFloat64, WeightsAsDoubles, RoundedThree,
    EstimatePastSize, Bitmask32)}

# the numeric edge whose boards show each fault (generate_board(recipe("numeric", seed, edge=...)))
NUMERIC_WITNESS = {
    "float-threshold-0.01": "near-0.001",
    "float-threshold-0.0001": "near-1e-06",
    "count-wrap-64": "above-2**64",
    "count-int64": "above-2**63",
    "count-float64": "above-2**64",
    "weights-as-doubles": "off-frontier-1030",
    "rounded-3-decimals": "near-0.001",
    "estimate-past-32-cells": "component-33",
    "bitmask-32": "component-65",
}
