"""The count and probabilities a count certificate proves, recomputed from its lists: exact big integers.

A component's layouts are the sum, over the solutions of its box system (mines per box), of the product of
the binomials C(size, mines) of its boxes: the ways to lay that many mines on a box's interchangeable cells.
In the local mode the board's count is the product of its components'; in the global mode, with N_i(m) the
layouts of component i with m mines, ``off`` the covered cells no digit touches and ``remaining`` the total less
the flags, the sum over m_1..m_k of N_1(m_1)...N_k(m_k) C(off, remaining - m_1 - ... - m_k).  A cell's
probability is the same sum over the layouts with it a mine, over the count: C(size - 1, mines - 1) of its box's
ways have it a mine.  Reads the board's cells here, not through ``minecheck.certify.rules``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, prod

from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board

Boxes = tuple[tuple[int, ...], ...]
Solutions = tuple[tuple[int, ...], ...]


def layouts_of(boxes: Boxes, solutions: Solutions) -> int:
    """A component's layouts: per solution, the product of C(size, mines) over its boxes."""
    return sum(prod(comb(len(b), k) for b, k in zip(boxes, s)) for s in solutions)


def histograms(boxes: Boxes, solutions: Solutions) -> tuple[list[int], list[list[int]]]:
    """The component's layouts with 0, 1, 2 ... mines, and per box those with one chosen cell of it a mine
    (C(s - 1, k - 1) = C(s, k) k / s of a box's ways)."""
    out = [0] * (sum(len(b) for b in boxes) + 1)
    mined = [[0] * len(out) for _ in boxes]
    for s in solutions:
        ways, m = prod(comb(len(b), k) for b, k in zip(boxes, s)), sum(s)
        out[m] += ways
        for i, (b, k) in enumerate(zip(boxes, s)):
            if k:
                mined[i][m] += ways * k // len(b)
    return out, mined


def tally(board: Board, mode: Mode, components: tuple) -> tuple[int, dict[int, Fraction]]:
    """The number of layouts of the board and each covered cell's mine probability, from every component's boxes
    and listed solutions (``components``: objects with ``boxes`` and ``solutions``)."""
    near: set[int] = set()
    for d in (i for i, v in enumerate(board.cells) if v >= 0):
        row, col = divmod(d, board.width)
        around = [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                  if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]
        if not any(board.cells[n] == COVERED for n in around) and sum(board.cells[n] == FLAG for n in around) != \
                board.cells[d]:
            return 0, {}  # a digit with every neighbour known, and not its number of flags
        near.update(n for n in around if board.cells[n] == COVERED)
    made = [histograms(comp.boxes, comp.solutions) for comp in components]
    if mode is Mode.LOCAL:
        total = prod(sum(h) for h, _ in made)
        if not total:
            return 0, {}
        return total, {c: Fraction(sum(m), sum(h)) for comp, (h, mined) in zip(components, made)
                       for box, m in zip(comp.boxes, mined) for c in box}
    off = sum(1 for c in range(board.size) if board.cells[c] == COVERED and c not in near)
    remaining = board.total_mines - sum(v == FLAG for v in board.cells)
    hists = [h for h, _ in made]
    top = sum(len(h) - 1 for h in hists)
    tail = [comb(off, remaining - s) if 0 <= remaining - s <= off else 0 for s in range(top + 1)]
    everything = product(hists)
    total = sum(n * t for n, t in zip(everything, tail))
    if not total:
        return 0, {}
    frontier_mines = sum(s * n * t for s, (n, t) in enumerate(zip(everything, tail)))
    probs = {c: Fraction(remaining * total - frontier_mines, total * off) for c in range(board.size)
             if board.cells[c] == COVERED and c not in near}
    before, after = [[1]], [[1]]  # the products of the components before and after each: two per component
    for h in hists:
        before.append(product([before[-1], h]))
    for h in reversed(hists):
        after.append(product([h, after[-1]]))
    after.reverse()
    for j, (comp, (_, mined)) in enumerate(zip(components, made)):
        others = product([before[j], after[j + 1]])
        weight = [sum(n * tail[k + t] for t, n in enumerate(others)) for k in range(len(hists[j]))]
        for box, m in zip(comp.boxes, mined):
            share = Fraction(sum(a * w for a, w in zip(m, weight)), total)
            probs.update((c, share) for c in box)
    return total, probs


def product(polys: list[list[int]]) -> list[int]:
    """The product of polynomials given by their coefficients (a convolution of histograms; the second counter,
    ganak, combines its groups with it too)."""
    out = [1]
    for p in polys:
        nxt = [0] * (len(out) + len(p) - 1)
        for i, a in enumerate(out):
            if a:
                for j, b in enumerate(p):
                    nxt[i + j] += a * b
        out = nxt
    return out
