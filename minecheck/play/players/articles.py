"""The articles' own programs around their players, ported: what they deal, how they loop, what they print.

**003's ``Main``** plays 100 Intermediate games: game g is ``new MineBoard(16, 16, 40, g)`` (mines
laid by ``layMines`` with ``java.util.Random(g)``, clear of the centre's 3x3) and
``new MineAi(g, 400, 100)``; the first move opens the centre, and a game counts as won when
``hiddenCount() == 0``.  As printed, the first move runs ``board.open`` *before*
``board.layMines``: on a board with no mines yet every cell reads 0, the flood fill opens all
256 cells, the mines are laid under open cells, and the next check finds nothing hidden - every
game "won" without a decision (the program prints 胜率=100.0% and 0.00 ms per decision).  With the
two lines swapped the games are real, and the count is still not Minesweeper's: ``hiddenCount``
counts covered unflagged cells, so a game whose safe cells are all open goes on until every mine
is flagged too, and ``MineAi`` flags only at an estimate >= 0.999, which its sampler rarely gives
the last mines (``H2H``, both mines: 0.7), so it opens one and "loses" a game already won.

``main_003`` plays one such game with the order and the win rule as parameters, and records
both counts: ``hidden_win`` (Main's) and ``safe_won`` (every safe cell open before any mine).

**004's ``MinesweeperDemo.main``** plays one Beginner game: ``Board.placeMines`` with an unseeded
``new Random()`` (seeded here, so games replay) puts 10 mines anywhere, the first click at the
centre may be one, and the loop of ``satdemo@seed`` plays it.  It prints "AI获胜！" when
``board.win`` and otherwise "AI踩到地雷，游戏失败。" (stepped on a mine) - also when the loop ended
because every covered cell was flagged (wrong flags from the defective encoding) or after 100
steps, neither of which opened a mine.  ``demo_004`` records how each game really ended.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from minecheck.model.board import label
from minecheck.model.budget import Budget
from minecheck.play.game import Action, Game, Move, open_cell, play_move, view
from minecheck.play.players.javastate import initial_state
from minecheck.play.players.mineai import SeedMineAi
from minecheck.play.players.satdemo import SeedDemo
from minecheck.solvers.javarand import JavaRandom

WON = "AI获胜！"
LOST = "AI踩到地雷，游戏失败。"


@dataclass(frozen=True)
class ArticleGame:
    """One game of an article's program: its moves, what the program counts, what really happened."""

    seed: int
    mines: frozenset[int]
    moves: tuple[Move, ...]
    counted_win: bool  # what the article's program counts as a win
    safe_won: bool  # every safe cell was open before any mine was (Minesweeper's win)
    ending: str  # how the loop ended, in words


# -- 003 -------------------------------------------------------------------------------------------

def lay_mines_003(rows: int, cols: int, mines: int, g: int) -> frozenset[int]:
    """MineBoard(rows, cols, mines, g).layMines(rows / 2, cols / 2): a partial shuffle with Random(g)."""
    safe_r, safe_c = rows // 2, cols // 2
    candidates = [r * cols + c for r in range(rows) for c in range(cols)
                  if not (abs(r - safe_r) <= 1 and abs(c - safe_c) <= 1)]
    rng = JavaRandom(g)
    for i in range(mines):
        j = i + rng.next_int(len(candidates) - i)
        candidates[i], candidates[j] = candidates[j], candidates[i]
    return frozenset(candidates[:mines])


def main_003(g: int, rows: int = 16, cols: int = 16, mines: int = 40, lay_first: bool = False,
             budget: Budget | None = None) -> ArticleGame:
    """Game g of Main's loop; ``lay_first`` swaps the first move's two lines (the fix)."""
    laid = lay_mines_003(rows, cols, mines, g)
    centre = (rows // 2) * cols + cols // 2
    if not lay_first:  # open on a board without mines: every cell is a 0, the flood fill opens them all
        game = replace(open_cell(Game(cols, rows, frozenset()), centre), mines=laid)
        return ArticleGame(g, laid, (Move(Action.OPEN, centre, "first"),), not _hidden(game), False,
                           f"the first move opened all {len(game.opened)} cells, then {mines} mines were laid "
                           f"under them")
    game = open_cell(Game(cols, rows, laid), centre)
    player = SeedMineAi()
    state = player.start(g)
    moves, safe_won = [Move(Action.OPEN, centre, "first")], False
    while True:
        safe_won = safe_won or game.won
        if not _hidden(game):
            return ArticleGame(g, laid, tuple(moves), True, safe_won, "nothing hidden: counted a win")
        decision = player.decide(view(game), state, budget)
        if decision.error or not decision.moves:
            return ArticleGame(g, laid, tuple(moves), False, safe_won, f"decide gave no move ({decision.error})")
        move, state = decision.moves[0], decision.state
        moves.append(move)
        game = play_move(game, move)
        if game.lost:
            where = label(view(game), move.cell)
            ending = f"opened a mine at {where}" + (" after every safe cell was open" if safe_won else "")
            return ArticleGame(g, laid, tuple(moves), False, safe_won, ending)


def _hidden(game: Game) -> int:
    """MineBoard.hiddenCount(): cells neither open nor flagged."""
    return game.width * game.height - len(game.opened | game.flags)


# -- 004 -------------------------------------------------------------------------------------------

def place_mines_004(rows: int, cols: int, mines: int, seed: int) -> frozenset[int]:
    """Board.placeMines with Random(seed) for its unseeded Random(): cells drawn until ``mines`` differ."""
    rng, placed = JavaRandom(seed), set()
    while len(placed) < mines:
        r = rng.next_int(rows)
        c = rng.next_int(cols)
        placed.add(r * cols + c)
    return frozenset(placed)


def demo_004(seed: int, rows: int = 9, cols: int = 9, mines: int = 10, laid: frozenset[int] | None = None,
             budget: Budget | None = None) -> ArticleGame:
    """MinesweeperDemo.main's game with seed ``seed`` (its mines, unless ``laid`` gives them, and its guesses)."""
    laid = place_mines_004(rows, cols, mines, seed) if laid is None else laid
    centre = (rows // 2) * cols + cols // 2
    game = open_cell(Game(cols, rows, laid), centre)
    moves = [Move(Action.OPEN, centre, "first")]
    player = SeedDemo()
    state = (initial_state(seed), (), 0)
    ending = "the first click opened a mine" if game.lost else ""
    while not game.over:
        decision = player.decide(view(game), state, budget)
        if decision.error or not decision.moves:
            ending = decision.error or decision.note
            break
        move, state = decision.moves[0], decision.state
        moves.append(move)
        game = play_move(game, move)
    if game.lost and not ending:
        ending = f"opened a mine at {label(view(game), game.exploded)}"
    return ArticleGame(seed, laid, tuple(moves), game.won, game.won, "won" if game.won else ending)
