"""Seeded boards: every board is reproducible from (generator, parameters, seed) on any machine.

* ``reveal``: random mines, each safe cell opened with a given probability (article 000's check);
* ``play``: a real game - a safe first click with its 3x3 neighbourhood, openings flood-filled,
  cells opened and flagged by sound deduction until stuck, optionally continued by guesses; with
  ``flags=False`` the proved mines are left covered, as a player who plays without flags leaves them;
* ``guess``: a small game stuck where the player must guess (no cell known safe), its proved mines left
  covered, drawn until its layouts number from 10 to 1,000 (an engine that enumerates them takes that path);
* ``sample``: seeded samples of the boards of 8 to 12 cells, past the exhaustive sweep, with ``guess=True`` drawn
  until the player must guess on them (minecheck.boards.sample);
* ``stress``: large loose frontiers from many extra safe openings, to push the counter;
* ``contradict``: boards that cannot be, a digit or the total changed (minecheck.boards.contradictions);
* ``small``: every board of at most N cells, once up to turns and mirrors, smallest first, with the
  impossible ones one change away (minecheck.boards.small);
* ``swarm``: each board first draws which rare features it has, then is built to have them
  (swarm testing; minecheck.boards.swarm);
* ``numeric``: boards whose exact answer lands on an edge of a solver's arithmetic (a probability a hair
  from 0, 1 or 1/2, a count just past 2**31 ... 1e308, bit-mask-wide components; minecheck.boards.numeric);
* ``edge``: the boards that people forget (``EDGE_SHAPES``): one cell wide or tall, 1x1, no digit,
  every safe cell opened, every mine flagged, the total at the fewest or the most mines the digits
  allow, mines packed densely, more than 1000 columns (opened at both ends).

A recipe (``minecheck.boards.recipe``) names the generator, its parameters and the seed.
"""

from __future__ import annotations

from dataclasses import replace

from minecheck.boards.contradictions import contradict
from minecheck.boards.layouts import extreme_mines, scatter
from minecheck.boards.mutation import change, recipe_from_json, step_rng
from minecheck.boards.numeric import EDGES, numeric, numeric_edge
from minecheck.boards.player import play_once
from minecheck.boards.positions import decided, endgame, finished, flagfree, opening
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.boards.sample import sample
from minecheck.boards.small import small, small_label
from minecheck.boards.swarm import swarm, swarm_features
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.errors import BadOption
from minecheck.model.position import Position, render

LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


def recipe(generator: str, seed: int, **params: object) -> Recipe:
    if generator not in GENERATORS:
        raise BadOption(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    return Recipe(generator, tuple(sorted(params.items())), seed)


def generate(rec: Recipe) -> Position | Board:
    """The position a recipe makes (render() turns it into a Board), or, for a board that cannot be
    (``contradict``), the board itself: no position is behind it."""
    return MADE[rec.generator](rec, **dict(rec.params))


def generate_board(rec: Recipe) -> Board:
    made = generate(rec)
    return made if isinstance(made, Board) else render(made)


# -- reveal ----------------------------------------------------------------------------------

BAND_TRIES = 200  # draws a reveal board with a band of layouts makes before it keeps the last (rare: 1 in 10,000)


def reveal(rec: Recipe, width: int = 5, height: int = 4, density: float = 0.18, open_prob: float = 0.45,
           show_total: bool = True, fewest_layouts: int = 0, most_layouts: int = 0) -> Position:
    """Independent mines with the given density; each safe cell opened with probability open_prob.  With a
    band (``most_layouts`` > 0), drawn again, from the same seed, until its layouts without the total number
    from ``fewest_layouts`` to ``most_layouts``: a class of board a plain draw meets rarely."""
    tries = BAND_TRIES if most_layouts else 1
    for attempt in range(tries):
        rng = rng_for(rec, f"band {attempt}" if attempt else "")
        cells = range(width * height)
        mines = frozenset(c for c in cells if rng.random() < density)
        opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
        pos = Position(width, height, mines, opened, frozenset(), show_total)
        if tries == 1 or fewest_layouts <= count_board(render(pos), Mode.LOCAL).layouts <= most_layouts:
            break
    return pos


# -- play ------------------------------------------------------------------------------------

def play(rec: Recipe, level: str = "", width: int = 9, height: int = 9, mines: int = 10,
         guesses: int = 0, flags: bool = True) -> Position:
    """A game played by sound deduction until stuck; ``guesses`` safest-cell guesses continue it.  Without
    ``flags`` the same game with its proved mines left covered: many strong players never flag, and an engine
    that reads flags as the player's marks sees only such positions."""
    if level:
        width, height, mines = LEVELS[level]
    if mines > width * height - 9:
        raise BadOption(f"{mines} mines do not fit a {width}x{height} board with a safe first click")
    dealt = replace(rec, params=tuple(p for p in rec.params if p[0] != "flags"))  # with flags or not: one game
    for attempt in range(100):  # a game solved outright is no position; deal again
        pos = play_once(rng_for(dealt, str(attempt)), width, height, mines, guesses)
        if len(pos.opened) + len(pos.flags) < width * height:
            break
    return pos if flags else replace(pos, flags=frozenset())


# -- guess: few layouts, no safe cell, proved mines left covered ------------------------------

GUESS_TRIES = 200  # games a guess board deals before it keeps the last (about one in four is kept: a few tries)


def guess(rec: Recipe, fewest_layouts: int = 10, most_layouts: int = 1000) -> Position:
    """A small game (5 to 9 by 4 to 8 cells, 12% to 22% mines, up to two safest guesses) played until stuck,
    so that no cell is known safe and the player must guess, with at least one proved mine, which is left
    covered (no flags); dealt again, from the same seed, until its layouts without the total number from
    ``fewest_layouts`` to ``most_layouts``.  The position of a bug that needs all three at once (issue 37),
    which a flagged play board or a random reveal meets rarely."""
    for attempt in range(GUESS_TRIES):
        rng = rng_for(rec, str(attempt))
        width, height = rng.randint(5, 9), rng.randint(4, 8)
        mines = max(2, round(rng.uniform(0.12, 0.22) * width * height))
        pos = play_once(rng, width, height, mines, rng.randint(0, 2))
        stuck = len(pos.opened) + len(pos.mines) < width * height
        if stuck and pos.flags and fewest_layouts <= count_board(render(pos), Mode.LOCAL).layouts <= most_layouts:
            break
    return replace(pos, flags=frozenset())


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
    "wide": ((1010, 1040), (1, 2), (0.1, 0.3), (0.6, 0.6), (0.0, 0.3)),  # past 1000 columns, opened at both ends
}
WIDE_ENDS = 6  # columns at each end of a wide board where cells are opened (a few clicks there, none between)
EDGE_SHAPES = tuple(EDGE_RECIPES)


def edge(rec: Recipe, shape: str = "") -> Position:
    """A board of a shape where solvers break (EDGE_SHAPES); without ``shape`` the seed picks one, so a
    campaign's edge boards cover every shape."""
    rng = rng_for(rec)
    if not shape:
        shape = EDGE_SHAPES[rng.randrange(len(EDGE_SHAPES))]
    if shape not in EDGE_RECIPES:
        raise BadOption(f"unknown edge shape {shape!r}; known: {', '.join(EDGE_SHAPES)}")
    (w_low, w_high), (h_low, h_high), density, open_prob, flag_prob = EDGE_RECIPES[shape]
    width, height = rng.randint(int(w_low), int(w_high)), rng.randint(int(h_low), int(h_high))
    pos = scatter(rng, width, height, rng.uniform(*density), rng.uniform(*open_prob), rng.uniform(*flag_prob))
    if shape == "wide":  # cells keyed row * 1000 + column collide past column 999; a few clicks at each end
        ends = {c for c in range(width * height) if c % width < WIDE_ENDS or c % width >= width - WIDE_ENDS}
        pos = replace(pos, opened=pos.opened & ends)
    if shape in ("fewest-mines", "most-mines"):
        return extreme_mines(pos, fewest=shape == "fewest-mines")
    return replace(pos, show_total=rng.random() < 0.75)


def edge_shape(rec: Recipe) -> str:
    """The shape an edge recipe makes: its ``shape`` parameter, or the one its seed picks (as ``edge`` does)."""
    return str(dict(rec.params).get("shape") or EDGE_SHAPES[rng_for(rec).randrange(len(EDGE_SHAPES))])


# -- search: a board changed a few times from another ------------------------------------------

def search(rec: Recipe, parent: str = "", steps: str = "", target: str = "", of: int = -1) -> Position | Board:
    """The board ``parent`` (a recipe as JSON) makes, changed by one round per seed in ``steps`` (comma-separated;
    minecheck.boards.mutation).  ``target`` and ``of`` say, for people, what the campaign's search aimed at and on
    which board it found its parent."""
    made = generate(recipe_from_json(parent))
    for step, seed in enumerate(int(s) for s in steps.split(",") if s):
        made = change(step_rng(seed, step), made)
    return made


def features(rec: Recipe) -> tuple[str, ...]:
    """What a recipe's board is, in words, without building it: a swarm board's drawn features, a small
    board's kind and place ("digit +1 at r0c1"), an edge board's shape, a numeric board's edge; nothing for
    the other generators."""
    params = dict(rec.params)
    if rec.generator == "swarm":
        return swarm_features(rec)
    if rec.generator == "small":
        n, index = int(params.get("n", 4)), int(params.get("index", 0))
        return (f"board {index} of small:{n}", small_label(n, index))
    if rec.generator == "edge":
        return (edge_shape(rec),)
    if rec.generator == "search":
        rounds = len([s for s in str(params.get("steps", "")).split(",") if s])
        return (f"search: {params.get('target', '')} of board {params.get('of', '?')}, {rounds} round(s) of changes",)
    if rec.generator == "numeric":
        edge = numeric_edge(rec)
        return (f"numeric edge {edge}: {EDGES.get(edge, 'unknown')}",)
    return ()


GENERATORS = {"reveal": reveal, "play": play, "stress": stress, "edge": edge, "contradict": contradict, "small": small,
              "swarm": swarm, "numeric": numeric, "guess": guess, "sample": sample, "finished": finished,
              "endgame": endgame, "flagfree": flagfree, "decided": decided, "opening": opening}
MADE = GENERATORS | {"search": search}  # and the campaign's search boards, made from a board, not by --generator

__all__ = ["recipe", "generate", "generate_board", "features", "GENERATORS", "LEVELS", "EDGE_SHAPES"]
