"""Every small board once, in a fixed order: the sweep behind ``--generator small:N``.

The small-scope hypothesis: most defects show on some small board, so check every board of at
most N cells rather than a random few.  The sweep holds, for every shape of 1 to N cells:

* every consistent board: each placement of mines, each choice of which safe cells are open and
  which mines flagged, with the total not stated and stated (each total some layout has);
* beside them the impossible boards made from those by one change: an open digit one above or one
  below (the changed board has no layout; ``with no covered neighbour`` when the digit has none
  left), a flag put on a covered cell the digits forbid, and, for a board whose digits fit, a total
  one below the fewest or one above the most mines a layout has.  A digit or flag contradiction keeps
  the source's total, stated or not.

Deduplication.  A board is what the player sees (its cells and its total, stated or not): solvers
are given nothing else, so two hidden truths behind the same visible board are one check, and the
sweep keeps the board once.  A consistent board keeps, as its truth, the layout that renders to it
whose mines, read as a binary number with cell i worth 2**i, are the smallest; impossible boards
have none (like ``contradict``'s).  Boards are the same up to their turns and mirror images: a shape
is kept wider than tall (a one-wide board is a row, ``Kx1``; its column ``1xK`` is its turn), and a
board only when its cells are the smallest (as a tuple of ints) of its 4 images, 8 on a square.
Totals that no layout has but that lie inside the range of those that do (a gap) would be
contradictions too; none occurs for N <= 9 (measured), so one past each end is every one there is.

Order.  By cell count, then height (Kx1 before the squarer shapes), then the consistent boards
before the impossible ones, then cells and total (no total first), all sorted: board ``index`` of
sweep N is the same on every machine, and the sweep of N starts with the whole sweep of N - 1.

Modes.  A board with a stated total is checked in both modes, without one in the local mode only:
``crosscheck.modes_for`` already decides this for every board of a campaign.

Sizes (consistent / impossible boards, each as total not stated + stated), the time to build a sweep
(once per process, then cached: a board after that takes microseconds), and the time the exact counter
takes over the whole sweep in each board's modes:

  N  consistent        impossible          boards   build    counter
  1  3 + 4             1 + 2                   10   0.0 s
  2  10 + 14           5 + 11                  40   0.0 s
  3  35 + 51           29 + 64                179   0.0 s
  4  144 + 215         176 + 379              914   0.01 s   0.06 s
  5  396 + 645         628 + 1378            3047   0.04 s   0.2 s
  6  1835 + 2936       3966 + 8263          17000   0.25 s   1.3 s
  7  4733 + 8504       11599 + 25957        50793   0.7 s    4.2 s
  8  22139 + 38780     68026 + 145010      273955   5.4 s

At 200 boards/s the sweep of N = 7 is checked in about 4 minutes (N = 8: 23 minutes; N = 9, over a million
boards and hundreds of MiB to hold, is refused).  The default subjects and references, in-process on one
core, check about 18 boards of N = 7 a second (gibbs@fixed and cbc take most of it): N = 7 in 48 minutes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from minecheck.boards.recipe import Recipe
from minecheck.model.board import COVERED, FLAG, Board, neighbours
from minecheck.model.errors import BadOption
from minecheck.model.position import Position

MAX_CELLS = 8  # N = 9 has over a million boards and takes hundreds of MiB to hold

CONSISTENT = "consistent"
DIGIT_ABOVE_ALONE = "digit +1 with no covered neighbour"
DIGIT_BELOW_ALONE = "digit -1 with no covered neighbour"
DIGIT_ABOVE = "digit +1"
DIGIT_BELOW = "digit -1"
FORBIDDEN_FLAG = "flag the digits forbid"
TOTAL_BELOW = "total below range"
TOTAL_ABOVE = "total above range"
# a board that two changes make is named by the first of its kinds here (then by the lowest cell)
KINDS = (CONSISTENT, DIGIT_ABOVE_ALONE, DIGIT_BELOW_ALONE, DIGIT_ABOVE, DIGIT_BELOW, FORBIDDEN_FLAG, TOTAL_BELOW,
         TOTAL_ABOVE)

Cells = tuple[int, ...]


@dataclass(frozen=True)
class SmallBoard:
    """One board of the sweep: what the player sees, the truth behind a consistent one, and what it is."""

    width: int
    height: int
    cells: Cells
    total: int | None
    truth: frozenset[int] | None  # None: an impossible board
    kind: str  # one of KINDS
    label: str  # the kind and where: "digit +1 at r0c1", "total below range (3 stated, 4..6 fit)"

    @property
    def board(self) -> Board:
        return Board(self.width, self.height, self.cells, self.total, self.truth)

    def made(self) -> Position | Board:
        """What a generator returns: the position behind a consistent board, an impossible board itself."""
        if self.truth is None:
            return self.board
        digits = frozenset(i for i, v in enumerate(self.cells) if v >= 0)
        flags = frozenset(i for i, v in enumerate(self.cells) if v == FLAG)
        return Position(self.width, self.height, self.truth, digits, flags, self.total is not None)


# -- shapes and their symmetries ----------------------------------------------------------------

def shapes(n: int) -> tuple[tuple[int, int], ...]:
    """(width, height) of every shape of 1 to n cells, wider than tall, by cell count then height."""
    return tuple((size // height, height) for size in range(1, n + 1) for height in range(1, size + 1)
                 if size % height == 0 and size // height >= height)


@cache
def symmetries(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The cell maps of the turns and mirrors that keep the shape: image[i] = cells[map[i]].

    Four on a rectangle (itself, both mirrors, the half turn), eight on a square (and the transposes).
    """
    flips = [(r, c) for r in (False, True) for c in (False, True)]

    def source(row: int, col: int, flip_rows: bool, flip_cols: bool) -> int:
        return (height - 1 - row if flip_rows else row) * width + (width - 1 - col if flip_cols else col)

    maps = {tuple(source(r, c, fr, fc) for r in range(height) for c in range(width)) for fr, fc in flips}
    if width == height:
        maps |= {tuple(source(c, r, fr, fc) for r in range(height) for c in range(width)) for fr, fc in flips}
    return tuple(sorted(maps))


def canonical(width: int, height: int, cells: Cells) -> Cells:
    """The smallest of the board's images: the one that stands for them all."""
    return min(tuple(cells[i] for i in m) for m in symmetries(width, height))


# -- the consistent boards of a shape -----------------------------------------------------------

@cache
def layouts(width: int, height: int) -> dict[Cells, dict[int, int]]:
    """Every board some position renders to: its cells -> {total mines -> the smallest mine mask}.

    Mine masks go up from 0 and each mask's boards are visited in a fixed order, so the first mask
    seen for a board is its smallest.  A board's cells are here exactly when its digits fit (the local
    mode's consistency), and a total is here exactly when a layout has that many mines.
    """
    size = width * height
    around = [neighbours(width, height, c) for c in range(size)]
    seen: dict[Cells, dict[int, int]] = {}
    for mask in range(1 << size):
        mines = mask.bit_count()
        choices = [(COVERED, FLAG) if mask >> c & 1 else (COVERED, sum(mask >> n & 1 for n in around[c]))
                   for c in range(size)]
        for cells in product(*choices):
            totals = seen.get(cells)
            if totals is None:
                seen[cells] = {mines: mask}
            elif mines not in totals:
                totals[mines] = mask
    return seen


def truth_of(mask: int) -> frozenset[int]:
    return frozenset(c for c in range(mask.bit_length()) if mask >> c & 1)


# -- the impossible boards: one change from a consistent one ------------------------------------

def changes(width: int, height: int, cells: Cells) -> list[tuple[str, int, Cells]]:
    """(kind, cell, changed cells) for each digit one up or down (0 to 8) and each covered cell flagged,
    where the changed board's digits no longer fit."""
    fits = layouts(width, height)
    out = []
    for c, v in enumerate(cells):
        if v == COVERED:
            edits = [(FORBIDDEN_FLAG, FLAG)]
        elif v >= 0:
            if any(cells[n] == COVERED for n in neighbours(width, height, c)):
                edits = [(DIGIT_BELOW, v - 1), (DIGIT_ABOVE, v + 1)]
            else:
                edits = [(DIGIT_BELOW_ALONE, v - 1), (DIGIT_ABOVE_ALONE, v + 1)]
        else:
            continue
        for kind, value in edits:
            if 0 <= value <= 8 or value == FLAG:
                changed = cells[:c] + (value,) + cells[c + 1:]
                if changed not in fits:
                    out.append((kind, c, changed))
    return out


def place(width: int, cell: int) -> str:
    row, col = divmod(cell, width)
    return f"r{row}c{col}"


# -- the sweep ----------------------------------------------------------------------------------

@cache
def shape_sweep(width: int, height: int) -> tuple[SmallBoard, ...]:
    """Every board of one shape, each once up to its symmetries: the consistent ones, then the impossible."""
    fits = layouts(width, height)
    size = width * height
    consistent, impossible = [], {}  # impossible: (cells, total) -> (kind rank, cell or -1, label)

    def offer(cells: Cells, total: int | None, kind: str, cell: int, label: str) -> None:
        key, rank = (cells, total), (KINDS.index(kind), cell)
        if key not in impossible or rank < impossible[key][:2]:
            impossible[key] = (*rank, label)

    for cells in sorted(fits):
        totals = fits[cells]
        stated = sorted(totals)
        if cells == canonical(width, height, cells):
            consistent.append(SmallBoard(width, height, cells, None, truth_of(min(totals.values())), CONSISTENT,
                                         CONSISTENT))
            consistent += [SmallBoard(width, height, cells, t, truth_of(totals[t]), CONSISTENT, CONSISTENT)
                           for t in stated]
            flags, fewest, most = cells.count(FLAG), stated[0], stated[-1]
            fit = f"{fewest}..{most} fit" if fewest < most else f"{fewest} fits"
            if fewest - 1 >= flags:
                offer(cells, fewest - 1, TOTAL_BELOW, -1, f"{TOTAL_BELOW} ({fewest - 1} stated, {fit})")
            if most + 1 <= size:
                offer(cells, most + 1, TOTAL_ABOVE, -1, f"{TOTAL_ABOVE} ({most + 1} stated, {fit})")
        for kind, cell, changed in changes(width, height, cells):
            if changed != canonical(width, height, changed):
                continue  # its smallest image is made from an image of this board
            label = f"{kind} at {place(width, cell)}"
            flags = changed.count(FLAG)
            for total in [None, *stated]:
                if total is None or total >= flags:
                    offer(changed, total, kind, cell, label)
    order = sorted(impossible, key=lambda key: (key[0], -1 if key[1] is None else key[1]))
    return tuple(consistent) + tuple(SmallBoard(width, height, cells, total, None, KINDS[impossible[cells, total][0]],
                                                impossible[cells, total][2]) for cells, total in order)


@cache
def small_sweep(n: int) -> tuple[SmallBoard, ...]:
    """The sweep of every board of at most n cells, smallest first."""
    if not 1 <= n <= MAX_CELLS:
        raise BadOption(f"small:N sweeps boards of 1 to {MAX_CELLS} cells, not {n}")
    return tuple(b for width, height in shapes(n) for b in shape_sweep(width, height))


def small_count(n: int) -> int:
    """How many boards the sweep of n cells holds: a campaign without ``--boards`` checks them all."""
    return len(small_sweep(n))


def small_entry(n: int, index: int) -> SmallBoard:
    """Board ``index`` of the sweep of n cells, with its kind and label."""
    sweep = small_sweep(n)
    if not 0 <= index < len(sweep):
        raise IndexError(f"the small:{n} sweep holds boards 0 to {len(sweep) - 1}, not {index}")
    return sweep[index]


def small_label(n: int, index: int) -> str:
    """What board ``index`` of the sweep is: "consistent", "digit +1 at r0c1", "total above range (...)"."""
    return small_entry(n, index).label


def small_recipe(n: int, index: int) -> Recipe:
    """The recipe of board ``index`` of sweep n: the seed is the index, since (n, index) alone fixes the board."""
    return Recipe("small", (("index", index), ("n", n)), index)


# -- the walk: the sweep's most varied boards first ---------------------------------------------

WALK_CELLS = 5  # the covering prefix is chosen among the boards of at most this many cells


def traits(b: SmallBoard) -> tuple[tuple[str, str], ...]:
    """What a board is, as (trait, value) pairs: its shape, kind, total, flags, digits, covered cells,
    components and mines; the walk covers every pair of these that some board has."""
    w, h, cells = b.width, b.height, b.cells
    flags = frozenset(i for i, v in enumerate(cells) if v == FLAG)
    covered = [i for i, v in enumerate(cells) if v == COVERED]
    digits = [i for i, v in enumerate(cells) if v >= 0]
    around = {d: neighbours(w, h, d) for d in digits}
    frontier = {n for d in digits for n in around[d] if cells[n] == COVERED}
    out = {"shape": "1x1" if w * h == 1 else "one row" if h == 1 else "two-dimensional", "kind": b.kind,
           "total": "none" if b.total is None else "stated",
           "flags": "none" if not flags else "every mine" if flags == b.truth else "some",
           "zero": str(any(cells[d] == 0 for d in digits)),
           "closed digit": str(any(cells[d] > 0 and not any(cells[n] == COVERED for n in around[d]) for d in digits)),
           "needs two": str(any(cells[d] - sum(n in flags for n in around[d]) >= 2 for d in digits)),
           "covered": ("none" if not covered else "no frontier" if not frontier else "off the frontier too"
                       if set(covered) - frontier else "frontier"),
           "components": str(min(2, _components(cells, around))),
           "no layout": _why_impossible(b, flags, around)}
    if b.truth is not None:
        out["mines"] = "none" if not b.truth else "dense" if 2 * len(b.truth) >= w * h else "some"
    return tuple(sorted(out.items()))


def _why_impossible(b: SmallBoard, flags: frozenset[int], around: dict[int, tuple[int, ...]]) -> str:
    """Why a board has no layout: none (it has one), its total, a digit with more flags around it than it
    shows, a digit owed more mines than it has covered neighbours, or digits that each can be met but not
    together."""
    if b.truth is not None:
        return "none"
    if b.kind in (TOTAL_BELOW, TOTAL_ABOVE):
        return "the total"
    needs = [b.cells[d] - sum(n in flags for n in near) for d, near in around.items()]
    if any(need < 0 for need in needs):
        return "a digit over-flagged"
    if any(need > sum(b.cells[n] == COVERED for n in near) for need, near in zip(needs, around.values())):
        return "a digit owed more than its covered cells"
    return "digits together"


def _components(cells: Cells, around: dict[int, tuple[int, ...]]) -> int:
    """Groups of covered cells that the digits tie together (the digits' equations, as the counter splits them)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for near in around.values():
        group = [n for n in near if cells[n] == COVERED]
        for n in group:
            parent[find(n)] = find(group[0])
    return len({find(x) for x in parent})


@cache
def small_walk(n: int) -> tuple[int, ...]:
    """The sweep of n cells in the order the default mix visits it: first a covering prefix, then every
    other board in the sweep's order.  The prefix is chosen among the boards of at most WALK_CELLS cells,
    greedily, the smallest first among equals: boards that bring a value of a trait not yet seen (every
    shape, kind, reason for having no layout, ... once), then boards that bring the most pairs of trait
    values not yet seen together, until every pair some board has is seen.

    Pairwise coverage, as in combinatorial testing: a defect that needs one thing shows within the first
    ten boards or so, one that needs two at once (a flag beside a closed digit, a total on a one-wide
    board) within the first fifty, where the sweep in its own order reaches boards of four cells only
    after about 200."""
    sweep = small_sweep(n)
    pool = [i for i, b in enumerate(sweep) if b.width * b.height <= WALK_CELLS]
    values = [traits(sweep[i]) for i in pool]
    prefix: list[int] = []
    for units in (lambda t: t, lambda t: [(a, b) for k, a in enumerate(t) for b in t[k + 1:]]):
        index: dict[object, int] = {}
        masks = [sum(1 << index.setdefault(u, len(index)) for u in set(units(t))) for t in values]
        covered = 0
        for k in prefix:  # what the boards already chosen bring
            covered |= masks[pool.index(k)]
        while True:
            gain, best = max(((m & ~covered).bit_count(), -k) for k, m in enumerate(masks))
            if gain == 0:
                break
            prefix.append(pool[-best])
            covered |= masks[-best]
    first = set(prefix)
    return tuple(prefix) + tuple(i for i in range(len(sweep)) if i not in first)


def small(rec: Recipe, n: int = 4, index: int = 0) -> Position | Board:
    """The generator: the position behind consistent board ``index`` of sweep n, or the impossible board itself."""
    return small_entry(n, index).made()

