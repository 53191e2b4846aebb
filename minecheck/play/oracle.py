"""The exact game value: the chance of winning a small Minesweeper game under perfect play, as a Fraction.

The model is minecheck's game (``minecheck.play.game``): a width x height grid, ``mines`` mines, the
8-neighbourhood; opening a safe cell shows its digit and a 0 opens its neighbours; opening a mine
loses; the game is won when every safe cell is open.  The player's knowledge is the set of mine
layouts consistent with what it sees, and each of them is equally likely.  Flags carry no
information here: a flag is the player's note, never a fact.

A layout is an int, the bitmask of its mine cells.  ``W(L)``, the number of layouts of L that
perfect play wins, is an integer (the best strategy is deterministic, and wins on a subset of L),
so the search adds integers and divides once: the value of L is W(L) / |L|.

* Opening a cell that is safe in every layout of L cannot hurt (more information never lowers the
  value), so it is done at once: the player's state is always a *fixed point*, where every such
  cell is open and shows the same digit in every layout.  This also covers the flood of a 0.
* A move at a cell c splits the layouts without a mine at c by the digit c shows, and each part
  is brought to its fixed points: W(move c) is the sum of W over these parts; a mine contributes 0.
* W(L) = max over moves at a fixed point; 1 for one layout; 1 for two (a fixed point of two
  layouts is a 50/50 guess).  W(move c) <= the number of layouts safe at c, and W of a fixed point
  is at most its best such count: the search keeps these bounds and gives up on a move as soon
  as it cannot beat the best move found (a bounded "fail-low" search, exact where it matters).
* States are memoised on their layouts up to the symmetries of the board (rotations and mirrors).

The layouts and the search work on a board of any size: ``consistent_layouts`` takes its own limit and
``Search`` its own state limit, which is how ``minecheck.play.endgame`` plays perfectly late in a big game.

Limits, enforced before and during the search (``OracleLimit``, a ValueError): ``MAX_CELLS`` cells,
``MAX_LAYOUTS`` consistent layouts (5x5x5 has 53 130), and ``MAX_STATES`` memoised fixed points, which
bounds a runaway search to roughly ten minutes of CPU and 2 GB (5x5x5 first click anywhere meets about
350 thousand and peaks near 600 MB).  ``fits`` says beforehand whether a position is within the first two.

Measured (CPU seconds, one core shared with other work, Python 3.11; ``bench/oracle_table.py``):
4x4x4 first click anywhere 961/1820 in 0.1 s (every first move's value, ``move_values``, 0.2 s);
5x5x5 first click anywhere 27271/53130 in 170 s (the corner alone 80 s); 5x5x5 first click safe at the
centre 97/168 in 58 s; safe-3x3 at the centre 125/156 in 0.1 s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from itertools import combinations
from math import comb

from minecheck.model.board import COVERED, Board, neighbours
from minecheck.model.errors import BadOption, EngineError

MAX_CELLS = 36
MAX_LAYOUTS = 60_000
MAX_STATES = 1_000_000
RULES = ("any", "safe", "safe-3x3")  # minecheck.play.game.FirstClick's values

Seen = Mapping[int, int] | Iterable[tuple[int, int]]  # opened cells and their digits


class OracleLimit(EngineError, ValueError):
    """The position is beyond what the oracle computes in reasonable time and memory."""


@dataclass(frozen=True)
class Grid:
    """The geometry of a width x height board as bitmasks: neighbourhoods, edges, symmetries."""

    width: int
    height: int

    @property
    def cells(self) -> int:
        return self.width * self.height

    @cached_property
    def full(self) -> int:
        return (1 << self.cells) - 1

    @cached_property
    def around(self) -> tuple[int, ...]:
        """Each cell's neighbours as a mask: a layout's digit there is one popcount."""
        return tuple(sum(1 << n for n in neighbours(self.width, self.height, c)) for c in range(self.cells))

    @cached_property
    def inner(self) -> tuple[int, int]:
        """The cells off the left column, and off the right column (shifts must not wrap rows)."""
        left = sum(1 << (r * self.width) for r in range(self.height))
        right = sum(1 << (r * self.width + self.width - 1) for r in range(self.height))
        return self.full & ~left, self.full & ~right

    def dilate(self, mask: int) -> int:
        """The cells of mask and their neighbours."""
        not_left, not_right = self.inner
        row = mask | (mask << 1 & not_left) | (mask >> 1 & not_right)
        return (row | row << self.width | row >> self.width) & self.full

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Each symmetry of the board (identity first) as the image of every cell."""
        w, h = self.width, self.height
        maps = [lambda r, c: (r, c), lambda r, c: (r, w - 1 - c), lambda r, c: (h - 1 - r, c),
                lambda r, c: (h - 1 - r, w - 1 - c)]
        if w == h:
            maps += [lambda r, c: (c, r), lambda r, c: (w - 1 - c, h - 1 - r), lambda r, c: (c, h - 1 - r),
                     lambda r, c: (w - 1 - c, r)]
        images = []
        for f in maps:
            image = tuple(r * w + c for r, c in (f(*divmod(cell, w)) for cell in range(self.cells)))
            if image not in images:
                images.append(image)
        return tuple(images)

    @cached_property
    def tables(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per symmetry, per byte of a mask, the image of every byte value: a mask maps in a few lookups."""
        out = []
        for image in self.symmetries:
            chunks = []
            for low in range(0, self.cells, 8):
                bits = image[low:low + 8]
                chunks.append(tuple(sum(1 << to for i, to in enumerate(bits) if byte >> i & 1) for byte in range(256)))
            out.append(tuple(chunks))
        return tuple(out)


def _map_mask(mask: int, table: tuple[tuple[int, ...], ...]) -> int:
    """The image of a cell mask under one symmetry's byte tables."""
    out = 0
    for chunk in table:
        out |= chunk[mask & 255]
        mask >>= 8
    return out


@cache
def grid(width: int, height: int) -> Grid:
    """One Grid per size, so its tables are built once."""
    return Grid(width, height)


def _mask(cells: Iterable[int]) -> int:
    """The cells as a bitmask."""
    return sum(1 << c for c in set(cells))


def cells_of(mask: int) -> list[int]:
    """The cells of a mask, in increasing order (a walk over its set bits: cheap on a 480-cell board)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- the consistent layouts -----------------------------------------------------------------------

def layouts(width: int, height: int, mines: int, opened: Seen = (), clear: Iterable[int] = ()) -> tuple[int, ...]:
    """Every layout of ``mines`` mines (a bitmask, in increasing order) that shows the opened digits and has
    no mine on an opened cell or on ``clear`` (the cells a first-click rule keeps free); OracleLimit past
    MAX_CELLS cells or MAX_LAYOUTS layouts."""
    seen = _checked(width, height, mines, opened)
    return consistent_layouts(grid(width, height), seen, mines, set(seen) | set(clear), MAX_LAYOUTS)


def consistent_layouts(g: Grid, seen: Mapping[int, int], mines: int, blocked: Iterable[int],
                       limit: int) -> tuple[int, ...]:
    """Every layout of ``mines`` mines on g (a bitmask, in increasing order) that shows the digits ``seen``
    ({cell: digit}) and has no mine on a ``blocked`` cell; OracleLimit past ``limit`` layouts.  Any board
    size: the frontier is placed cell by cell, the interior cells no digit touches by combinations."""
    seen = dict(seen)
    blocked = set(blocked) | set(seen)
    free = [c for c in range(g.cells) if c not in blocked]
    near = g.dilate(_mask(seen))
    frontier = [c for c in free if near >> c & 1]
    interior = [c for c in free if not near >> c & 1]
    partial = _frontier(g, seen, frontier, mines, len(interior), limit)
    placed_by_mines = Counter(placed.bit_count() for placed in partial)  # one binomial per mine count, not per layout
    total = sum(n * comb(len(interior), mines - k) for k, n in placed_by_mines.items())
    if total > limit:
        raise OracleLimit(f"{total} layouts are consistent with this {g.width}x{g.height} position; the oracle "
                          f"stops at {limit}")
    out = [placed | _mask(rest) for placed in partial
           for rest in combinations(interior, mines - placed.bit_count())]
    return tuple(sorted(out))


def fits(width: int, height: int, mines: int, opened: Seen = (), clear: Iterable[int] = ()) -> bool:
    """Whether the oracle takes this position: at most MAX_CELLS cells and MAX_LAYOUTS layouts."""
    try:
        layouts(width, height, mines, opened, clear)
    except OracleLimit:
        return False
    return True


def _checked(width: int, height: int, mines: int, opened: Seen) -> dict[int, int]:
    """The opened cells as {cell: digit}, after refusing a board out of range or beyond MAX_CELLS."""
    if width < 1 or height < 1:
        raise BadOption(f"a board needs at least one cell, got {width}x{height}")
    if width * height > MAX_CELLS:
        raise OracleLimit(f"a {width}x{height} board has {width * height} cells; the oracle stops at {MAX_CELLS}")
    if not 0 <= mines <= width * height:
        raise BadOption(f"{mines} mines do not fit {width * height} cells")
    seen = dict(opened)
    for cell, digit in seen.items():
        if not 0 <= cell < width * height or not 0 <= digit <= 8:
            raise BadOption(f"opened cell {cell} with digit {digit} is not on a {width}x{height} board")
    return seen


def _frontier(g: Grid, seen: dict[int, int], frontier: list[int], mines: int, room: int, limit: int) -> list[int]:
    """Every placement of mines on the frontier cells that meets each opened digit exactly and leaves the
    ``room`` interior cells enough mines to hold (a mask each: each one is at least one layout)."""
    need = dict(seen)
    touching = {f: [c for c in seen if g.around[c] >> f & 1] for f in frontier}
    left = {c: sum(1 for f in frontier if g.around[c] >> f & 1) for c in seen}
    if any(not 0 <= need[c] <= left[c] for c in seen):
        return []
    out: list[int] = []
    budget = limit

    def place(i: int, mask: int, placed: int) -> None:
        nonlocal budget
        if placed + len(frontier) - i + room < mines:
            return
        if i == len(frontier):
            out.append(mask)
            budget -= 1
            if budget < 0:
                raise OracleLimit(f"more than {limit} layouts are consistent with this position")
            return
        cell = frontier[i]
        for mine in (0, 1):
            if placed + mine > mines:
                break
            ok = True
            for c in touching[cell]:
                need[c] -= mine
                left[c] -= 1
                ok = ok and 0 <= need[c] <= left[c]
            if ok:
                place(i + 1, mask | mine << cell, placed + mine)
            for c in touching[cell]:
                need[c] += mine
                left[c] += 1

    place(0, 0, 0)
    return out


# -- the search -----------------------------------------------------------------------------------

_SYMMETRY_FROM = 12  # smaller states are memoised as they are: mapping them costs more than it saves


class Search:
    """One search's memo: for each fixed point met (keyed up to symmetry), W if positive, else -(a bound on W).
    ``symmetric``: key states up to the board's symmetries (worth it on a small empty board, not on a big board
    in play); ``max_states``: the memo's size past which the search gives up (OracleLimit), MAX_STATES if None."""

    def __init__(self, g: Grid, symmetric: bool = True, max_states: int | None = None):
        self.grid = g
        self.symmetric = symmetric
        self.max_states = max_states
        self.memo: dict[tuple[int, ...], int] = {}

    def key(self, part: tuple[int, ...], union: int, inter: int) -> tuple[int, ...]:
        """The layouts as the least of their images under the board's symmetries; the masks choose the candidates."""
        if not self.symmetric or len(part) < _SYMMETRY_FROM:
            return part
        tables = self.grid.tables
        marks = [(_map_mask(union, t), _map_mask(inter, t)) for t in tables]
        least = min(marks)
        tied = [t for t, mark in zip(tables, marks) if mark == least]
        if len(tied) == 1 and tied[0] is tables[0]:
            return part
        return min(tuple(sorted([_map_mask(lay, t) for lay in part])) for t in tied)

    def refine(self, group: list[int], known: int, out: list[tuple[int, ...]]) -> None:
        """Append to out the fixed points of group: open every cell safe in all its layouts whose digit is not
        yet ``known`` (constant), split by the digits shown, again until nothing is told apart."""
        g = self.grid
        if len(group) == 2:
            first, second = group
            fresh = g.dilate(first ^ second) & ~(first | second | known)
            while fresh:
                around = g.around[fresh.bit_length() - 1]
                if (first & around).bit_count() != (second & around).bit_count():
                    out += [(first,), (second,)]
                    return
                fresh &= ~(1 << (fresh.bit_length() - 1))
            out.append((first, second))
            return
        union = inter = group[0]
        for lay in group:
            union |= lay
            inter &= lay
        unsure = union & ~inter
        fresh = g.dilate(unsure) & ~(union | known)
        if fresh:
            mask = g.dilate(fresh) & unsure
            patterns: dict[int, list[int]] = {}
            for lay in group:
                patterns.setdefault(lay & mask, []).append(lay)
            if len(patterns) > 1:
                arounds = [g.around[c] for c in cells_of(fresh)]
                parts: dict[int, list[int]] = {}
                for pattern, same in patterns.items():
                    shown = 0
                    for around in arounds:
                        shown = shown << 4 | (pattern & around).bit_count()
                    if shown in parts:
                        parts[shown].extend(same)
                    else:
                        parts[shown] = same
                if len(parts) > 1:
                    known |= fresh | (~union & g.full)
                    for part in parts.values():
                        if len(part) == 1:
                            out.append((part[0],))
                        else:
                            self.refine(part, known, out)
                    return
        out.append(tuple(group))

    def move(self, part: tuple[int, ...], cell: int, known: int, floor: int) -> int:
        """W of opening cell: exact when above floor, else an upper bound at most floor.  The layouts safe at cell
        are split by its digit, and each group is brought to its fixed points, largest first, until their
        bounds show that the move cannot beat floor (most moves of a search end there)."""
        bit = 1 << cell
        around = self.grid.around[cell]
        groups: dict[int, list[int]] = {}
        for lay in part:
            if not lay & bit:
                groups.setdefault((lay & around).bit_count(), []).append(lay)
        left = len(part) - len([1 for lay in part if lay & bit])
        entries: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
        for group in sorted(groups.values(), key=len, reverse=True):
            if left <= floor:
                return left
            fixed: list[tuple[int, ...]] = []
            if len(group) == 1:
                fixed.append((group[0],))
            else:
                self.refine(group, known | bit, fixed)
            for one in fixed:
                top, key = self.bound(one)
                entries.append((len(one), top, key, one))
                left += top
            left -= len(group)
        return self.settle(entries, left, floor)

    def bound(self, part: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """W of a fixed point if known, else an upper bound on it (its safest cell's count); and its memo key."""
        n = len(part)
        if n <= 2:
            return 1, part
        union = inter = part[0]
        for lay in part:
            union |= lay
            inter &= lay
        key = self.key(part, union, inter)
        got = self.memo.get(key)
        if got is not None:
            return abs(got), key
        unsure = union & ~inter
        top = max(n - len([1 for lay in part if lay >> c & 1]) for c in cells_of(unsure))
        limit = MAX_STATES if self.max_states is None else self.max_states
        if len(self.memo) >= limit:
            raise OracleLimit(f"the search met more than {limit} states; the oracle stops there")
        self.memo[key] = -top
        return top, key

    def total(self, parts: list[tuple[int, ...]], floor: int) -> int:
        """The sum of W over fixed points: exact when above floor, else an upper bound on it at most floor."""
        entries = [(len(part), *self.bound(part), part) for part in parts]
        return self.settle(entries, sum(top for _, top, _, _ in entries), floor)

    def settle(self, entries: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]], left: int, floor: int) -> int:
        """The sum of W over fixed points given as (size, bound, key, layouts), their bounds adding up to left:
        exact when above floor, else an upper bound at most floor.  Small parts first: cheap, and exact."""
        if left <= floor:
            return left
        acc = 0
        entries.sort(key=lambda entry: entry[0])
        for n, top, key, part in entries:
            left -= top
            acc += self.wins(part, key, floor - acc - left) if n > 2 else 1
            if acc + left <= floor:
                return acc + left
        return acc

    def wins(self, part: tuple[int, ...], key: tuple[int, ...], floor: int) -> int:
        """W of a fixed point of three layouts or more (memoised by bound): exact when above floor, else an
        upper bound on it at most floor."""
        got = self.memo[key]
        if got > 0 or -got <= floor:
            return abs(got)
        union = inter = part[0]
        for lay in part:
            union |= lay
            inter &= lay
        unsure = union & ~inter
        result = self.best(part, cells_of(unsure), ~union, floor)
        if result > floor:
            self.memo[key] = result
        elif result < -got:
            self.memo[key] = -result
        return result

    def best(self, part: tuple[int, ...], cells: list[int], known: int, floor: int) -> int:
        """The most W of a move at one of cells: exact when above floor, else an upper bound at most floor.
        Safest cells first; a cell no safer than the best move so far cannot beat it."""
        n = len(part)
        union = ~known
        around = self.grid.around
        ranked = sorted(((n - len([1 for lay in part if lay >> c & 1]), -(around[c] & union).bit_count(), c)
                         for c in cells), reverse=True)
        best = top = 0
        for safe, _, cell in ranked:
            beat = max(best, floor)
            if safe <= beat:
                top = max(top, safe)
                break
            got = self.move(part, cell, known, beat)
            if got > beat:
                best = got
            else:
                top = max(top, got)
        return best if best > floor else max(top, best)


# -- values ---------------------------------------------------------------------------------------

def _orbits(g: Grid, seen: dict[int, int]) -> dict[int, int]:
    """Each cell's representative (least cell of its orbit) under the symmetries that keep the opened digits as
    they are: cells in one orbit have the same value."""
    keep = [image for image in g.symmetries if all(seen.get(image[c]) == d for c, d in seen.items())]
    return {c: min(image[c] for image in keep) for c in range(g.cells)}


def _start(width: int, height: int, mines: int, opened: Seen,
           clear: Iterable[int] = ()) -> tuple[dict[int, int], tuple[int, ...], Search]:
    """The opened digits, the consistent layouts (at least one, or ValueError) and a fresh search."""
    seen = _checked(width, height, mines, opened)
    found = layouts(width, height, mines, seen, clear)
    if not found:
        raise ValueError(f"no layout of {mines} mines on {width}x{height} shows these digits")
    return seen, found, Search(grid(width, height))


def game_value(width: int, height: int, mines: int, opened: Seen = ()) -> Fraction:
    """The chance of winning from the position (opened cells and their digits) under perfect play: the best
    move's chance, or 1 once every safe cell is open."""
    seen, found, search = _start(width, height, mines, opened)
    known = _mask(seen)
    parts: list[tuple[int, ...]] = []
    search.refine(list(found), known, parts)
    if len(parts) > 1 or len(found) <= 2:
        return Fraction(search.total(parts, 0), len(found))
    union = inter = found[0]
    for lay in found:
        union |= lay
        inter &= lay
    orbit = _orbits(search.grid, seen)
    cells = [c for c in range(search.grid.cells) if (union & ~inter) >> c & 1 and orbit[c] == c]
    return Fraction(search.best(found, cells, known | ~union, 0), len(found))


def move_values(width: int, height: int, mines: int, opened: Seen = ()) -> dict[int, Fraction]:
    """Every unopened cell's chance of winning when it is opened now and the game is played perfectly after
    (0 for a certain mine); the best of them is ``game_value``, unless the game is won already."""
    seen, found, search = _start(width, height, mines, opened)
    known = _mask(seen)
    orbit = _orbits(search.grid, seen)
    wins = {c: search.move(found, c, known, 0)
            for c in range(search.grid.cells) if c not in seen and orbit[c] == c}
    return {c: Fraction(wins[orbit[c]], len(found)) for c in range(search.grid.cells) if c not in seen}


def mine_probabilities(width: int, height: int, mines: int, opened: Seen = ()) -> dict[int, Fraction]:
    """Every unopened cell's exact chance of holding a mine, from the same layouts the oracle weighs."""
    seen, found, _ = _start(width, height, mines, opened)
    return {c: Fraction(len([1 for lay in found if lay >> c & 1]), len(found))
            for c in range(width * height) if c not in seen}


def board_move_values(board: Board) -> dict[int, Fraction]:
    """Each covered cell's chance of winning when opened now, from what the board shows (its digits and total).
    Its flags are taken as covered cells: the oracle assumes nothing from them, right or wrong, and assumes
    the player may lift them later (perfect play never needs a flag). Flagged cells get no value: they
    cannot be opened as they stand."""
    values = move_values(board.width, board.height, _total(board), {c: board.cells[c] for c in board.digits})
    return {c: v for c, v in values.items() if board.cells[c] == COVERED}


def _total(board: Board) -> int:
    if board.total_mines is None:
        raise BadOption("the oracle needs the board's total mines: its layouts are all those with exactly that many")
    return board.total_mines


def first_click_value(width: int, height: int, mines: int, rule: str = "any", cell: int | None = None) -> Fraction:
    """The chance of winning a whole game under perfect play, first click included: at ``cell``, or at the
    player's best cell when None. ``rule`` is the deal's first-click rule (``RULES``): ``any`` mines anywhere
    (the click may lose), ``safe`` never on the first cell, ``safe-3x3`` neither on it nor its neighbours."""
    if rule not in RULES:
        raise BadOption(f"first-click rule {rule!r} is not one of {', '.join(RULES)}")
    if cell is None:
        if rule == "any":
            return game_value(width, height, mines)
        orbit = _orbits(grid(width, height), {})
        return max(first_click_value(width, height, mines, rule, c) for c in set(orbit.values()))
    if not 0 <= cell < width * height:
        raise BadOption(f"first cell {cell} is not on a {width}x{height} board")
    clear = {"any": (), "safe": (cell,), "safe-3x3": (cell, *neighbours(width, height, cell))}[rule]
    _, found, search = _start(width, height, mines, {}, clear)
    return Fraction(search.move(found, cell, 0, 0), len(found))


def shortfall(values: Mapping[int, Fraction], cell: int) -> Fraction:
    """How much less a move's chance of winning is than the best move's (0 for a best move)."""
    return max(values.values()) - values[cell]


def suboptimal(values: Mapping[int, Fraction], cell: int, margin: Fraction) -> bool:
    """Whether opening cell gives up more than ``margin`` of the chance of winning that perfect play keeps."""
    return shortfall(values, cell) > margin
