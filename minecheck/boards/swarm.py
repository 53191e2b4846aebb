"""Rare features drawn often: swarm testing (Groce et al., ISSTA 2012) for Minesweeper boards.

A random board mostly has the common features (some flags, a total, a few small components) and
rarely the ones defects hide behind.  Here each board FIRST draws which features it has (each yes/no
feature with chance 1/2, one choice of each group uniformly, and on half the boards one impossible
change, each kind 1/14) and is then built to have exactly those:

  shape       ``one-wide`` (a single row or column) or not
  frontier    ``large component``: the digits tie LARGE or more covered cells into one component
  mines       ``dense``: half the cells or more are mines; ``sparse``: a larger board (64 cells or more,
              a row of 24 or more) with at most one mine in sixteen cells, so many layouts and
              probabilities near 0 (drawn after the others; with dense it gives way)
  flags       ``no flags``, ``some flags`` or ``every mine flagged``
  opened      ``closed digit``: a digit whose every neighbour is open or flagged
  total       ``no total``, ``total stated``, ``total at fewest`` or ``total at most`` (the fewest or
              most mines the digits allow, ``generators.extreme_mines``)
  impossible  none, or one change that leaves no layout: ``impossible: digit +1`` / ``digit -1`` (a digit
              with a covered neighbour), ``impossible: digit with no covered neighbour``,
              ``impossible: digit two beyond its covered cells`` (owed two or more mines more than it has
              covered neighbours), ``impossible: forbidden flag``, ``impossible: total below range`` /
              ``total above range``
  numeric     on half the boards, from a stream of its own (so the other draws, and the boards without it,
              are those of a swarm without this group), one edge of a solver's arithmetic (issue 27):
              ``layouts past 2**32`` / ``layouts past 2**64`` (the exact count of the board as rendered,
              with its total, past a 32- or 64-bit counter), ``component past 32 cells`` (past a 32-bit mask),
              ``every covered cell a mine`` or ``a probability within 1/100 of 0 or 1`` (neither 0 nor 1,
              with the total: a big sparse board, mines left few for its covered cells)

Some draws cannot go together; one gives way, by fixed rules (``settle``): a changed digit or flag
turns an extreme total into a plain stated one, and a changed total takes the total's place; a digit
with no covered neighbour brings a closed digit; a total below its range needs a mine the digits force,
and a large component on a row or column is cut by a flag, so every-mine-flagged gives way to some
flags there; a forbidden flag beside every mine flagged leaves no room for a total (board text states
none below its flags); dense gives way to a large component on a row or column or with every mine
flagged (its mines, flagged, would cut the component); and a dense row or column seldom allows as few
as half its cells as the fewest mines, so there the total at fewest gives way to a plain stated total.
A numeric edge asks for what it needs and gives way where the others leave it no room: a count or a
near-certain cell takes a plain stated total (not at an extreme) and mines left to place (some flags at
most), and gives way to an impossible total or a forbidden flag (a near-certain cell also to a digit -1
on a board without flags: its few mines, none flagged, can always move off the frontier); a count makes
sparse give way (it needs many mines left), a near-certain cell dense (it needs few); a component past 32
cells brings a large component; every covered cell a mine gives way to a digit +1 or a forbidden flag
(each needs a covered safe cell), makes every mine flagged some flags (a covered cell must be left)
and, beside a large component, sparse give way (the component's cells are mines).  A numeric edge holds
on the board as rendered, before an impossible change makes it one no layout meets.

A board is built to have its features: a large component gets a row of opened safe cells with covered
rows on both sides (on a row or column, every other cell of a stretch; 17 columns or more, or a stretch of
67 cells, for one past 32), a count or a near-certain cell a board of 160 cells or more with few opened,
every covered cell a mine every safe cell opened, a closed digit its neighbours
opened (their mines flagged, or moved away when there are no flags), an impossible +1 a covered safe
cell between two opened ones; the impossible change is made last, on the rendered board.  Every
feature is then checked on the board (``missing``); a build without one of them is retried with the
recipe's next seeded stream.  The features are a pure function of the recipe (``swarm_features``), so
a finding shows them without building the board; same recipe, same board, on any machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from minecheck.boards.contradictions import contradicting_totals, with_digit
from minecheck.boards.layouts import extreme_mines
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import FLAG, Board, neighbours
from minecheck.model.position import Position, render

LARGE = 8  # covered cells in one component for a "large component"
ATTEMPTS = 500  # builds tried before a recipe is given up: the hardest mix of features succeeds 1 in 8

ONE_WIDE = "one-wide"
LARGE_COMPONENT = "large component"
DENSE = "dense"
SPARSE = "sparse"
SPARSE_SHARE = 1 / 16  # the most mines a sparse board has, as a share of its cells
NO_FLAGS, SOME_FLAGS, EVERY_FLAG = "no flags", "some flags", "every mine flagged"
CLOSED_DIGIT = "closed digit"
NO_TOTAL, TOTAL, FEWEST, MOST = "no total", "total stated", "total at fewest", "total at most"
DIGIT_ABOVE = "impossible: digit +1"
DIGIT_BELOW = "impossible: digit -1"
DIGIT_ALONE = "impossible: digit with no covered neighbour"
DIGIT_BEYOND = "impossible: digit two beyond its covered cells"
FORBIDDEN_FLAG = "impossible: forbidden flag"
TOTAL_BELOW = "impossible: total below range"
TOTAL_ABOVE = "impossible: total above range"

FLAG_CHOICES = (NO_FLAGS, SOME_FLAGS, EVERY_FLAG)
TOTAL_CHOICES = (NO_TOTAL, TOTAL, FEWEST, MOST)
IMPOSSIBLE = (DIGIT_ABOVE, DIGIT_BELOW, DIGIT_ALONE, DIGIT_BEYOND, FORBIDDEN_FLAG, TOTAL_BELOW, TOTAL_ABOVE)
PAST_32, PAST_64 = "layouts past 2**32", "layouts past 2**64"
WIDE_COMPONENT = "component past 32 cells"
ALL_MINES = "every covered cell a mine"
NEAR_CERTAIN = "a probability within 1/100 of 0 or 1"
NUMERIC = (PAST_32, PAST_64, WIDE_COMPONENT, ALL_MINES, NEAR_CERTAIN)
COUNT_BOUNDS = {PAST_32: 2**32, PAST_64: 2**64}
NEAR = 100  # a near-certain cell's probability is within 1/NEAR of 0 or 1
WIDE = 33  # the cells of a component past 32
FEATURES = (ONE_WIDE, LARGE_COMPONENT, DENSE, SPARSE, *FLAG_CHOICES, CLOSED_DIGIT, *TOTAL_CHOICES, *IMPOSSIBLE,
            *NUMERIC)


@dataclass(frozen=True)
class SwarmBoard:
    """A swarm board: the features drawn, the consistent position built, and the board solvers get (the
    position rendered, or for an impossible feature that board with one change and no truth)."""

    features: tuple[str, ...]
    position: Position
    board: Board

    @property
    def impossible(self) -> str | None:
        return next((f for f in self.features if f in IMPOSSIBLE), None)


# -- drawing the features -------------------------------------------------------------------

def swarm_features(rec: Recipe) -> tuple[str, ...]:
    """The features a recipe's board has, in FEATURES order: drawn from the seed, then settled."""
    rng = rng_for(rec, "features")
    drawn = {f for f in (ONE_WIDE, LARGE_COMPONENT, DENSE, CLOSED_DIGIT) if rng.random() < 0.5}
    drawn.add(rng.choice(FLAG_CHOICES))
    drawn.add(rng.choice(TOTAL_CHOICES))
    if rng.random() < 0.5:
        drawn.add(rng.choice(IMPOSSIBLE))
    if rng.random() < 0.5:
        drawn.add(SPARSE)
    edge = rng_for(rec, "numeric features")
    settled = settle_numeric(drawn, edge.choice(NUMERIC)) if edge.random() < 0.5 else settle(drawn)
    return tuple(f for f in FEATURES if f in settled)


def settle_numeric(drawn: set[str], numeric: str) -> set[str]:
    """The drawn features settled with a numeric edge: what it needs added first, then the edge dropped
    where the other features leave no room for it (the module docstring's rules)."""
    impossible = drawn & set(IMPOSSIBLE)
    if numeric in (PAST_32, PAST_64, NEAR_CERTAIN):
        if impossible & {TOTAL_BELOW, TOTAL_ABOVE, FORBIDDEN_FLAG}:
            return settle(drawn)
        if numeric == NEAR_CERTAIN and DIGIT_BELOW in impossible and NO_FLAGS in drawn:
            return settle(drawn)  # its few mines, none flagged, leave a digit -1 a layout off the frontier
        gives_way = {DENSE} if numeric == NEAR_CERTAIN else {SPARSE}  # a few mines left, or many
        drawn = (drawn - set(TOTAL_CHOICES) - {EVERY_FLAG} - gives_way) | {TOTAL}
        drawn |= {SOME_FLAGS} if not drawn & set(FLAG_CHOICES) else set()
    elif numeric == WIDE_COMPONENT:
        drawn = drawn | {LARGE_COMPONENT}
    elif numeric == ALL_MINES:
        if impossible & {DIGIT_ABOVE, FORBIDDEN_FLAG}:
            return settle(drawn)
        drawn = (drawn - {EVERY_FLAG}) | ({SOME_FLAGS} if EVERY_FLAG in drawn else set())
        if LARGE_COMPONENT in drawn:  # its covered cells, all mines, are more than one in sixteen
            drawn -= {SPARSE}
    return settle(drawn) | {numeric}


def settle(drawn: set[str]) -> set[str]:
    """The drawn features with the ones that cannot go together resolved (the module docstring's rules)."""
    out = set(drawn)
    if out & {TOTAL_BELOW, TOTAL_ABOVE}:
        out = (out - set(TOTAL_CHOICES)) | {TOTAL}
    elif out & {DIGIT_ABOVE, DIGIT_BELOW, DIGIT_ALONE, DIGIT_BEYOND, FORBIDDEN_FLAG} and out & {FEWEST, MOST}:
        out = (out - {FEWEST, MOST}) | {TOTAL}
    if DIGIT_ALONE in out:
        out.add(CLOSED_DIGIT)
    if DENSE in out:
        out.discard(SPARSE)
    if TOTAL_BELOW in out and EVERY_FLAG in out:
        out = (out - {EVERY_FLAG}) | {SOME_FLAGS}
    if FORBIDDEN_FLAG in out and EVERY_FLAG in out:  # board text cannot state a total below its flags
        out = (out - set(TOTAL_CHOICES)) | {NO_TOTAL}
    if {LARGE_COMPONENT, ONE_WIDE, EVERY_FLAG} <= out:  # a flag on a row's chain cuts it
        out = (out - {EVERY_FLAG}) | {SOME_FLAGS}
    if {LARGE_COMPONENT, DENSE} <= out and out & {ONE_WIDE, EVERY_FLAG}:  # mines on the chain, flagged, cut it
        out.discard(DENSE)
    if {ONE_WIDE, DENSE, FEWEST} <= out:  # the fewest mines a dense row allows are seldom half of it
        out = (out - {FEWEST}) | {TOTAL}
    return out


# -- building a board that has them ---------------------------------------------------------

def swarm(rec: Recipe) -> Position | Board:
    """The generator: the position of a consistent swarm board, or the impossible board itself."""
    case = swarm_board(rec)
    return case.board if case.impossible else case.position


def swarm_board(rec: Recipe) -> SwarmBoard:
    """The recipe's board with its features: the first build, over the recipe's streams, that has them all."""
    features = swarm_features(rec)
    for attempt in range(ATTEMPTS):
        case = build(rng_for(rec, f"build {attempt}"), features)
        if case is not None and not missing(case):
            return case
    raise ValueError(f"no board with {', '.join(features)} in {ATTEMPTS} builds for {rec.describe()}")


def build(rng: random.Random, features: tuple[str, ...]) -> SwarmBoard | None:
    """One try at a board with the features; None when this draw has no place for one of them."""
    has = set(features).__contains__
    big = has(PAST_32) or has(PAST_64) or has(NEAR_CERTAIN)  # many covered cells: many layouts, rare mines
    chain = WIDE if has(WIDE_COMPONENT) else LARGE  # the cells a large component ties
    if has(ONE_WIDE):
        low = max(2 * chain + 1 if has(LARGE_COMPONENT) else 2, 24 if has(SPARSE) else 2, 100 if big else 2)
        high = 300 if big else 100 if has(WIDE_COMPONENT) else 40 if has(SPARSE) else 30 if has(LARGE_COMPONENT) \
            else 24
        length = rng.randint(low, high)
        width, height = (length, 1) if rng.random() < 0.5 else (1, length)
    elif big:
        width, height = rng.randint(16, 24), rng.randint(10, 16)
    elif has(WIDE_COMPONENT):
        width, height = rng.randint((WIDE + 1) // 2, 24), rng.randint(3, 8)
    elif has(SPARSE):
        width, height = rng.randint(8, 16), rng.randint(8, 12)
    elif has(LARGE_COMPONENT):
        width, height = rng.randint(4, 10), rng.randint(3, 10)
    else:
        width, height = rng.randint(2, 10), rng.randint(2, 10)
    size = width * height
    spine, ribs = large_component_cells(rng, width, height, chain) if has(LARGE_COMPONENT) else ((), ())
    closed = rng.randrange(size) if has(CLOSED_DIGIT) else None
    around = neighbours(width, height, closed) if closed is not None else ()
    wedge = wedge_cells(rng, width, height) if has(DIGIT_ABOVE) else ()
    safe = set(spine) | set(wedge) | ({closed} if closed is not None else set()) | (set(around) if has(NO_FLAGS)
                                                                                     else set())
    room = [c for c in range(size) if c not in safe]
    density = rng.uniform(0.5, 0.75) if has(DENSE) else rng.uniform(0.02, SPARSE_SHARE) if has(SPARSE) else \
        rng.uniform(0.08, 0.3)
    count = rng.randint(1, 3) if has(NEAR_CERTAIN) else max(1, int(density * size)) if has(SPARSE) else \
        math.ceil(density * size)
    mines = frozenset(rng.sample(room, min(len(room), count)))
    if has(ALL_MINES):  # a large component's covered cells too: every covered cell is a mine
        mines |= set(ribs) - safe
    # dense at its fewest, or every covered cell a mine: no covered cell left bare; sparse: few cells opened,
    # many layouts left; a near-certain cell: almost nothing opened, a few mines among hundreds of cells
    chance = 1.0 if has(ALL_MINES) or has(DENSE) and has(FEWEST) else rng.uniform(0.01, 0.05) if has(NEAR_CERTAIN) \
        else rng.uniform(0.01, 0.08) if big else \
        rng.uniform(0.1, 0.5) if has(SPARSE) else rng.uniform(0.3, 0.9)
    shut = (set(ribs) | set(wedge[:1])) - set(around)
    opened = {c for c in range(size) if c not in mines and c not in shut and rng.random() < chance}
    opened |= {c for c in (*spine, *wedge[1:], *around) if c not in mines} | ({closed} if closed is not None
                                                                                else set())
    pos = Position(width, height, mines, frozenset(opened), frozenset(), not has(NO_TOTAL))
    if has(FEWEST) or has(MOST):
        pos = extreme_mines(pos, fewest=has(FEWEST))
    pos = replace(pos, flags=flags_for(rng, features, pos, closed, ribs))
    board = render(pos)
    impossible = next((f for f in features if f in IMPOSSIBLE), None)
    if impossible:
        board = changed(rng, impossible, pos, board)
        if board is None:
            return None
    return SwarmBoard(features, pos, board)


def wedge_cells(rng: random.Random, width: int, height: int) -> tuple[int, ...]:
    """(covered, digit, digit): a safe cell kept covered between two opened ones, so that one digit's +1 can
    fall on a cell the other digit says is safe (an impossible +1 wherever the other digit is met)."""
    middle = [c for c in range(width * height) if len(neighbours(width, height, c)) >= 2]
    if not middle:
        return ()
    cell = rng.choice(middle)
    return (cell, *rng.sample(neighbours(width, height, cell), 2))


def large_component_cells(rng: random.Random, width: int, height: int,
                          cells: int = LARGE) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(spine, ribs): safe cells to open and the covered cells beside them that the spine's digits tie into
    one component of ``cells`` or more.  On a row or column 2 * cells + 1 cells somewhere along it, the spine
    every other one; on a wider board a row off the edge, its ribs the rows on both sides (2 x 4 or more)."""
    if width == 1 or height == 1:
        start = rng.randint(0, width * height - 2 * cells - 1)
        return tuple(range(start + 1, start + 2 * cells, 2)), tuple(range(start, start + 2 * cells + 1, 2))
    row = rng.randint(1, height - 2)
    line = lambda r: tuple(range(r * width, (r + 1) * width))  # noqa: E731
    return line(row), line(row - 1) + line(row + 1)


def flags_for(rng: random.Random, features: tuple[str, ...], pos: Position, closed: int | None,
              ribs: tuple[int, ...]) -> frozenset[int]:
    """The flags the features ask for: none, every mine, or some: those around a closed digit and a random
    part of the others off a large component's ribs (where a flag would cut it)."""
    if NO_FLAGS in features:
        return frozenset()
    if EVERY_FLAG in features:
        return pos.mines
    needed = {c for c in neighbours(pos.width, pos.height, closed) if c in pos.mines} if closed is not None else set()
    return frozenset(needed | {c for c in sorted(pos.mines - set(ribs)) if rng.random() < 0.5})


def changed(rng: random.Random, impossible: str, pos: Position, board: Board) -> Board | None:
    """The board with the one change the impossible feature names, or None when it has no place for it."""
    plain = Board(board.width, board.height, board.cells, board.total_mines)
    if impossible in (TOTAL_BELOW, TOTAL_ABOVE):
        fewest_less, most_more = len(extreme_mines(pos, True).mines) - 1, len(extreme_mines(pos, False).mines) + 1
        total = fewest_less if impossible == TOTAL_BELOW else most_more
        if total not in contradicting_totals(pos):
            return None
        return Board(board.width, board.height, board.cells, total)
    if impossible == FORBIDDEN_FLAG:
        room = board.total_mines is None or board.total_mines > len(board.flags)
        spots = [c for c in board.covered if room and no_layout(flagged(plain, c))]
        return flagged(plain, rng.choice(spots)) if spots else None
    if impossible == DIGIT_BEYOND:
        beyond = [(d, beyond_value(board, d)) for d in board.digits if beyond_value(board, d) <= 8]
        return with_digit(plain, *rng.choice(beyond)) if beyond else None
    alone = impossible == DIGIT_ALONE
    step = -1 if impossible == DIGIT_BELOW else 1
    options = []
    for d in board.digits:
        covered = any(board.is_covered(n) for n in board.neighbours(d))
        value = board.cells[d] + step
        if alone and not covered:
            value = value if value <= 8 else board.cells[d] - 1
        if covered != alone and 0 <= value <= 8 and no_layout(with_digit(plain, d, value)):
            options.append(with_digit(plain, d, value))
    return rng.choice(options) if options else None


def beyond_value(board: Board, digit: int) -> int:
    """The digit that owes two mines more than its covered neighbours can hold (its flags count already)."""
    around = board.neighbours(digit)
    return sum(board.is_flag(n) for n in around) + sum(board.is_covered(n) for n in around) + 2


def flagged(board: Board, cell: int) -> Board:
    cells = list(board.cells)
    cells[cell] = FLAG
    return Board(board.width, board.height, tuple(cells), board.total_mines)


def no_layout(board: Board) -> bool:
    return not count_board(board, Mode.LOCAL).consistent


# -- what a board has -----------------------------------------------------------------------

def missing(case: SwarmBoard) -> tuple[str, ...]:
    """The features a swarm board claims but does not have (none, for every board ``swarm_board`` returns)."""
    return tuple(f for f in case.features if not HOLDS[f](case))


def largest_component(board: Board) -> int:
    return max((len(c.cells) for c in build_constraints(board).components), default=0)


def closed_digits(board: Board) -> tuple[int, ...]:
    """The digits whose every neighbour is open or flagged."""
    return tuple(d for d in board.digits if not any(board.is_covered(n) for n in board.neighbours(d)))


def total_range(pos: Position) -> tuple[int, int]:
    """The fewest and the most mines the position's digits (and flags) allow."""
    return len(extreme_mines(pos, fewest=True).mines), len(extreme_mines(pos, fewest=False).mines)


def consistent_in(board: Board, mode: Mode) -> bool:
    return count_board(board, mode).consistent


def _changed_cells(case: SwarmBoard) -> list[int]:
    seen = render(case.position)
    return [c for c in range(seen.size) if seen.cells[c] != case.board.cells[c]]


def _digit_change(case: SwarmBoard, step: int, alone: bool) -> bool:
    seen, cells = render(case.position), _changed_cells(case)
    if len(cells) != 1 or not seen.is_digit(cells[0]) or not no_layout(case.board):
        return False
    d = cells[0]
    covered = any(seen.is_covered(n) for n in seen.neighbours(d))
    return covered != alone and (alone or case.board.cells[d] - seen.cells[d] == step)


def _digit_beyond(case: SwarmBoard) -> bool:
    cells = _changed_cells(case)
    return (len(cells) == 1 and render(case.position).is_digit(cells[0]) and no_layout(case.board)
            and case.board.cells[cells[0]] >= beyond_value(case.board, cells[0]))


def _total_change(case: SwarmBoard, below: bool) -> bool:
    fewest, most = total_range(case.position)
    total = case.board.total_mines
    return (case.board.cells == render(case.position).cells and consistent_in(case.board, Mode.LOCAL)
            and total is not None and total == (fewest - 1 if below else most + 1))


def _layouts(case: SwarmBoard) -> int:
    """The exact layout count of the board as rendered (its total stated: the global mode)."""
    board = render(case.position)
    return count_board(board, Mode.GLOBAL if board.total_mines is not None else Mode.LOCAL).layouts


def _every_covered_a_mine(board: Board, mines: frozenset[int]) -> bool:
    return bool(board.covered) and set(board.covered) <= mines


def near_certain(p) -> bool:
    """A probability within 1/NEAR of 0 or 1 that is neither."""
    return p is not None and 0 < p < 1 and min(p, 1 - p) * NEAR <= 1


def _consistent_as_rendered(case: SwarmBoard) -> bool:
    return case.board == render(case.position)


HOLDS = {
    ONE_WIDE: lambda case: case.board.width == 1 or case.board.height == 1,
    LARGE_COMPONENT: lambda case: largest_component(render(case.position)) >= LARGE,
    DENSE: lambda case: 2 * len(case.position.mines) >= case.board.size,
    SPARSE: lambda case: (case.board.size >= (24 if 1 in (case.board.width, case.board.height) else 64)
                          and 0 < len(case.position.mines) <= SPARSE_SHARE * case.board.size),
    NO_FLAGS: lambda case: not case.position.flags,
    SOME_FLAGS: lambda case: bool(case.position.flags) and case.position.flags != case.position.mines,
    EVERY_FLAG: lambda case: bool(case.position.mines) and case.position.flags == case.position.mines,
    CLOSED_DIGIT: lambda case: bool(closed_digits(render(case.position))),
    NO_TOTAL: lambda case: case.board.total_mines is None,
    TOTAL: lambda case: case.board.total_mines is not None,
    FEWEST: lambda case: case.board.total_mines == total_range(case.position)[0] and _consistent_as_rendered(case),
    MOST: lambda case: case.board.total_mines == total_range(case.position)[1] and _consistent_as_rendered(case),
    DIGIT_ABOVE: lambda case: _digit_change(case, 1, alone=False),
    DIGIT_BELOW: lambda case: _digit_change(case, -1, alone=False),
    DIGIT_ALONE: lambda case: _digit_change(case, 0, alone=True),
    DIGIT_BEYOND: _digit_beyond,
    FORBIDDEN_FLAG: lambda case: (len(_changed_cells(case)) == 1 and case.board.is_flag(_changed_cells(case)[0])
                                  and no_layout(case.board)),
    TOTAL_BELOW: lambda case: _total_change(case, below=True),
    TOTAL_ABOVE: lambda case: _total_change(case, below=False),
    PAST_32: lambda case: _layouts(case) > COUNT_BOUNDS[PAST_32],
    PAST_64: lambda case: _layouts(case) > COUNT_BOUNDS[PAST_64],
    WIDE_COMPONENT: lambda case: largest_component(render(case.position)) >= WIDE,
    ALL_MINES: lambda case: _every_covered_a_mine(render(case.position), case.position.mines),
    NEAR_CERTAIN: lambda case: any(near_certain(p) for _, p in
                                   count_board(render(case.position), Mode.GLOBAL).probabilities),
}
