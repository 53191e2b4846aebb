"""Shrinking: the smallest board that still shows a finding (same kind, same solvers).

Design, after Hypothesis's shrinker:
* shrink the *choices that built the board* - the hidden mines, the opened cells, the flags,
  the extent, whether the total is shown - so that every candidate renders to a consistent,
  realistic position by construction; a board without a hidden truth (typed by hand, or
  inconsistent) is shrunk by editing the board itself, with the same pass structure;
* first, candidates cropped to a window around one cell (the finding's first, margins 1, 2, 4, 8; then
  others of its cells, or for a count the digits, spread over the board), the first that still shows it:
  on a big board, where every call is dear, a few calls on small boards save the dozens of probes the
  edge-by-edge crops would make;
* quarters and halves before edges: a big shape keeps a quarter, else a half, while one still shows the
  finding (a call on a board a quarter or half the size each time, so each call is cheaper than the last),
  then the edges are cropped row by row;
* a budget in calls and CPU seconds that follows what the shrink needs (``patience``): it goes on while
  it finds a smaller board within a few times the cost of a check on the last one found, so a slow engine's
  shrink of a big board is not cut short while each step still pays, and one that finds nothing stops soon;
* passes are data: a named list, each pass small, run in order to a fixed point;
* big steps first with an adaptive search (probe 1, 2, 4, ... then bisect: O(log n) calls)
  and chunked deletion (halves, quarters, ... single elements), so the final round of
  single-element steps makes the result 1-minimal for every pass;
* deterministic: no randomness, candidates in a fixed order, first success kept; a candidate met again (the
  last round of passes meets the round before's) is not checked again;
* each candidate reruns only the finding's solver and its reference;
* a crash keeps its exception and the function that raised it (``check.fingerprint``), as Hypothesis and
  ClusterFuzz keep a crash's origin: another crash on a smaller board is another bug;
* the finding's numeric edge is kept (``minecheck.check.numerals.edge_of``): a count that wraps at
  2**64 shows only on a board with more than 2**64 layouts, and a smaller board that is wrong for
  another reason is another finding, not this one shrunk.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from minecheck.boards.generators import generate
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import WHOLE_BOARD, Finding, Kind
from minecheck.check.fingerprint import arithmetic, face, fingerprint
from minecheck.check.numerals import edge_of
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board, crop_cell, neighbours
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.budget import DEFAULT_BUDGET, Budget
from minecheck.model.position import Position, position_of, render
from minecheck.model.solver import Solver
from minecheck.running.catalogue import is_lp_solver
from minecheck.running.sandbox import thread_cpu

SAME_SHAPE = (Kind.CRASH, Kind.TIMEOUT, Kind.PROTOCOL)  # kept to their exception or complaint while shrinking: one
# crash may not slip into another on the way down (a ValueError's board shrank to 1x1/H, an IndexError's)
Shape = Position | Board  # what is shrunk: the choices behind a board, or the board itself
Predicate = Callable[[Board, tuple[int, int]], Finding | None]  # a candidate board (and where its top-left
# cell was on the finding's board) -> the finding it still shows, or None


@dataclass
class ShrinkStats:
    """How the shrink went: predicate calls, time, cells before and after, passes that helped."""

    calls: int = 0
    seconds: float = 0.0
    cells_before: int = 0
    cells_after: int = 0
    covered_before: int = 0
    covered_after: int = 0
    successes: dict[str, int] = field(default_factory=dict)
    cut_short: bool = False  # stopped by max_calls or the time budget: smaller, but maybe not 1-minimal
    stopped: str = ""  # what cut it short, in words


@dataclass(frozen=True)
class Shrunk:
    finding: Finding  # the finding as shown by the smallest board
    board: Board
    stats: ShrinkStats
    shape: Shape | None = None  # what the board was shrunk as (its position, where it has one): a cause starts here


def still_shows(finding: Finding, budget: Budget | None = DEFAULT_BUDGET, solver: Solver | None = None,
                judge_undeclared: bool = False) -> Callable[[Board], Finding | None]:
    """The predicate: rerun the finding's solver and reference on a board; the matching finding or None.

    The solver is made again from its name (``finding.subject``), unless the solver object itself is
    given: one that no name makes, such as a function handed to ``minecheck.testing.assert_agree``.
    """
    if finding.kind is Kind.DECISION:
        raise ValueError("a decision finding is shrunk with its game's predicate (minecheck.play.decisions."
                         "still_decides_badly), not by a cross-check")
    reference_kind = finding.kind is Kind.REFERENCE
    rerun = solver if solver is not None else finding.subject
    subjects = [] if reference_kind else [rerun]
    references = [rerun] if reference_kind else []
    edge = edge_of(finding)
    shape = fingerprint(finding).shape if finding.kind in SAME_SHAPE else None

    def check(board: Board, origin: tuple[int, int] = (0, 0)) -> Finding | None:  # a solver keeps no cells
        if finding.mode is Mode.GLOBAL and board.total_mines is None:
            return None
        for c in check_board(board, subjects, [finding.mode], references, budget=budget,
                             judge_undeclared=judge_undeclared):
            for f in c.findings:
                if (f.kind is finding.kind and f.subject == finding.subject and edge_of(f) == edge
                        and (shape is None or fingerprint(f).shape == shape)):
                    return f
        return None

    return check


MISREADINGS = (Kind.VERDICT, Kind.COUNT, Kind.PROBABILITY, Kind.CONSISTENCY)  # the wrong answers a cause is
# shrunk for: what a solver says of the board (a crash, a timeout, a broken answer keep their origin)
CAUSE_CALLS = 200  # checks a cause's shrink makes at most: it starts from a board already shrunk


def has_cause(finding: Finding) -> bool:
    """Whether the finding's minimal cause is looked for: a wrong answer of a solver under test, on a board."""
    return finding.kind in MISREADINGS and has_board(finding)


def still_wrong(finding: Finding, budget: Budget | None = DEFAULT_BUDGET, solver: Solver | None = None,
                judge_undeclared: bool = False) -> Predicate:
    """The predicate of a finding's minimal cause: the same solver, in the same mode, still gives a wrong
    answer of the same class, whatever its kind (a verdict's board may shrink to a count's, a possible board
    to an impossible one): a misreading of the board stays a misreading, an arithmetic face (a rounding, an
    overflow, a wrap: ``fingerprint.arithmetic``) stays that face.  One interestingness test per class, as
    C-Reduce keeps one: the faces of one misreading shrink to the same few boards."""
    rerun = solver if solver is not None else finding.subject
    own = face(fingerprint(finding).key)

    def check(board: Board, origin: tuple[int, int] = (0, 0)) -> Finding | None:
        if finding.mode is Mode.GLOBAL and board.total_mines is None:
            return None
        for c in check_board(board, [rerun], [finding.mode], [finding.reference], budget=budget,
                             judge_undeclared=judge_undeclared):
            for f in c.findings:
                seen = face(fingerprint(f).key)
                if f.kind in MISREADINGS and (seen == own if arithmetic(own) else not arithmetic(seen)):
                    return f
        return None

    return check


def minimal_cause(finding: Finding, budget: Budget | None = DEFAULT_BUDGET, seconds: float | None = None,
                  solver: Solver | None = None, judge_undeclared: bool = False, patience: float | None = None,
                  cost: float | None = None, start: Shape | None = None) -> Shrunk:
    """A shrunk finding's board shrunk on, by ``still_wrong``: the smallest board on which its solver still
    misreads (``campaigns.bugs`` merges two bugs whose causes are one board).  Bounded as ``shrink`` is;
    ``start``: the shrink's own end (``Shrunk.shape``), its hidden mines kept."""
    return shrink(finding, budget, max_calls=CAUSE_CALLS, seconds=seconds, solver=solver,
                  predicate=still_wrong(finding, budget, solver, judge_undeclared), judge_undeclared=judge_undeclared,
                  patience=patience, cost=cost, start=start, pairs=True)


def has_board(finding: Finding) -> bool:
    """Whether the finding can be shrunk: general random LPs have no board, and a board whose whole
    check failed (its worker died) names no single solver to rerun."""
    if finding.detail == WHOLE_BOARD:
        return False
    return not (is_lp_solver(finding.subject) and not finding.detail.startswith("relaxation"))


def shrink(finding: Finding, budget: Budget | None = DEFAULT_BUDGET, max_calls: int = 2000,
           seconds: float | None = None, solver: Solver | None = None, predicate: Predicate | None = None,
           until: float | None = None, judge_undeclared: bool = False, patience: float | None = None,
           cost: float | None = None, start: Shape | None = None, pairs: bool = False) -> Shrunk:
    """Shrink the finding's board to a 1-minimal one (for the passes) that still shows it, each check's
    solvers run within ``budget`` (None: in this process).

    ``max_calls`` and ``seconds`` (CPU seconds, this process's and its solvers') bound the work, so
    a busy machine shrinks as far as a quiet one; a shrink cut short is still a valid, smaller
    board, and its stats say it was cut short.  ``solver``: the finding's solver as an object,
    when no name makes it (see ``still_shows``).  ``predicate``: what "still shows it" means, when not
    a cross-check of the finding's solver (a game's decision: its player must still make the move).
    ``until``: a wall-clock time (``time.time()``) past which no more candidates are tried, the end of a
    campaign's time budget (which, unlike the CPU bounds, depends on the machine's load).
    ``patience``: stop once the CPU spent since the last smaller board passes ``patience`` times the CPU of the
    check that found it (``cost``: the check on the finding's board, before one is found), at least
    ``PATIENCE_FLOOR``, and ``PATIENCE_CALLS`` checks were made since: a budget that grows with each step that
    pays, and ends a shrink that finds nothing.  The first windows do not count against it.
    ``start``: the shape the finding's board was made from, when known (a shrink's end, ``Shrunk.shape``).
    ``pairs``: last, try each two neighbouring cells side by side (``PAIR_PASS``), as a minimal cause does.
    """
    if not has_board(finding):
        raise ValueError("a finding on a general LP has no board to shrink")
    began, cpu_start = time.perf_counter(), cpu_seconds()
    board = parse_board(finding.board)
    known = start is not None and _seen(_board_of(start)) == _seen(board)
    shape: Shape = start if known else _start_shape(finding, board)
    predicate = predicate or still_shows(finding, budget, solver, judge_undeclared)
    stats = ShrinkStats(cells_before=board.size, covered_before=len(board.covered))
    best = finding
    origin = (0, 0)  # where the shape's top-left cell is on the finding's board: a player's state may name cells
    passed: tuple[Shape, tuple[int, int]] | None = None  # the last candidate that still showed it, and its origin
    passes = POSITION_PASSES if isinstance(shape, Position) else BOARD_PASSES
    if pairs:
        passes = [*passes, PAIR_PASS]

    last = {"at": cpu_start, "cost": cost, "calls": None}  # when the last smaller board was found: CPU, its
    # check's CPU, calls made (None: in the first windows, which the patience does not count)

    def exhausted() -> bool:
        now = cpu_seconds()
        stalled = (patience is not None and last["cost"] is not None and last["calls"] is not None
                   and now - last["at"] > max(PATIENCE_FLOOR, patience * last["cost"])
                   and stats.calls - last["calls"] >= PATIENCE_CALLS)
        why = ("its cap of CPU seconds ran out" if seconds is not None and now - cpu_start > seconds
               else f"no smaller board within {patience:g} times the last one's check" if stalled
               else "the campaign's time budget ran out" if until is not None and time.time() > until
               else f"{max_calls} checks made" if stats.calls >= max_calls else "")
        if why and not stats.cut_short:
            stats.cut_short, stats.stopped = True, why
        return stats.cut_short

    tried: dict[tuple[Shape, tuple[int, int]], Finding | None] = {}  # each candidate checked once: the predicate
    # is deterministic, as Hypothesis's shrinker assumes when it caches a test case by its choices

    def test(candidate: Shape, moved: tuple[int, int] = (0, 0)) -> bool:
        """Whether the candidate still shows the finding; ``moved``: rows and columns a crop took off
        its top and left."""
        nonlocal best, passed
        at = (origin[0] + moved[0], origin[1] + moved[1])
        if (candidate, at) in tried:  # met again (the last round of passes retries the round before's)
            found = tried[candidate, at]
            if found is not None:
                best, passed = found, (candidate, at)
            return found is not None
        if exhausted():
            return False
        stats.calls += 1
        before = cpu_seconds()
        try:
            found = predicate(_board_of(candidate), at)
        except ValueError:
            found = None  # an edit that makes no board (e.g. cropped to nothing)
        tried[candidate, at] = found
        if found is not None:
            best, passed = found, (candidate, at)
            now = cpu_seconds()
            last.update(at=now, cost=now - before, calls=stats.calls)
        return found is not None

    for sides in _windows(board, finding.cells):  # one call on a small board can save dozens on a big one
        try:
            candidate = (_crop if isinstance(shape, Position) else _board_crop)(shape, *sides)
        except ValueError:  # a cell off the board (a finding edited by hand): no window there
            continue
        if test(candidate, (sides[0], sides[2])):
            assert passed is not None
            shape, origin = candidate, passed[1]
            stats.successes["crop to the finding"] = 1
            break
    last.update(at=cpu_seconds(), calls=stats.calls)  # the windows are few and fixed: patience counts from here

    changed = True
    while changed and not exhausted():
        changed = False
        for name, run_pass in passes:
            new = run_pass(shape, test)
            if new is not None and _smaller(new, shape):
                assert passed is not None and passed[0] == new, f"{name} returned a shape it did not test"
                shape, origin, changed = new, passed[1], True
                stats.successes[name] = stats.successes.get(name, 0) + 1
    final = _board_of(shape)
    stats.seconds = time.perf_counter() - began
    stats.cells_after, stats.covered_after = final.size, len(final.covered)
    shown = replace(best, board=format_board(final), recipe=finding.recipe, index=finding.index)
    return Shrunk(shown, final, stats, shape)


PATIENCE_FLOOR = 3.0  # CPU seconds a shrink with a patience may always spend looking for the next smaller board
PATIENCE_CALLS = 8  # and checks (a round of quarters and halves), whatever they cost
WINDOW_MARGINS = (1, 2, 4, 8)  # rows and columns kept around the finding's first cell, tried first, smallest first
OTHER_MARGINS = (2, 4)  # ... around the other anchors
ANCHORS = 8  # cells a window is tried around: the finding's, spread over them, or (none) the digits'


def _windows(board: Board, cells: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
    """The crops to try first, each keeping a window of the board around one anchor cell: the finding's first
    cell (one cell that differs shows the kind), then others of its cells spread over the board, or where it
    names none (a count), digits spread over the board; each window once, none that is the whole board."""
    cells = tuple(c for c in cells if 0 <= c < board.size)
    pool = cells or tuple(board.digits)
    step = max(1, len(pool) // ANCHORS)
    anchors = ([pool[0]] if cells else []) + list(pool[step // 2 if not cells else step::step])[:ANCHORS]
    out: list[tuple[int, int, int, int]] = []
    for n, anchor in enumerate(anchors):
        for margin in WINDOW_MARGINS if n == 0 and cells else OTHER_MARGINS:
            sides = _window(board, (anchor,), margin)
            if any(sides) and sides not in out:
                out.append(sides)
    return out


def _window(board: Board, cells: tuple[int, ...], margin: int) -> tuple[int, int, int, int]:
    """Rows and columns to crop off the top, bottom, left and right to keep ``margin`` around these cells."""
    rows = [c // board.width for c in cells]
    cols = [c % board.width for c in cells]
    return (max(0, min(rows) - margin), max(0, board.height - 1 - max(rows) - margin),
            max(0, min(cols) - margin), max(0, board.width - 1 - max(cols) - margin))


def cpu_seconds() -> float:
    """CPU time of this thread and of its sandboxed solver runs (``sandbox.thread_cpu``): a pool
    worker's earlier tasks do not count against this shrink, so the budget stops it where it would
    stop in a fresh process."""
    return thread_cpu()


def _start_shape(finding: Finding, board: Board) -> Shape:
    """What the board is shrunk as: its position (its hidden mines, or its recipe's), else the board itself.
    A recipe counts only where it makes this board: a shrunk finding keeps its big board's recipe, and a
    shrink started from that recipe would start over from the big board."""
    if board.truth is not None:
        return position_of(board)
    if finding.recipe is not None:
        made = generate(finding.recipe)
        if _seen(_board_of(made)) == _seen(board):
            return made
    return board


def _seen(board: Board) -> tuple:
    """A board as the player sees it (its text), without the hidden mines the text may not carry."""
    return board.width, board.height, board.cells, board.total_mines


def _board_of(shape: Shape) -> Board:
    return render(shape) if isinstance(shape, Position) else shape


def _size(shape: Shape) -> tuple[int, ...]:
    """Smaller is better: cells, then opened cells, then mines, flags, a shown total."""
    if isinstance(shape, Position):
        return (shape.width * shape.height, len(shape.opened), len(shape.mines), len(shape.flags),
                int(shape.show_total))
    return (shape.size, len(shape.digits), len(shape.covered), len(shape.flags), int(shape.total_mines is not None),
            shape.total_mines or 0,  # a lower total is smaller too: board passes may lower it
            sum(shape.cells[d] for d in shape.digits))  # and lower digits (1x2 "8/H" shrinks to "2/H")


def _smaller(a: Shape, b: Shape) -> bool:
    return _size(a) < _size(b)


# -- search helpers ---------------------------------------------------------------------------------

def find_integer(works: Callable[[int], bool]) -> int:
    """The largest n with works(n) (works(0) assumed): probe 1, 2, 4, ... then bisect - O(log n) calls."""
    if not works(1):
        return 0
    low, high = 1, 2
    while works(high):
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        if works(mid):
            low = mid
        else:
            high = mid
    return low


def delete_chunks(items: list, attempt: Callable[[list], bool]) -> list:
    """Remove chunks of halving size while attempt(remaining) holds; ends with single items (1-minimal)."""
    size = max(1, len(items) // 2)
    while items:
        i, progressed = 0, False
        while i < len(items):
            candidate = items[:i] + items[i + size:]
            if attempt(candidate):
                items, progressed = candidate, True
            else:
                i += size
        if size == 1 and not progressed:
            break
        size = max(1, size // 2)
    return items


# -- position passes: every candidate is a consistent position by construction --------------------

def _crop(pos: Position, top: int, bottom: int, left: int, right: int) -> Position:
    w, h = pos.width - left - right, pos.height - top - bottom
    if w < 1 or h < 1:
        raise ValueError("cropped to nothing")

    def keep(cells: Iterable[int]) -> frozenset[int]:
        moved = (crop_cell(pos.width, c, top, left, w, h) for c in cells)
        return frozenset(c for c in moved if c is not None)

    return Position(w, h, keep(pos.mines), keep(pos.opened), keep(pos.flags), pos.show_total)


def _crop_pass(side: str, crop: Callable[..., Shape]) -> Callable:
    """Crop rows or columns at one edge, as many as still show the finding (probe, double, bisect)."""
    def run(shape: Shape, test) -> Shape | None:
        def cropped(n: int) -> Shape:
            return crop(shape, *(n if s == side else 0 for s in ("top", "bottom", "left", "right")))

        def works(n: int) -> bool:
            try:
                return test(cropped(n), (n if side == "top" else 0, n if side == "left" else 0))
            except ValueError:
                return False

        n = find_integer(works)
        return cropped(n) if n else None
    return run


HALVE_ABOVE = 16  # cells: a bigger shape is first halved (a half kept while it still shows the finding)
QUARTER_ABOVE = 64  # cells: a bigger shape tries its quarters before its halves


def _halve_pass(crop: Callable[..., Shape]) -> Callable:
    """Keep one quarter, else one half of the shape (left, right, top, bottom; the longer side first) while one
    still shows the finding: each call on a board a quarter or half the size of the last, so a strip of a
    thousand columns costs about two calls on the whole board, where cropping an edge probes it a dozen times,
    and a slow engine's big board reaches a few dozen cells in a few calls on boards ever cheaper."""
    def run(shape: Shape, test) -> Shape | None:
        kept, down, right = None, 0, 0
        while shape.width * shape.height > HALVE_ABOVE:
            w, h = shape.width, shape.height
            halves = [((0, 0, 0, w // 2), (0, 0)), ((0, 0, w // 2, 0), (0, w // 2))] if w > 1 else []
            tall = [((0, h // 2, 0, 0), (0, 0)), ((h // 2, 0, 0, 0), (h // 2, 0))] if h > 1 else []
            quartered = min(w, h) > 1 and w * h > QUARTER_ABOVE
            quarters = [((top, bottom, left, right), (top, left)) for top, bottom in ((0, h // 2), (h // 2, 0))
                        for left, right in ((0, w // 2), (w // 2, 0))] if quartered else []
            for sides, (dr, dc) in quarters + (halves + tall if w >= h else tall + halves):
                candidate = crop(shape, *sides)
                if test(candidate, (down + dr, right + dc)):
                    shape, kept, down, right = candidate, candidate, down + dr, right + dc
                    break
            else:
                break
        return kept
    return run


def _set_pass(attribute: str, make: Callable[[Position, frozenset[int]], Position]) -> Callable:
    """Delete members of one of the position's sets (opened cells, mines, flags) in chunks."""
    def run(pos: Position, test) -> Position | None:
        members = sorted(getattr(pos, attribute))

        def attempt(kept: list[int]) -> bool:
            try:
                return test(make(pos, frozenset(kept)))
            except ValueError:
                return False

        kept = delete_chunks(members, attempt)
        return make(pos, frozenset(kept)) if len(kept) < len(members) else None
    return run


def _hide_total(pos: Position, test) -> Position | None:
    if not pos.show_total:
        return None
    candidate = replace(pos, show_total=False)
    return candidate if test(candidate) else None


POSITION_PASSES: list[tuple[str, Callable]] = [
    ("keep a half", _halve_pass(_crop)),
    ("crop top", _crop_pass("top", _crop)),
    ("crop bottom", _crop_pass("bottom", _crop)),
    ("crop left", _crop_pass("left", _crop)),
    ("crop right", _crop_pass("right", _crop)),
    ("unopen cells", _set_pass("opened", lambda p, kept: replace(p, opened=kept))),
    ("drop flags", _set_pass("flags", lambda p, kept: replace(p, flags=kept))),
    ("remove mines", _set_pass("mines", lambda p, kept: replace(p, mines=kept, flags=p.flags & kept))),
    ("hide total", _hide_total),
]


# -- board passes: direct edits, for boards without a hidden truth ---------------------------------

def _board_crop(board: Board, top: int, bottom: int, left: int, right: int) -> Board:
    w, h = board.width - left - right, board.height - top - bottom
    if w < 1 or h < 1:
        raise ValueError("cropped to nothing")
    cells = tuple(board.cells[r * board.width + c] for r in range(top, board.height - bottom)
                  for c in range(left, board.width - right))
    flags = sum(1 for v in cells if v == FLAG)
    total = board.total_mines
    if total is not None:
        total = max(flags, min(total, w * h))
    return Board(w, h, cells, total)


def _board_cover_pass(kind: str) -> Callable:
    """Turn digits (or flags) into covered cells, in chunks."""
    def run(board: Board, test) -> Board | None:
        members = list(board.digits if kind == "digits" else board.flags)

        def make(kept: list[int]) -> Board:
            gone = set(members) - set(kept)
            cells = tuple(COVERED if i in gone else v for i, v in enumerate(board.cells))
            return Board(board.width, board.height, cells, board.total_mines)

        kept = delete_chunks(members, lambda k: test(make(k)))
        return make(kept) if len(kept) < len(members) else None
    return run


def _board_lower_total(board: Board, test) -> Board | None:
    if board.total_mines is None:
        return None
    flags = len(board.flags)

    def lowered(n: int) -> Board:
        return Board(board.width, board.height, board.cells, board.total_mines - n)

    n = find_integer(lambda n: board.total_mines - n >= flags and test(lowered(n)))
    if n:
        return lowered(n)
    unknown = Board(board.width, board.height, board.cells, None)
    return unknown if test(unknown) else None


def _board_lower_digits(board: Board, test) -> Board | None:
    """Lower each digit as far as the finding still shows: one impossible digit, many values of it."""
    cells = list(board.cells)
    for d in board.digits:
        def lowered(n: int, d: int = d) -> Board:
            return Board(board.width, board.height, tuple(cells[:d] + [cells[d] - n] + cells[d + 1:]),
                         board.total_mines)

        n = find_integer(lambda n, d=d: cells[d] - n >= 0 and test(lowered(n)))
        cells[d] -= n
    new = Board(board.width, board.height, tuple(cells), board.total_mines)
    return new if new.cells != board.cells else None


BOARD_PASSES: list[tuple[str, Callable]] = [
    ("keep a half", _halve_pass(_board_crop)),
    ("crop top", _crop_pass("top", _board_crop)),
    ("crop bottom", _crop_pass("bottom", _board_crop)),
    ("crop left", _crop_pass("left", _board_crop)),
    ("crop right", _crop_pass("right", _board_crop)),
    ("cover digits", _board_cover_pass("digits")),
    ("drop flags", _board_cover_pass("flags")),
    ("lower the total", _board_lower_total),
    ("lower digits", _board_lower_digits),
]


def _pairs(shape: Shape) -> Iterable[tuple[int, int]]:
    """Every two neighbouring cells (across a corner too), in cell order."""
    for cell in range(shape.width * shape.height):
        for other in neighbours(shape.width, shape.height, cell):
            if other > cell:
                yield cell, other


def _pair_pass(shape: Shape, test) -> Shape | None:
    """Keep two neighbouring cells side by side, the first pair that still shows it: a cause across a corner
    (a flag diagonal to a 0) is no crop, and a minimal cause that stopped at the 2x2 around it told two faces of
    one misreading apart (bench/bugs.py, flags-ignored: 2x2 HF/0H against 2x1 F0)."""
    if shape.width * shape.height <= 2:
        return None
    for pair in _pairs(shape):
        if isinstance(shape, Position):
            def kept(cells: frozenset[int], pair=pair) -> frozenset[int]:
                return frozenset(i for i, cell in enumerate(pair) if cell in cells)
            candidate = Position(2, 1, kept(shape.mines), kept(shape.opened), kept(shape.flags), shape.show_total)
        else:
            cells = tuple(shape.cells[cell] for cell in pair)
            total = None if shape.total_mines is None else max(cells.count(FLAG), min(shape.total_mines, 2))
            candidate = Board(2, 1, cells, total)
        if test(candidate):
            return candidate
    return None


PAIR_PASS = ("keep two neighbours", _pair_pass)
