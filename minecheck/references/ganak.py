"""Reference ``ganak``: a second counter, Ganak's exact projected model counting (pyganak) over the
certificates' own CNF of the board (``minecheck.certify.cnf``), which reads the digits without the
engine's constraint system.

Local mode: each group of linked digits is counted, and counted again with each cell a mine (one count
per box: cells in the same digits share it).  Global mode: each group is counted per number of mines
k (its cells' count held at exactly k by a sequential counter, the count projected on the cells), and
per cell and k; the groups and the covered cells no digit touches are then combined with binomials,
as the exact counter does.  Each count is one call to Ganak; a board that needs more than the budget
of calls (``ganak:N``; ``CALLS`` by default) is declined, without a finding: the global mode of a
group of c cells costs about (boxes + 1) x (c + 1) calls, so it stops at large groups.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from fractions import Fraction
from math import comb

from minecheck.certify.cnf import encode, exactly
from minecheck.certify.rules import Key, Reading
from minecheck.certify.tally import product
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, verdict_of
from minecheck.model.board import COVERED, Board, label
from minecheck.model.errors import EngineError, SolverUnavailable
from minecheck.model.solver import require_mode

CALLS = 5_000
INSTALL = 'pip install "minecheck[ganak]"   (in a checkout: pip install -e ".[ganak]")'


class TooMany(EngineError):
    """More counts than the budget allows."""


class GanakSolver:
    """Counts, exact probabilities, verdicts and consistency from Ganak, in both modes."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        try:
            import pyganak  # noqa: F401 - only to know, before any board, that it is there
        except ImportError:
            raise SolverUnavailable("pyganak is not installed", INSTALL) from None
        if option is not None and not option.isdigit():
            raise ValueError(f"ganak:N takes a number of counts, not {option!r}")
        self.calls = int(option) if option else CALLS
        self.name = "ganak" if option is None else f"ganak:{option}"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        reading = Reading(board, mode)
        broken = [k for k, r in reading.rules.items() if k[0] == "digit" and not _covered(reading, k)
                  and not r.holds(frozenset(board.flags))]
        if broken:
            return SolverResult(self.name, mode, consistent=False, layouts=0,
                                reason=f"the digit at {label(board, broken[0][1])} does not see its mines")
        counter = _Counter(reading, self.calls)
        try:
            groups = [counter.group(g, by_mines=mode is Mode.GLOBAL) for g in reading.groups]
            return self._answer(reading, groups)
        except TooMany:
            return SolverResult(self.name, mode, declined=f"more than {self.calls} counts to make")

    def _answer(self, reading: Reading, groups: list[dict]) -> SolverResult:
        mode, board = reading.mode, reading.board
        empty = next((g for g in groups if not any(g["layouts"])), None)
        if empty is not None:
            digits = ", ".join(label(board, k[1]) for k in empty["keys"] if k[0] == "digit")
            return SolverResult(self.name, mode, consistent=False, layouts=0,
                                reason=f"no layout satisfies the digits at {digits}")
        if mode is Mode.LOCAL:
            layouts, cells = 1, []
            for g in groups:
                layouts *= g["layouts"][0]
                cells += [(c, Fraction(n[0], g["layouts"][0])) for c, n in g["mines"].items()]
            return _result(self.name, mode, layouts, cells, groups)
        off, remaining = len(reading.off_frontier), board.total_mines - len(board.flags)
        polys = [g["layouts"] for g in groups]
        # the products of the groups before and after each one: two products per group, not one per pair
        before, after = [[1]], [[1]]
        for p in polys:
            before.append(product([before[-1], p]))
        for p in reversed(polys):
            after.append(product([p, after[-1]]))
        after.reverse()
        tail = _tail(off, remaining, sum(len(p) - 1 for p in polys))
        layouts = sum(n * t for n, t in zip(before[-1], tail))
        if layouts == 0:
            return SolverResult(self.name, mode, consistent=False, layouts=0,
                                reason=f"no layout holds the total of {board.total_mines} mines")
        cells, frontier_mines = [], 0
        for i, g in enumerate(groups):
            others = product([before[i], after[i + 1]])
            weight = [sum(n * tail[k + j] for j, n in enumerate(others)) for k in range(len(polys[i]))]
            for c, per_k in g["mines"].items():
                mines = sum(m * w for m, w in zip(per_k, weight))
                frontier_mines += mines
                cells.append((c, Fraction(mines, layouts)))
        if off:
            p_off = Fraction((remaining * layouts - frontier_mines) // off, layouts)
            cells += [(c, p_off) for c in reading.off_frontier]
        return _result(self.name, mode, layouts, cells, groups)


def _result(name: str, mode: Mode, layouts: int, cells: list, groups: list[dict]) -> SolverResult:
    answers = tuple(CellAnswer(c, verdict_of(p), p) for c, p in sorted(cells))
    return SolverResult(name, mode, consistent=True, cells=answers, layouts=layouts,
                        component_layouts=tuple(sum(g["layouts"]) for g in groups))


def _covered(reading: Reading, key: Key) -> list[int]:
    return [c for c in reading.rules[key].cells if reading.board.cells[c] == COVERED]


def _tail(off: int, remaining: int, top: int) -> list[int]:
    """C(off, remaining - k) for k = 0..top, by ratios from one binomial (C(n, j+1) = C(n, j) (n-j) / (j+1))."""
    out = [0] * (top + 1)
    low, high = max(0, remaining - top), min(off, remaining)
    value = comb(off, low) if low <= high else 0
    for j in range(low, high + 1):
        out[remaining - j] = value
        value = value * (off - j) // (j + 1)
    return out


class _Counter:
    """Ganak's counts of one board's groups, within a budget of calls."""

    def __init__(self, reading: Reading, calls: int):
        self.reading, self.left = reading, calls
        self.var = {c: i + 1 for i, c in enumerate(reading.unknown)}

    def group(self, keys: tuple[Key, ...], by_mines: bool) -> dict:
        """{"keys", "layouts": counts (by number of mines in the global mode), "mines": per covered cell, the
        counts with it a mine (by number of mines)}."""
        cells = sorted({c for k in keys if k[0] == "digit" for c in _covered(self.reading, k)})
        base = [list(c) for c in encode(self.reading, keys).clauses]
        boxes: dict[tuple[Key, ...], list[int]] = {}
        for c in cells:
            boxes.setdefault(tuple(k for k in keys if c in self.reading.rules[k].cells), []).append(c)
        ks = range(len(cells) + 1) if by_mines else [None]
        top = max(self.var.values(), default=0)
        lits = [self.var[c] for c in cells]
        layouts, mines = [], {}
        for k in ks:
            extra, _ = exactly(lits, k, "seqcounter", top) if k is not None else ([], top)
            clauses = base + [list(c) for c in extra]
            n = self.count(clauses, lits)
            layouts.append(n)
            for box in boxes.values():
                m = self.count(clauses + [[self.var[box[0]]]], lits) if n else 0
                for c in box:
                    mines.setdefault(c, []).append(m)
        return {"keys": keys, "layouts": layouts, "mines": mines}

    def count(self, clauses: list[list[int]], cells: list[int]) -> int:
        """Layouts of ``cells`` some assignment of the other variables extends to a model (Ganak, projected)."""
        if any(not c for c in clauses):
            return 0  # pyganak counts a formula holding the empty clause as satisfiable
        self.left -= 1
        if self.left < 0:
            raise TooMany
        from pyganak import Counter

        counter = Counter()
        counter.new_vars(max([abs(x) for c in clauses for x in c] + cells + [1]))
        counter.add_clauses(clauses)
        counter.set_sampling_set(cells)
        with _quiet():
            return int(counter.count())


@contextmanager
def _quiet():
    """Ganak writes a line to the standard output on an unsatisfiable formula: send it to /dev/null."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def make(option: str | None = None) -> GanakSolver:
    return GanakSolver(option)
