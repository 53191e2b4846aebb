"""The exact counter: the number of consistent layouts and exact mine probabilities.

This is minecheck's ground truth.  It never enumerates layouts one by one: each component is
counted by mine count with a sweep over its boxes (``minecheck.engine.sweep``), and the components
are then combined.  In the local mode each one is uniform over its own layouts; in the global
mode a frontier total K is weighted by C(off-frontier cells, remaining - K).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from math import comb
from operator import mul

from minecheck.engine.constraints import Component, ConstraintSystem, Contradiction
from minecheck.engine.scan import read_constraints
from minecheck.engine.sweep import ComponentCount, count_component, pack, slot_for, unpack
from minecheck.model.answers import Mode
from minecheck.model.board import Board, label

__all__ = ["Count", "ComponentCount", "count_board", "count_system", "count_component", "default_mode"]


@dataclass(frozen=True)
class Count:
    """The counter's answer for a board in one mode."""

    mode: Mode
    consistent: bool
    reason: str | None
    layouts: int
    components: tuple[ComponentCount, ...]
    probabilities: tuple[tuple[int, Fraction | None], ...]  # every covered cell; None: no verdict (local, off-frontier)


def default_mode(board: Board) -> Mode:
    return Mode.GLOBAL if board.total_mines is not None else Mode.LOCAL


def count_board(board: Board, mode: Mode | str | None = None) -> Count:
    """Count a board; an impossible board is a Count with consistent=False and a reason.  ``mode``: a Mode,
    or its name as a protocol function is given it ("local", "global")."""
    mode = Mode(mode) if mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    try:
        system = read_constraints(board)
    except Contradiction as err:
        return Count(mode, False, str(err), 0, (), ())
    return count_system(system, mode)


def count_system(system: ConstraintSystem, mode: Mode) -> Count:
    counts = tuple(count_component(c) for c in system.components)
    board = system.board
    for cc in counts:
        if cc.layouts == 0:
            return Count(mode, False, _no_layout_reason(board, cc.component), 0, counts, ())
    if mode is Mode.LOCAL:
        return _local(system, counts)
    return _global(system, counts)


def _local(system: ConstraintSystem, counts: tuple[ComponentCount, ...]) -> Count:
    probs: dict[int, Fraction] = {}
    layouts = 1
    for cc in counts:
        total = cc.layouts
        layouts *= total
        seen: dict[tuple[int, ...], Fraction] = {}  # the cells of a box share their counts
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            p = seen.get(per_k)
            if p is None:
                p = seen[per_k] = Fraction(sum(per_k), total)
            probs[cell] = p
    return Count(Mode.LOCAL, True, None, layouts, counts, _every_covered_cell(system, probs, None))


def _global(system: ConstraintSystem, counts: tuple[ComponentCount, ...]) -> Count:
    off, remaining = len(system.off_frontier), system.mines_remaining
    assert remaining is not None
    polys = [cc.by_mines for cc in counts]
    weights = _weights(polys, off, remaining)
    layouts = _dot(polys[0], weights[0]) if polys else comb(off, remaining) if remaining >= 0 else 0
    if layouts == 0:
        low = sum(_lowest(p) for p in polys)
        high = sum(_highest(p) for p in polys)
        reason = (f"no layout holds exactly {remaining} remaining mines: the frontier holds {low} to "
                  f"{high} and {off} covered cells lie off the frontier")
        return Count(Mode.GLOBAL, False, reason, 0, counts, ())

    probs: dict[int, Fraction] = {}
    frontier_mines = 0  # summed over layouts: the mines on the frontier
    for cc, weight in zip(counts, weights):
        seen: dict[tuple[int, ...], tuple[int, Fraction]] = {}  # the cells of a box share their counts
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            known = seen.get(per_k)
            if known is None:
                mines = _dot(per_k, weight)
                known = seen[per_k] = mines, Fraction(mines, layouts)
            frontier_mines += known[0]
            probs[cell] = known[1]
    # the off-frontier cells are alike: together they hold the remaining mines the frontier does not
    p_off = Fraction((remaining * layouts - frontier_mines) // off, layouts) if off else None
    return Count(Mode.GLOBAL, True, None, layouts, counts, _every_covered_cell(system, probs, p_off))


def _every_covered_cell(system: ConstraintSystem, frontier: dict[int, Fraction],
                        off: Fraction | None) -> tuple[tuple[int, Fraction | None], ...]:
    """(cell, probability) for every covered cell in order; the off-frontier cells all get ``off``."""
    cells = sorted(system.frontier + system.off_frontier)  # two sorted runs: a merge
    return tuple(zip(cells, map(frontier.get, cells, repeat(off))))


def _weights(polys: list[tuple[int, ...]], off: int, remaining: int) -> list[list[int]]:
    """Per component and its mine count k: the layouts of everything else that bring k to the total.

    That is sum_j others[j] * C(off, remaining - k - j), ``others`` being the product of the other
    components' polynomials: a correlation with the off-frontier tail, done as big-integer products
    of packed polynomials (the product of the components before i, times the tail correlated with
    the components after i, which is kept backwards so that the correlation is a product too).
    Only frontier totals up to ``remaining`` have layouts, so every polynomial is cut there.
    (A weight list may be shorter than its polynomial: the missing weights are 0.)
    """
    cells = sum(len(p) - 1 for p in polys)
    top = min(cells, remaining)  # the most mines the frontier can hold
    tail = [comb(off, remaining - m) for m in range(top + 1)]
    if len(polys) == 1 or top < 0:  # (more flags than mines: no layout at all)
        return [tail] * len(polys)
    # every coefficient below counts layouts of at most cells + off cells with at most `remaining` mines
    slot = slot_for(comb(cells + off, min(remaining, (cells + off) // 2)).bit_length() + 1)
    keep = (1 << (slot * (top + 1))) - 1  # the coefficients of degree 0 to top
    packed = [pack(p[:top + 1], slot) for p in polys]
    # after[i]: coefficient top - m is sum_j (product of components after i)[j] * tail[m + j]
    after = [pack(tail[::-1], slot)]
    for p in reversed(packed[1:]):
        after.append((p * after[-1]) & keep)
    after.reverse()
    out, before = [], 1
    for p, poly, later in zip(packed, polys, after):
        width = min(len(poly) - 1, top)
        out.append(unpack(((before * later) & keep) >> (slot * (top - width)), slot, width + 1)[::-1])
        before = (before * p) & keep
    return out


def _dot(a: tuple[int, ...], b: list[int]) -> int:
    return sum(map(mul, a, b))


def _no_layout_reason(board: Board, comp: Component) -> str:
    digits = ", ".join(label(board, eq.source) for eq in comp.equations[:6])
    more = "" if len(comp.equations) <= 6 else f" and {len(comp.equations) - 6} more"
    return (f"no layout of {len(comp.cells)} covered cells satisfies the digits at {digits}{more} together")


def _lowest(poly: tuple[int, ...]) -> int:
    return next(k for k, n in enumerate(poly) if n)


def _highest(poly: tuple[int, ...]) -> int:
    return max(k for k, n in enumerate(poly) if n)
