"""The exact counter: the number of consistent layouts and exact mine probabilities.

This is minecheck's ground truth.  It never enumerates layouts one by one: each component is
counted by mine count with a sweep over its boxes (``minecheck.engine.sweep``), and the components
are then combined.  In the local mode each one is uniform over its own layouts; in the global
mode a frontier total K is weighted by C(off-frontier cells, remaining - K).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import mul

from minecheck.engine.constraints import Component, ConstraintSystem, Contradiction
from minecheck.engine.scan import equations_of, read_board, read_constraints, system_of
from minecheck.engine.sweep import ComponentCount, count_component
from minecheck.engine.weights import Weighting, weigh
from minecheck.model.answers import Mode
from minecheck.model.board import Board, label

LARGE = 10_000  # cells: counting a board this big pauses the cycle collector
Weighed = tuple[ConstraintSystem, tuple[ComponentCount, ...], Weighting]

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
    if not isinstance(mode, Mode):  # (Mode(Mode.GLOBAL) would cost a microsecond of Enum machinery)
        mode = Mode(mode) if mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    if board.size > LARGE:  # (a small board's count does without the context manager's microseconds)
        with _no_cycle_collection():
            return _count(board, mode)
    return _count(board, mode)


def _count(board: Board, mode: Mode) -> Count:
    try:
        system = read_constraints(board)
    except Contradiction as err:
        return Count(mode, False, str(err), 0, (), ())
    return count_system(system, mode)


@contextmanager
def _no_cycle_collection():
    """Python's cycle collector paused while a large board is counted: the count makes millions of objects
    and no cycle, and each collection walks all of them (40% of a 1000x1000 board's time)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def count_system(system: ConstraintSystem, mode: Mode) -> Count:
    counted = _counted(system)
    counts = counted[1]
    for cc in counts:
        if cc.layouts == 0:
            return Count(mode, False, _no_layout_reason(system.board, cc.component), 0, counts, ())
    if mode is Mode.LOCAL:
        return _local(system, counts)
    weighed = _weighed(counted)
    if weighed[2].layouts == 0:
        return _no_total(*weighed)
    return _global(weighed)


def _counted(system: ConstraintSystem) -> tuple[ConstraintSystem, tuple[ComponentCount, ...]]:
    return system, tuple(count_component(c) for c in system.components)


def _weighed(counted: tuple[ConstraintSystem, tuple[ComponentCount, ...]]) -> Weighed:
    system, counts = counted
    assert system.mines_remaining is not None
    return system, counts, weigh([cc.by_mines for cc in counts], len(system.off_frontier), system.mines_remaining)


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


def _no_total(system: ConstraintSystem, counts: tuple[ComponentCount, ...], weighting: Weighting) -> Count:
    """The global mode's answer when no layout holds the total."""
    off, remaining = len(system.off_frontier), system.mines_remaining
    polys = [cc.by_mines for cc in counts]
    low = sum(_lowest(p) for p in polys)
    high = sum(_highest(p) for p in polys)
    reason = (f"no layout holds exactly {remaining} remaining mines: the frontier holds {low} to "
              f"{high} and {off} covered cells lie off the frontier")
    return Count(Mode.GLOBAL, False, reason, 0, counts, ())


def _global(weighed: Weighed) -> Count:
    system, counts, weighting = weighed
    off, remaining = len(system.off_frontier), system.mines_remaining
    assert remaining is not None
    probs: dict[int, Fraction] = {}
    loose_mines = 0  # summed over the loose components' cells: their mines, in units of the loose norm
    for cc, low, weight, norm, tight in zip(counts, weighting.low, weighting.weights, weighting.norms,
                                            weighting.tight):
        seen: dict[tuple[int, ...], tuple[int, Fraction]] = {}  # the cells of a box share their counts
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            known = seen.get(per_k)
            if known is None:
                mines = _dot(per_k[low:low + len(weight)], weight)
                known = seen[per_k] = mines, Fraction(mines, norm)
            if not tight:
                loose_mines += known[0]
            probs[cell] = known[1]
    # the off-frontier cells are alike: together they hold the remaining mines the frontier does not
    rest = weighting.loose
    p_off = Fraction((remaining - weighting.tight_mines) * rest - loose_mines, off * rest) if off else None
    return Count(Mode.GLOBAL, True, None, weighting.layouts, counts, _every_covered_cell(system, probs, p_off))


# A call on a consistent board in the global mode, stage by stage, each fed what the stage before gave
# (bench/toollib.py --stages times them): what ``count_board(board, Mode.GLOBAL)`` does.
STAGES = (
    ("read the board", read_board),
    ("build the equations", equations_of),
    ("split into components", system_of),
    ("count each component", _counted),
    ("weigh the components", _weighed),
    ("build the answer", _global),
)


def _every_covered_cell(system: ConstraintSystem, frontier: dict[int, Fraction],
                        off: Fraction | None) -> tuple[tuple[int, Fraction | None], ...]:
    """(cell, probability) for every covered cell in order; the off-frontier cells all get ``off``."""
    cells = sorted(system.frontier + system.off_frontier)  # two sorted runs: a merge
    return tuple(zip(cells, map(frontier.get, cells, repeat(off))))


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
