"""Brute force: every consistent layout visited, one by one, checked against every digit.

The oracle the exact counter is tested against, so it shares none of its code: it reads the
digits straight off the board.  ``brute_count`` enumerates all 2^n layouts with numpy (small
boards); ``enumerate_count`` visits each consistent layout of each group of linked cells by
backtracking, under a node budget, and reaches most played positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.errors import EngineError

CAP = 20  # covered cells; 2^20 layouts is about a second


class TooBig(EngineError, ValueError):
    """The board has more covered cells than brute force enumerates."""


@dataclass(frozen=True)
class BruteCount:
    consistent: bool
    layouts: int
    probabilities: tuple[tuple[int, Fraction | None], ...]


def brute_count(board: Board, mode: Mode, cap: int = CAP) -> BruteCount:
    """Layouts and exact probabilities by enumeration; local mode enumerates the frontier only."""
    frontier = sorted({n for d in board.digits for n in board.neighbours(d) if board.is_covered(n)})
    cells = list(board.covered) if mode is Mode.GLOBAL else frontier
    if len(cells) > cap:
        raise TooBig(f"{len(cells)} covered cells to enumerate, above the cap of {cap}")
    import numpy as np  # only the 2^n enumeration needs it

    index = {c: i for i, c in enumerate(cells)}
    masks = np.arange(1 << len(cells), dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(len(cells))) & 1).astype(np.int16)
    ok = np.ones(len(masks), dtype=bool)
    for d in board.digits:
        around = board.neighbours(d)
        need = board.cells[d] - sum(1 for n in around if board.is_flag(n))
        cols = [index[n] for n in around if board.is_covered(n)]
        got = bits[:, cols].sum(axis=1) if cols else np.zeros(len(masks), dtype=np.int16)
        ok &= got == need
    if mode is Mode.GLOBAL:
        assert board.total_mines is not None, "the global mode needs the total mine count"
        ok &= bits.sum(axis=1) == board.total_mines - len(board.flags)
    good = bits[ok]
    layouts = int(good.shape[0])
    if layouts == 0:
        return BruteCount(False, 0, ())
    mines = good.sum(axis=0)
    probs: dict[int, Fraction | None] = {c: None for c in board.covered}
    for c, i in index.items():
        probs[c] = Fraction(int(mines[i]), layouts)
    return BruteCount(True, layouts, tuple(sorted(probs.items())))


# -- enumeration by backtracking: the same oracle for boards too big for 2^n ----------------------------

NODE_BUDGET = 200_000  # search nodes and products combining the groups; a board that needs more is declined
# (a count, so the same on every machine; Expert play positions need under 1,000 products, and 200,000 of
# them with counts of a 100x100 board take about a second)


def enumerate_count(board: Board, mode: Mode, budget: int = NODE_BUDGET) -> BruteCount:
    """Layouts and exact probabilities by visiting every consistent layout of each group of linked
    frontier cells one by one (backtracking, pruned by each digit's mines still owed), then combining
    the groups - and in the global mode the covered cells no digit touches - by counting.

    It reads the digits straight off the board, as ``brute_count`` does, and shares no code with the
    constraint system or the counter; TooBig when the search and the combining would take more than
    ``budget`` steps (a node visited, or a product of two counts).
    """
    rules = _rules(board)
    if rules is None:
        return BruteCount(False, 0, ())
    groups = _groups(rules)
    spent = [0]
    tallies = []
    for cells in groups:
        tally = _enumerate_group(cells, [r for r in rules if r[0] & set(cells)], budget, spent)
        if not sum(tally[0]):
            return BruteCount(False, 0, ())
        tallies.append((cells, tally))
    frontier = {c for cells in groups for c in cells}
    rest = [c for c in board.covered if c not in frontier]
    if mode is Mode.LOCAL:
        return _local_count(board, tallies)
    assert board.total_mines is not None, "the global mode needs the total mine count"
    return _global_count(board, tallies, rest, board.total_mines - len(board.flags), budget, spent)


def _rules(board: Board) -> list[tuple[frozenset[int], int]] | None:
    """Each digit as (covered neighbours, mines still owed); None if a digit is impossible on its own."""
    out = []
    for d in board.digits:
        around = board.neighbours(d)
        covered = frozenset(n for n in around if board.is_covered(n))
        owed = board.cells[d] - sum(1 for n in around if board.is_flag(n))
        if not 0 <= owed <= len(covered):
            return None
        if covered:
            out.append((covered, owed))
    return out


def _groups(rules: list[tuple[frozenset[int], int]]) -> list[list[int]]:
    """Frontier cells linked by shared digits, each group in breadth-first order from its smallest cell."""
    by_cell: dict[int, list[int]] = {}
    for i, (cells, _) in enumerate(rules):
        for c in cells:
            by_cell.setdefault(c, []).append(i)
    seen: set[int] = set()
    groups = []
    for start in sorted(by_cell):
        if start in seen:
            continue
        order, queue = [], [start]
        seen.add(start)
        while queue:
            cell = queue.pop(0)
            order.append(cell)
            for i in by_cell[cell]:
                for other in sorted(rules[i][0] - seen):
                    seen.add(other)
                    queue.append(other)
        groups.append(order)
    return groups


def _enumerate_group(cells: list[int], rules, budget: int, spent: list[int]) -> tuple[list[int], dict[int, list[int]]]:
    """Layouts of one group by mine count, and per cell the layouts (by mine count) where it is a mine."""
    owed = [m for _, m in rules]
    free = [len(c) for c, _ in rules]
    touching = {c: [i for i, (cs, _) in enumerate(rules) if c in cs] for c in cells}
    by_k = [0] * (len(cells) + 1)
    per_cell = {c: [0] * (len(cells) + 1) for c in cells}
    mines: list[int] = []

    def visit(i: int) -> None:
        spent[0] += 1
        if spent[0] > budget:
            raise TooBig(f"more than {budget} search nodes to enumerate every layout")
        if i == len(cells):
            by_k[len(mines)] += 1
            for c in mines:
                per_cell[c][len(mines)] += 1
            return
        cell = cells[i]
        for mine in (1, 0):
            ok = True
            for r in touching[cell]:
                free[r] -= 1
                owed[r] -= mine
                ok = ok and 0 <= owed[r] <= free[r]
            if ok:
                if mine:
                    mines.append(cell)
                visit(i + 1)
                if mine:
                    mines.pop()
            for r in touching[cell]:
                free[r] += 1
                owed[r] += mine

    visit(0)
    return by_k, per_cell


def _charge(steps: int, budget: int, spent: list[int]) -> None:
    spent[0] += steps
    if spent[0] > budget:
        raise TooBig(f"more than {budget} steps to search and combine every group of linked cells")


def _times(a: list[int], b: list[int], budget: int, spent: list[int]) -> list[int]:
    """The product of two polynomials (counts by mines), each of its len(a) * len(b) products a step."""
    _charge(len(a) * len(b), budget, spent)
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _local_count(board: Board, tallies) -> BruteCount:
    probs: dict[int, Fraction | None] = {c: None for c in board.covered}
    layouts = 1
    for cells, (by_k, per_cell) in tallies:
        n = sum(by_k)
        layouts *= n
        for c in cells:
            probs[c] = Fraction(sum(per_cell[c]), n)
    return BruteCount(True, layouts, tuple(sorted(probs.items())))


def _global_count(board: Board, tallies, rest: list[int], remaining: int, budget: int,
                  spent: list[int]) -> BruteCount:
    """Weigh each way to split the remaining mines between the groups and the untouched cells by counting."""
    everything = [1]
    for _, (by_k, _) in tallies:
        everything = _times(everything, by_k, budget, spent)
    tail = [comb(len(rest), remaining - t) if 0 <= remaining - t <= len(rest) else 0
            for t in range(len(everything) + 1)]  # ways to put the mines the frontier leaves off it
    layouts = sum(n * tail[k] for k, n in enumerate(everything))
    if layouts == 0:
        return BruteCount(False, 0, ())
    probs: dict[int, Fraction | None] = {}
    for g, (cells, (by_k, per_cell)) in enumerate(tallies):
        others = [1]
        for h, (_, (other_k, _)) in enumerate(tallies):
            if h != g:
                others = _times(others, other_k, budget, spent)
        _charge(len(by_k) * len(others), budget, spent)
        weight = [sum(n * tail[k + j] for j, n in enumerate(others)) for k in range(len(by_k))]
        for c in cells:
            probs[c] = Fraction(sum(m * w for m, w in zip(per_cell[c], weight)), layouts)
    rest_mines = sum(n * comb(len(rest) - 1, remaining - k - 1) for k, n in enumerate(everything)
                     if 0 <= remaining - k - 1 <= len(rest) - 1) if rest else 0
    for c in rest:
        probs[c] = Fraction(rest_mines, layouts)
    return BruteCount(True, layouts, tuple(sorted(probs.items())))
