"""Seeded boards: every board is reproducible from (generator, parameters, seed) on any machine.

* ``reveal``: random mines, each safe cell opened with a given probability (article 000's check);
* ``play``: a real game - a safe first click with its 3x3 neighbourhood, openings flood-filled,
  cells opened and flagged by sound deduction until stuck, optionally continued by guesses;
* ``stress``: large loose frontiers from many extra safe openings, to push the counter;
* ``contradict``: boards that cannot be, a digit or the total changed (minecheck.boards.contradictions);
* ``edge``: the boards that people forget (``EDGE_SHAPES``): one cell wide or tall, 1x1, no digit,
  every safe cell opened, every mine flagged, the total at the fewest or the most mines the digits
  allow, mines packed densely.

Randomness comes from ``random.Random`` seeded with an integer derived by SHA-256 from the
recipe, so the stream does not depend on the platform or on PYTHONHASHSEED.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import random
from dataclasses import dataclass, replace

from minecheck.engine.constraints import Component, build_constraints
from minecheck.engine.sweep import sweep_order
from minecheck.model.board import Board, neighbours
from minecheck.model.position import Position, open_cell, render

LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


@dataclass(frozen=True)
class Recipe:
    """How to make one board again: the generator's name, its parameters, the seed."""

    generator: str
    params: tuple[tuple[str, object], ...]
    seed: int

    def describe(self) -> str:
        args = " ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.generator} {args} seed={self.seed}".replace("  ", " ")


def rng_for(recipe: Recipe, salt: str = "") -> random.Random:
    text = f"{recipe.generator}|{recipe.params!r}|{recipe.seed}|{salt}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def recipe(generator: str, seed: int, **params: object) -> Recipe:
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    return Recipe(generator, tuple(sorted(params.items())), seed)


def generate(rec: Recipe) -> Position | Board:
    """The position a recipe makes (render() turns it into a Board), or, for a board that cannot be
    (``contradict``), the board itself: no position is behind it."""
    return GENERATORS[rec.generator](rec, **dict(rec.params))


def generate_board(rec: Recipe) -> Board:
    made = generate(rec)
    return made if isinstance(made, Board) else render(made)


# -- reveal ----------------------------------------------------------------------------------

def reveal(rec: Recipe, width: int = 5, height: int = 4, density: float = 0.18,
           open_prob: float = 0.45, show_total: bool = True) -> Position:
    """Independent mines with the given density; each safe cell opened with probability open_prob."""
    rng = rng_for(rec)
    cells = range(width * height)
    mines = frozenset(c for c in cells if rng.random() < density)
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    return Position(width, height, mines, opened, frozenset(), show_total)


# -- play ------------------------------------------------------------------------------------

def play(rec: Recipe, level: str = "", width: int = 9, height: int = 9, mines: int = 10,
         guesses: int = 0) -> Position:
    """A game played by sound deduction until stuck; ``guesses`` safest-cell guesses continue it."""
    if level:
        width, height, mines = LEVELS[level]
    if mines > width * height - 9:
        raise ValueError(f"{mines} mines do not fit a {width}x{height} board with a safe first click")
    for attempt in range(100):  # a game solved outright is no position; deal again
        pos = _play_once(rng_for(rec, str(attempt)), width, height, mines, guesses)
        if len(pos.opened) + len(pos.flags) < width * height:
            return pos
    return pos


def _play_once(rng: random.Random, width: int, height: int, mines: int, guesses: int) -> Position:
    first = rng.randrange(width * height)
    keep_clear = set(neighbours(width, height, first)) | {first}
    spots = [c for c in range(width * height) if c not in keep_clear]
    return play_out(Position(width, height, frozenset(rng.sample(spots, mines)), frozenset()), first, guesses)


def play_out(pos: Position, first: int, guesses: int = 0) -> Position:
    """Play a dealt position: open ``first``, then deduce until stuck; ``guesses`` safest guesses continue it."""
    width, height = pos.width, pos.height
    pos = open_cell(pos, first)
    left = guesses
    while True:
        pos = deduce(pos)
        if len(pos.opened) + len(pos.mines) == width * height or left == 0:
            return pos
        cell = safest_guess(pos)
        if cell in pos.mines:
            return pos  # the guess would lose: the stuck position is the board
        pos = open_cell(pos, cell)
        left -= 1


def deduce(pos: Position) -> Position:
    """Open every provably safe cell and flag every provable mine, until nothing more follows."""
    from minecheck.engine.counter import count_board  # the counter is the sound deduction

    while True:
        pos, moved = _trivial_moves(pos)
        if moved:
            continue
        count = count_board(render(pos))
        safe = [c for c, p in count.probabilities if p == 0]
        mine = [c for c, p in count.probabilities if p == 1]
        if not safe and not mine:
            return pos
        pos = replace(pos, flags=pos.flags | frozenset(mine))
        for c in safe:
            pos = open_cell(pos, c)


def _trivial_moves(pos: Position) -> tuple[Position, bool]:
    """One pass of the single-digit rules (all mines found / all covered are mines)."""
    board = render(pos)
    opened, flags = set(), set()
    for d in board.digits:
        around = board.neighbours(d)
        covered = [n for n in around if board.is_covered(n)]
        if not covered:
            continue
        need = board.cells[d] - sum(1 for n in around if board.is_flag(n))
        if need == 0:
            opened.update(covered)
        elif need == len(covered):
            flags.update(covered)
    pos = replace(pos, flags=pos.flags | frozenset(flags))
    for c in sorted(opened):
        pos = open_cell(pos, c)
    return pos, bool(opened or flags)


def safest_guess(pos: Position) -> int:
    """The covered cell with the lowest exact mine probability (lowest index on ties)."""
    from minecheck.engine.counter import count_board

    count = count_board(render(pos))
    return min((p, c) for c, p in count.probabilities if p is not None)[1]


# -- stress ----------------------------------------------------------------------------------

def stress(rec: Recipe, width: int = 30, height: int = 16, density: float = 0.2,
           open_prob: float = 0.3, show_total: bool = True) -> Position:
    """Many scattered single openings (no flood fill): large, loosely constrained frontiers."""
    rng = rng_for(rec)
    cells = list(range(width * height))
    mines = frozenset(rng.sample(cells, round(density * len(cells))))
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    return Position(width, height, mines, opened, frozenset(), show_total)


# -- edge: the boards that people forget -----------------------------------------------------

# shape: ranges (low, high), drawn uniformly, for the width, the height, the share of the cells that are
# mines, the chance that a safe cell is opened and the chance that a mine is flagged (sizes are named
# WxH, as in board headers)
EDGE_RECIPES: dict[str, tuple[tuple[float, float], ...]] = {
    "1xN": ((1, 1), (2, 12), (0.1, 0.5), (0.3, 0.9), (0.0, 0.5)),  # one column
    "Nx1": ((2, 12), (1, 1), (0.1, 0.5), (0.3, 0.9), (0.0, 0.5)),  # one row
    "1x1": ((1, 1), (1, 1), (0.0, 1.0), (0.5, 0.5), (0.5, 0.5)),  # covered, a mine, a 0 or a flag
    "no-digit": ((1, 6), (1, 6), (0.0, 0.5), (0.0, 0.0), (0.0, 0.5)),  # nothing opened
    "all-opened": ((1, 6), (1, 6), (0.0, 0.3), (1.0, 1.0), (0.0, 0.5)),  # every safe cell opened
    "all-flagged": ((1, 6), (1, 6), (0.1, 0.4), (0.2, 0.8), (1.0, 1.0)),  # every mine flagged
    "fewest-mines": ((2, 7), (2, 7), (0.1, 0.35), (0.3, 0.7), (0.0, 0.3)),  # M = flags + the fewest the digits allow
    "most-mines": ((2, 7), (2, 7), (0.1, 0.35), (0.3, 0.7), (0.0, 0.3)),  # M = flags + the most the digits allow
    "dense": ((2, 7), (2, 7), (0.5, 0.95), (0.7, 1.0), (0.0, 0.3)),  # half the cells or more: digits up to 8
}
EDGE_SHAPES = tuple(EDGE_RECIPES)


def edge(rec: Recipe, shape: str = "") -> Position:
    """A board of a shape where solvers break (EDGE_SHAPES); without ``shape`` the seed picks one, so a
    campaign's edge boards cover every shape."""
    rng = rng_for(rec)
    if not shape:
        shape = EDGE_SHAPES[rng.randrange(len(EDGE_SHAPES))]
    if shape not in EDGE_RECIPES:
        raise ValueError(f"unknown edge shape {shape!r}; known: {', '.join(EDGE_SHAPES)}")
    (w_low, w_high), (h_low, h_high), density, open_prob, flag_prob = EDGE_RECIPES[shape]
    width, height = rng.randint(int(w_low), int(w_high)), rng.randint(int(h_low), int(h_high))
    pos = scatter(rng, width, height, rng.uniform(*density), rng.uniform(*open_prob), rng.uniform(*flag_prob))
    if shape in ("fewest-mines", "most-mines"):
        return extreme_mines(pos, fewest=shape == "fewest-mines")
    return replace(pos, show_total=rng.random() < 0.75)


def edge_shape(rec: Recipe) -> str:
    """The shape an edge recipe makes: its ``shape`` parameter, or the one its seed picks (as ``edge`` does)."""
    return str(dict(rec.params).get("shape") or EDGE_SHAPES[rng_for(rec).randrange(len(EDGE_SHAPES))])


def scatter(rng: random.Random, width: int, height: int, density: float, open_prob: float,
            flag_prob: float) -> Position:
    """``density`` of the cells are mines (rounded), each safe cell opened and each mine flagged with the
    given chances."""
    cells = range(width * height)
    mines = frozenset(rng.sample(cells, int(density * len(cells) + 0.5)))
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    flags = frozenset(c for c in sorted(mines) if rng.random() < flag_prob)
    return Position(width, height, mines, opened, flags)


def extreme_mines(pos: Position, fewest: bool) -> Position:
    """The same board with its hidden mines moved so that the stated total is the smallest (or largest)
    the digits allow: flags stay, each component takes a layout with the fewest (most) mines, and the
    covered cells off the frontier hold no mine (are all mines).  The digits see the same mines around them."""
    system = build_constraints(render(pos))
    mines = set(pos.flags)
    for component in system.components:
        mines |= extreme_layout(component, fewest)
    if not fewest:
        mines |= set(system.off_frontier)
    return replace(pos, mines=frozenset(mines), show_total=True)


def extreme_layout(component: Component, fewest: bool) -> frozenset[int]:
    """A layout of the component with the fewest (or most) mines its equations allow.

    A dynamic programme over the boxes in the counter's sweep order: its state is what each open
    equation still owes, and its value the set of mine counts the boxes left can hold (a bit mask).
    One backward pass gives the extreme count; a forward walk then picks, box by box, a number of
    mines that keeps it reachable.  As fast as counting, where a search over layouts can take
    exponential time.
    """
    order = [component.boxes[b] for b in sweep_order(component)]
    first, last = {}, {}
    for i, box in enumerate(order):
        for e in box.equations:
            first.setdefault(e, i)
            last[e] = i
    still_open = [tuple(e for e in first if first[e] < i <= last[e]) for i in range(len(order) + 1)]
    later = [{e: sum(len(b.cells) for b in order[i + 1:] if e in b.equations) for e in box.equations}
             for i, box in enumerate(order)]

    def moves(i: int, owes: tuple[int, ...]):
        """Each number of mines box i can take, with the state it leaves."""
        owed = dict(zip(still_open[i], owes)) | {e: component.equations[e].mines for e in order[i].equations
                                                  if first[e] == i}
        for j in range(len(order[i].cells) + 1):
            after = owed | {e: owed[e] - j for e in order[i].equations}
            if all(0 <= after[e] <= later[i][e] for e in order[i].equations):
                yield j, tuple(after[e] for e in still_open[i + 1])

    states: list[dict[tuple[int, ...], list]] = [{(): []}]  # per box: state -> its moves
    for i in range(len(order)):
        for owes, out in states[i].items():
            out.extend(moves(i, owes))
        states.append({nxt: [] for out in states[i].values() for _, nxt in out})
    reachable = [{owes: 1 for owes in states[-1]}]  # per box, backwards: state -> mine counts the rest can hold
    for i in range(len(order) - 1, -1, -1):
        after = reachable[0]
        reachable.insert(0, {owes: functools.reduce(operator.or_, (after[nxt] << j for j, nxt in out), 0)
                             for owes, out in states[i].items()})
    counts = reachable[0][()]
    left = (counts & -counts).bit_length() - 1 if fewest else counts.bit_length() - 1
    chosen, owes = [], ()
    for i, box in enumerate(order):
        j, owes = next((j, nxt) for j, nxt in states[i][owes] if left >= j and reachable[i + 1][nxt] >> (left - j) & 1)
        chosen += box.cells[:j]
        left -= j
    return frozenset(chosen)


def contradict(rec: Recipe, **params) -> Board:
    """Boards that cannot be (minecheck.boards.contradictions): a digit no layout meets, or a total the digits cannot hold."""
    from minecheck.boards.contradictions import contradict as make  # it builds on this module's positions

    return make(rec, **params)


GENERATORS = {"reveal": reveal, "play": play, "stress": stress, "edge": edge, "contradict": contradict}

__all__ = ["Recipe", "recipe", "generate", "generate_board", "GENERATORS", "LEVELS", "EDGE_SHAPES"]
