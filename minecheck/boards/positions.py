"""The positions real engines are asked, made by playing (issue 51): random openings and random small boards
rarely are one, so each has a generator of its own.

* ``finished``: the game over, won: every safe cell open, and every mine flagged (no covered cell left), none
  flagged (a player who never flags), or some;
* ``endgame``: a game played on by safest guesses until a dozen cells or fewer are left closed and no cell is
  known safe, its proved mines left unflagged (an engine that keeps what it found to itself), under 1,000 layouts;
* ``flagfree``: a game played on by deduction and a few safest guesses, with every flag taken back, as an engine
  that reads flags as the player's marks sees the board;
* ``decided``: a game played until stuck, its covered cells off every digit decided by the total alone (all safe,
  or all mines) while no frontier cell is certain from the digits;
* ``opening``: a first click on a large board (about 1,200 to 2,000 cells, 1,000 covered or more) and the moves
  single digits prove, flags taken back: the numeric edges of a count on a plain board, without a flag to decline.

The player is the one ``play`` boards use (``player.deduce`` and ``player.safest_guess``, the exact
counter's): a game is dealt from the recipe's seed and played, and dealt again, from the same seed, until it
reaches the position wanted (the tries are bounded; the last one is kept).
"""

from __future__ import annotations

import random
from dataclasses import replace

from minecheck.boards.layouts import extreme_mines
from minecheck.boards.player import deal, stuck_positions, trivial_moves
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.errors import BadOption
from minecheck.model.position import Position, open_cell, render

ENDGAME_CELLS = 12  # closed cells (covered or flagged) an endgame has at most
ENDGAME_LAYOUTS = 1000  # layouts (without the total) an endgame has fewer than
DEALS = 200  # games a generator deals before it keeps the last (most kinds keep one of the first few)


def _small_deal(rng: random.Random) -> tuple[Position, int]:
    """A small game: 5 to 9 by 4 to 8 cells, 10% to 20% mines (at least two)."""
    width, height = rng.randint(5, 9), rng.randint(4, 8)
    return deal(rng, width, height, max(2, round(rng.uniform(0.10, 0.20) * width * height)))


def closed(pos: Position) -> int:
    return pos.width * pos.height - len(pos.opened)


# -- finished --------------------------------------------------------------------------------

def finished(rec: Recipe, flags: str = "") -> Position:
    """A won game: every safe cell open.  Every won game of a deal ends in this one position, whatever the play,
    so none is played.  ``flags``: ``all`` (no covered cell left), ``none`` (the mines covered) or ``some``; without
    it the seed picks (all on half the boards).  The total is stated on three boards in four."""
    rng = rng_for(rec)
    pos, _ = _small_deal(rng)
    if flags not in ("", "all", "none", "some"):
        raise BadOption(f"finished boards have flags all, none or some, not {flags!r}")
    flags = flags or ("all" if rng.random() < 0.5 else rng.choice(("none", "some")))
    marked = {"all": pos.mines, "none": frozenset(),
              "some": frozenset(c for c in sorted(pos.mines) if rng.random() < 0.5)}[flags]
    safe = frozenset(range(pos.width * pos.height)) - pos.mines
    return replace(pos, opened=safe, flags=marked, show_total=rng.random() < 0.75)


# -- endgame ---------------------------------------------------------------------------------

def is_endgame(board: Board) -> bool:
    """A dozen covered cells or fewer, no flag, a covered proved mine, no cell known safe (with the total too, where
    stated), and 2 to 999 layouts without the total: where an engine must guess with few cells left."""
    if board.flags or not 0 < len(board.covered) <= ENDGAME_CELLS:
        return False
    local = count_board(board, Mode.LOCAL)
    if not local.consistent or not 2 <= local.layouts < ENDGAME_LAYOUTS:
        return False
    counts = (local,) if board.total_mines is None else (local, count_board(board, Mode.GLOBAL))
    return (not any(p == 0 for count in counts for _, p in count.probabilities)
            and any(p == 1 for _, p in local.probabilities))


def endgame(rec: Recipe) -> Position:
    """The first stuck position of a small game, played on by safest guesses, that is an endgame once its flags are
    taken back (``is_endgame``); games are dealt again until one gets there."""
    pos = None
    for attempt in range(DEALS):
        rng = rng_for(rec, str(attempt))
        for pos in stuck_positions(*_small_deal(rng)):
            pos = replace(pos, flags=frozenset())
            if closed(pos) <= ENDGAME_CELLS and is_endgame(render(pos)):
                return pos
    return pos


# -- flag-free -------------------------------------------------------------------------------

def flagfree(rec: Recipe, guesses: int = -1) -> Position:
    """A game of 6 to 16 by 5 to 16 cells (12% to 20% mines) played by deduction and ``guesses`` safest guesses (the
    seed draws 0 to 3), stopped where the player must guess, every flag taken back.  A game won outright is dealt
    again."""
    pos = None
    for attempt in range(DEALS):
        rng = rng_for(rec, str(attempt))
        width, height = rng.randint(6, 16), rng.randint(5, 16)
        dealt = deal(rng, width, height, max(3, round(rng.uniform(0.12, 0.20) * width * height)))
        stop = guesses if guesses >= 0 else rng.randint(0, 3)
        for k, pos in enumerate(stuck_positions(*dealt)):  # noqa: B007 (the position the loop stops on is kept)
            if k == stop:
                break
        if len(pos.opened) + len(pos.mines) < width * height:
            return replace(pos, flags=frozenset())
    return replace(pos, flags=frozenset())


# -- the total decides -----------------------------------------------------------------------

def decided(rec: Recipe, mines: str = "") -> Position:
    """A game played until stuck with covered cells off every digit, its hidden mines moved (the digits see the
    same ones) so that the total is the fewest the digits allow (``mines=safe``: every cell off the frontier is
    safe) or the most (``mines=mine``: every one a mine); the seed picks.  Kept where the digits alone make no
    cell certain and the total leaves a frontier cell uncertain (about one game in seven)."""
    if mines not in ("", "safe", "mine"):
        raise BadOption(f"a decided board's cells off the frontier are safe or mine, not {mines!r}")
    pos = None
    for attempt in range(DEALS):
        rng = rng_for(rec, str(attempt))
        fewest = (mines or rng.choice(("safe", "mine"))) == "safe"
        for stuck in stuck_positions(*_small_deal(rng)):
            if not build_constraints(render(stuck)).off_frontier:
                continue
            pos = extreme_mines(stuck, fewest=fewest)
            if _frontier_open(render(pos)):
                return pos
    return pos


def _frontier_open(board: Board) -> bool:
    """No cell on the frontier is certain from the digits, and one at least is not certain with the total either
    (the total settles the cells off the frontier, and may settle some on it)."""
    frontier = set(build_constraints(board).frontier)
    local, total = ([p for c, p in count_board(board, mode).probabilities if c in frontier]
                    for mode in (Mode.LOCAL, Mode.GLOBAL))
    return not any(p in (0, 1) for p in local) and any(p not in (0, 1) for p in total)


# -- a large opening -------------------------------------------------------------------------

def opening(rec: Recipe) -> Position:
    """The first click on a board of 40 to 50 by 30 to 40 cells with 12% to 18% mines, its opening flood-filled and
    one round of the moves single digits prove made, every flag taken back: 1,000 covered cells or more, no flag,
    the total stated.  Dealt again (up to DEALS times) until 1,000 cells are left covered."""
    pos = None
    for attempt in range(DEALS):
        rng = rng_for(rec, str(attempt))
        width, height = rng.randint(40, 50), rng.randint(30, 40)
        pos, first = deal(rng, width, height, round(rng.uniform(0.12, 0.18) * width * height))
        pos, _ = trivial_moves(open_cell(pos, first))  # one round: a large board's cascade costs seconds
        pos = replace(pos, flags=frozenset())
        if closed(pos) >= 1000:
            return pos
    return pos
