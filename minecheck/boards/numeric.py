"""Boards aimed at the edges where a solver's arithmetic breaks (issue 27): the ``numeric`` generator.

Real engines count in doubles or in 32 or 64 bits, compare a float probability with a threshold, print a
few decimals and estimate past a component size.  Each board here is built so that the exact counter's
answer lands on one such edge (``EDGES``: its key, and the words a finding's page shows):

* probabilities within 1/10, 1/1000 and 1/10**6 of 0 and of 1 without being 0 or 1, and one off 1/2 in
  the 7th decimal: a *gadget* (a covered cell ``a`` whose four orthogonal neighbours are digits, each
  digit's other covered neighbours an *arm* of 1 to 3 cells, everything else around the digits flagged)
  beside ``off`` covered cells off the frontier.  Either ``a`` is a mine (one mine, arms safe) or each arm
  holds one mine (``j`` mines, ``M`` = the product of the arm sizes ways): in the global mode with ``r``
  mines left, P(a safe) = M C(off, r - j) / (C(off, r - 1) + M C(off, r - j)), which ``r`` and ``off``
  aim anywhere from 1e-300 to 1/2;
* layout counts just below and just above 2**31, 2**32, 2**53, 2**63, 2**64 and 1e308 (the same
  gadget: its count is C(off, r - 1) + M C(off, r - j), aimed by bisection on ``r``);
* more than 1,030 covered cells off the frontier (their binomials pass the double range), cheaply;
* no mine left (every covered cell safe) and every covered cell a mine;
* one component of exactly 31, 32, 33, 63, 64 or 65 cells (bit-mask widths): a covered row over a row
  of digits;
* ``wide``: all at once, for the default mix: past 1,000 columns, a gadget at the left end with a cell
  below 1e-4 (and one above 1 - 1e-4), a component of 33 to 65 cells at the right end, and about 5,000
  covered cells off the frontier, so that the count passes 1e308.

The formulas only aim: every board is checked with the exact counter before it is kept (``lands``), and a
draw that misses its edge is made again from the recipe's next seeded stream.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

from minecheck.boards.recipe import Recipe, rng_for
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import Count, count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.errors import BadOption
from minecheck.model.position import Position, render

ATTEMPTS = 40  # draws tried before a recipe is given up (every edge lands within a few)
DOUBLE_MAX = 2**1024  # past the largest double (about 1.8e308), as an exact int
FAR_OFF = 1030  # covered cells off the frontier: C(1030, 515) is past the double range

NEAR = {"near-0.1": Fraction(1, 10), "near-0.001": Fraction(1, 1000), "near-1e-06": Fraction(1, 10**6)}
BOUNDS = {"2**31": 2**31, "2**32": 2**32, "2**53": 2**53, "2**63": 2**63, "2**64": 2**64, "1e308": 10**308}
COMPONENT_SIZES = (31, 32, 33, 63, 64, 65)
HALF = "half-7th-decimal"
OFF_FRONTIER, NO_MINE_LEFT, ALL_MINES, WIDE = "off-frontier-1030", "no-mine-left", "all-covered-mines", "wide"

EDGES: dict[str, str] = {
    **{key: f"a probability within {eps} of 0 and one within {eps} of 1 (neither 0 nor 1)"
       for key, eps in NEAR.items()},
    HALF: "a probability off 1/2 in the 7th decimal",
    **{f"{side}-{name}": f"a layout count just {side} {name}" for name in BOUNDS for side in ("below", "above")},
    OFF_FRONTIER: f"more than {FAR_OFF} covered cells off the frontier (binomials past 1e308)",
    NO_MINE_LEFT: "no mine left: every covered cell is safe",
    ALL_MINES: "every covered cell is a mine",
    **{f"component-{n}": f"one component of exactly {n} cells" for n in COMPONENT_SIZES},
    WIDE: "past 1000 columns: a probability below 1e-4, a component past 32 cells, a count past 1e308",
}
EDGE_KEYS = tuple(EDGES)


def numeric(rec: Recipe, edge: str = "") -> Position:
    """The generator: a board on the named edge (``EDGE_KEYS``); without ``edge`` the seed picks one."""
    edge = numeric_edge(rec) if not edge else edge
    if edge not in EDGES:
        raise BadOption(f"unknown numeric edge {edge!r}; known: {', '.join(EDGE_KEYS)}")
    build = builder(edge)
    for attempt in range(ATTEMPTS):
        pos = build(rng_for(rec, f"numeric {attempt}"))
        if pos is not None and lands(edge, render(pos)):
            return pos
    raise ValueError(f"no board on the edge {edge!r} in {ATTEMPTS} draws for {rec.describe()}")


def numeric_edge(rec: Recipe) -> str:
    """The edge a numeric recipe aims at: its ``edge`` parameter, or the one its seed picks."""
    return str(dict(rec.params).get("edge") or EDGE_KEYS[rng_for(rec).randrange(len(EDGE_KEYS))])


# -- the gadget: one cell whose being safe costs extra mines -------------------------------------------

GADGET = 5  # the gadget's block: 5 x 5 cells at the top-left corner (a at row 2, column 2)
_DIGITS = ((1, 2), (2, 1), (2, 3), (3, 2))  # up, left, right, down
_ARMS = (((0, 2), (0, 1), (0, 3)), ((2, 0), (1, 0), (3, 0)), ((2, 4), (1, 4), (3, 4)), ((4, 2), (4, 1), (4, 3)))
_DIAGONALS = ((1, 1), (1, 3), (3, 1), (3, 3))


def rare_weights(arms: tuple[int, ...], off: int, left: int) -> tuple[int, int]:
    """(layouts with ``a`` a mine, layouts with ``a`` safe) of a gadget with these arm sizes beside ``off``
    cells off the frontier, ``left`` mines left: what the builders aim with (the counter then checks)."""
    j = len(arms)
    ways = math.prod(arms)
    mine = math.comb(off, left - 1) if left >= 1 else 0
    safe = ways * math.comb(off, left - j) if left >= j else 0
    return mine, safe


def gadget(width: int, height: int, arms: tuple[int, ...], off: int | None, left: int, rng: random.Random,
           opened: frozenset[int] = frozenset(), mines: frozenset[int] = frozenset(),
           flagged: frozenset[int] = frozenset()) -> Position | None:
    """A ``width`` x ``height`` position with the gadget in its top-left corner (``arms``: the sizes of its
    1 to 4 arms), exactly ``off`` covered cells off the frontier (the rest flagged; None: all of them) and
    ``left`` mines left; ``opened``, ``mines`` and ``flagged``: what another part of the board holds.  None
    when the board has too few cells for ``off``."""
    at = lambda r, c: r * width + c  # noqa: E731
    a = at(2, 2)
    flags, digits = {at(*rc) for rc in _DIAGONALS}, set()
    for k, (digit, arm) in enumerate(zip(_DIGITS, _ARMS)):
        if k < len(arms):
            digits.add(at(*digit))
            flags |= {at(*rc) for rc in arm[arms[k]:]}
        else:
            flags.add(at(*digit))
    gadget_opened = frozenset(digits) | opened
    flags |= flagged
    base = Position(width, height, frozenset(flags | {a}) | mines, gadget_opened, frozenset(flags))
    offs = list(build_constraints(render(base)).off_frontier)
    off = len(offs) if off is None else off
    if len(offs) < off or left - 1 > off:
        return None
    filler = set(offs[off:])  # the surplus off-frontier cells, flagged: they hold no choice
    chosen = frozenset(rng.sample(offs[:off], left - 1))
    every_flag = frozenset(flags | filler)
    return Position(width, height, every_flag | {a} | chosen | mines, gadget_opened, every_flag)


def _arms(rng: random.Random, count: int, most: int = 3) -> tuple[int, ...]:
    return tuple(rng.randint(1, most) for _ in range(count))


def _shape_for(rng: random.Random, cells: int, height: tuple[int, int] = (5, 9)) -> tuple[int, int]:
    """A width and height (at least the gadget's) with room for ``cells`` more cells than the gadget's."""
    h = rng.randint(*height)
    return max(GADGET, math.ceil((cells + GADGET * GADGET) / h) + 1), h


def _bisect(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The largest n in [low, high] with holds(n), holds monotone (true, then false); low - 1 if none."""
    if not holds(low):
        return low - 1
    while low < high:
        mid = (low + high + 1) // 2
        if holds(mid):
            low = mid
        else:
            high = mid - 1
    return low


def near(rng: random.Random, eps: Fraction) -> Position | None:
    """P(a safe) in (eps/10, eps/2]: a cell within eps of 1 and arm cells within eps of 0."""
    arms = _arms(rng, rng.randint(2, 4) if eps > Fraction(1, 100) else 4, 2 if eps < Fraction(1, 10**4) else 3)
    need = 2 * math.prod(arms) / eps  # C(off, j - 1) past it: the fewest mines left reach eps / 2
    off = next(n for n in range(len(arms), 10**5) if math.comb(n, len(arms) - 1) >= need * 4)
    off = rng.randint(off, 2 * off)

    def small(left: int) -> bool:
        mine, safe = rare_weights(arms, off, left)
        return Fraction(safe, mine + safe) <= eps / 2

    left = _bisect(len(arms), off // 2, small)
    return gadget(*_shape_for(rng, off), arms, off, left, rng) if left >= len(arms) else None


def half(rng: random.Random) -> Position | None:
    """P(a mine) off 1/2 by 1e-7 to 1e-6: off and the mines left searched until the gadget's weights are that
    close (the nearest mines left, for each off, by bisection; about one off in ten lands)."""
    arms = _arms(rng, rng.choice((3, 4)))
    start = rng.randint(100, 900)
    for off in range(start, start + 2000):
        even = _bisect(len(arms), off // 2 + len(arms), lambda n, off=off: _ratio(arms, off, n) <= 1)
        for left in (even, even + 1):
            if left >= len(arms) and Fraction(1, 10**7) <= abs(_half_gap(arms, off, left)) < Fraction(1, 10**6):
                return gadget(*_shape_for(rng, off), arms, off, left, rng)
    return None


def _ratio(arms: tuple[int, ...], off: int, left: int) -> Fraction:
    mine, safe = rare_weights(arms, off, left)
    return Fraction(safe, mine) if mine else Fraction(10**9)


def _half_gap(arms: tuple[int, ...], off: int, left: int) -> Fraction:
    mine, safe = rare_weights(arms, off, left)
    return Fraction(mine, mine + safe) - Fraction(1, 2)


def near_bound(rng: random.Random, bound: int, above: bool) -> Position | None:
    """A layout count in (bound, 4 bound] (above) or [bound / 4, bound) (below): ``off`` sized so that the
    most layouts pass 16 bound, the mines left the first (last) to pass (stay under) the bound."""
    arms = _arms(rng, rng.randint(1, 4))
    off = next(n for n in range(8, 10**5) if math.comb(n, n // 2) >= 16 * bound)
    off += rng.randint(0, 6)

    def under(left: int) -> bool:
        return sum(rare_weights(arms, off, left)) < bound

    left = _bisect(len(arms), off // 2, under) + (1 if above else 0)
    if left < len(arms):
        return None
    return gadget(*_shape_for(rng, off), arms, off, left, rng)


def far_off(rng: random.Random) -> Position | None:
    """More than FAR_OFF covered cells off the frontier, nearly half of them mines (a count past 1e308)."""
    arms = _arms(rng, rng.randint(1, 4))
    off = rng.randint(FAR_OFF + 30, FAR_OFF + 230)
    return gadget(*_shape_for(rng, off, (5, 40)), arms, off, rng.randint(off * 9 // 20, off // 2), rng)


# -- the other edges ----------------------------------------------------------------------------------

def no_mine_left(rng: random.Random) -> Position:
    """Every mine flagged, the total stated: every covered cell is safe (C(n, 0) = 1 however large n is)."""
    width, height = rng.randint(3, 16), rng.randint(2, 16)
    cells = range(width * height)
    mines = frozenset(rng.sample(cells, max(1, int(rng.uniform(0.05, 0.3) * len(cells)))))
    opened = frozenset(c for c in cells if c not in mines and rng.random() < rng.uniform(0.05, 0.6))
    return Position(width, height, mines, opened, mines)


def all_mines(rng: random.Random) -> Position:
    """Every safe cell opened, the total stated: every covered cell is a mine (C(n, n) = 1).  At most 16 x 16:
    an ILP solver works through every covered cell one by one (32 x 36 took ilp@fixed 400 s)."""
    width, height = rng.randint(3, 16), rng.randint(2, 16)
    cells = range(width * height)
    mines = frozenset(rng.sample(cells, max(1, int(rng.uniform(0.2, 0.7) * len(cells)))))
    flags = frozenset(c for c in sorted(mines) if rng.random() < rng.uniform(0.0, 0.5))
    return Position(width, height, mines, frozenset(cells) - mines, flags)


def strip(width: int, start: int, length: int, row: int, digit_row: int, rng: random.Random,
          density: float) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """(mines, opened, flags) of a component of exactly ``length`` covered cells in ``row`` from column
    ``start``, beside a row of digits in ``digit_row``: a digit under every other cell, a flag between them
    (so that each digit sees three cells of the strip and the layouts are many), the cell before the strip
    flagged."""
    cells = [row * width + c for c in range(start, start + length)]
    mines = frozenset(c for c in cells if rng.random() < density)
    beside = range(start + 1, start + length)
    opened = frozenset(digit_row * width + c for c in beside if (c - start) % 2)
    flags = frozenset(digit_row * width + c for c in (*beside, start - 1, start)
                      if 0 <= c < width and not (start < c and (c - start) % 2))
    return mines | flags, opened, flags


def component(rng: random.Random, size: int) -> Position:
    """One component of exactly ``size`` cells: a covered row over a row of digits and flags (a third row,
    if any, flagged, so that the digits see nothing else)."""
    height = rng.choice((2, 3))
    mines, opened, flags = strip(size, 0, size, 0, 1, rng, rng.uniform(0.15, 0.6))
    below = frozenset(range(2 * size, 3 * size)) if height == 3 else frozenset()
    return Position(size, height, mines | below, opened, flags | below, rng.random() < 0.7)


def wide(rng: random.Random) -> Position | None:
    """The default mix's numeric board: past 1000 columns, a gadget at the left end (a cell below 1e-4), a
    component of 33 to 65 cells at the right end, about 5,000 covered cells off the frontier and mines left
    for a count past 1e308."""
    width, height, size = rng.randint(1010, 1040), 5, rng.randint(33, 65)
    arms = (1, 1, 1, 1)
    mines, opened, flags = strip(width, width - size, size, 1, 0, rng, rng.uniform(0.2, 0.5))
    base = gadget(width, height, arms, None, 1, rng, opened, mines, flags)
    if base is None:
        return None
    off = len(build_constraints(render(base)).off_frontier)
    left = _bisect(4, off // 2, lambda n: _small_enough(arms, off, n))
    return gadget(width, height, arms, off, left, rng, opened, mines, flags)


def _small_enough(arms: tuple[int, ...], off: int, left: int) -> bool:
    mine, safe = rare_weights(arms, off, left)
    return Fraction(safe, mine + safe) <= Fraction(1, 2 * 10**4)


def builder(edge: str) -> Callable[[random.Random], Position | None]:
    """The function that draws a board for an edge."""
    if edge in NEAR:
        return lambda rng: near(rng, NEAR[edge])
    if edge.startswith(("below-", "above-")):
        side, _, name = edge.partition("-")
        return lambda rng: near_bound(rng, BOUNDS[name], side == "above")
    if edge.startswith("component-"):
        return lambda rng: component(rng, int(edge.partition("-")[2]))
    return {HALF: half, OFF_FRONTIER: far_off, NO_MINE_LEFT: no_mine_left, ALL_MINES: all_mines, WIDE: wide}[edge]


# -- whether a board is on its edge --------------------------------------------------------------------

def lands(edge: str, board: Board) -> bool:
    """Whether the exact counter puts the board on the edge (every board ``numeric`` returns does)."""
    count = count_board(board, Mode.GLOBAL if board.total_mines is not None else Mode.LOCAL)
    if not count.consistent:
        return False
    return HOLDS[_family(edge)](edge, board, count)


def _family(edge: str) -> str:
    for prefix in ("near-", "below-", "above-", "component-"):
        if edge.startswith(prefix):
            return prefix
    return edge


def probabilities(count: Count) -> list[Fraction]:
    return [p for _, p in count.probabilities if p is not None]


def _near(edge: str, board: Board, count: Count) -> bool:
    eps, ps = NEAR[edge], probabilities(count)
    return any(0 < p <= eps for p in ps) and any(1 - eps <= p < 1 for p in ps)


def _bound(edge: str, board: Board, count: Count) -> bool:
    side, _, name = edge.partition("-")
    bound = BOUNDS[name]
    return bound < count.layouts <= 4 * bound if side == "above" else bound <= 4 * count.layouts < 4 * bound


def _half(edge: str, board: Board, count: Count) -> bool:
    return any(Fraction(1, 10**7) <= abs(p - Fraction(1, 2)) < Fraction(1, 10**6) for p in probabilities(count))


def _component(edge: str, board: Board, count: Count) -> bool:
    return any(len(c.cells) == int(edge.partition("-")[2]) for c in build_constraints(board).components)


def _wide(edge: str, board: Board, count: Count) -> bool:
    sizes = [len(c.cells) for c in build_constraints(board).components]
    return (board.width > 1000 and count.layouts > DOUBLE_MAX and max(sizes) > 32
            and any(0 < p < Fraction(1, 10**4) for p in probabilities(count)))


HOLDS: dict[str, Callable[[str, Board, Count], bool]] = {
    "near-": _near,
    "below-": _bound,
    "above-": _bound,
    "component-": _component,
    HALF: _half,
    OFF_FRONTIER: lambda edge, board, count: (len(build_constraints(board).off_frontier) > FAR_OFF
                                              and count.layouts > DOUBLE_MAX),
    NO_MINE_LEFT: lambda edge, board, count: (board.total_mines == len(board.flags) and bool(board.covered)),
    ALL_MINES: lambda edge, board, count: (board.total_mines is not None and bool(board.covered)
                                           and board.total_mines - len(board.flags) == len(board.covered)),
    WIDE: _wide,
}
