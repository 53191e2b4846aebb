"""Article 003's auto-player, ``MineAi.decide``: the seed as printed, and fixed.

**seed** (``mineai@seed``) is ``new MineAi(g, 400, 100)`` of the article's ``Main``, ported: every
call runs the article's sampler (``GibbsSampler.estimate``: 100 burn-in and 400 sampled sweeps,
the port in ``gibbs@seed``) on the view, and makes one move - flag the *last* covered cell (in
row-major order) whose estimate is >= 0.999 while fewer flags than mines are down, else open
the *first* covered cell with the lowest estimate, cells off the frontier taking
``MineAi``'s plug-in ``max(0, total - flags - sum of frontier estimates) / off-frontier cells``.
The sampler is made once per game with ``new Random(g)`` and keeps drawing from it, so the
player's state is that stream's 48-bit state, moved past the sampler's draws after each call
(two LCG steps per ``nextDouble``, one per variable per sweep).  Game g of the article's Java and
this player make the same moves (tests/play/test_players_java.py).

**fixed** (``mineai@fixed``) keeps ``decide``'s plan - sure mines flagged, sure cells opened,
otherwise the lowest estimate - with the defects removed:

* the sampler is ``gibbs@fixed`` (a chain whose stationary law is the exact posterior) in the
  global mode, so off-frontier cells are estimated by the same chain instead of the plug-in;
* "sure" is what the sampler saw in every sample, not an estimate >= 0.999 from a chain that
  wanders through impossible layouts (``H2H``: both cells mines, estimated 0.7, never flagged);
* it moves on everything it is sure of at once: the seed reruns the whole sampler for each
  single cell, which makes a thousand games a matter of hours;
* a fresh sampler seed per decision, derived from the game's seed.

A sampler cannot prove a cell safe: a cell that is a mine in one layout of thousands is usually
"safe in every sample".  Such a move is what the decision cross-check is for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from minecheck.model.answers import Mode, Verdict
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.play.game import Action, Move
from minecheck.play.player import Decision
from minecheck.play.players.javastate import initial_state, seed_for, skip
from minecheck.play.policy import blind_guess, lowest, next_seed
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver
from minecheck.solvers.gibbs_seed import SEED_BURN_IN, SEED_SAMPLES, article_constraints

_DECIDE = re.compile(r"^(flag|open) r(\d+)c(\d+)$")


def sampler_variables(board: Board) -> int:
    """How many cells GibbsSampler.estimate samples on this view (each draws one nextDouble per sweep)."""
    return len({v for c in article_constraints(board) for v in c.variables})


def parse_decide(board: Board, text: str) -> Move | None:
    """gibbs@seed's ``decide`` answer (``flag r2c5``, ``open r0c0`` or ``none``) as a move."""
    match = _DECIDE.match(text)
    if not match:
        return None
    action, row, col = match.group(1), int(match.group(2)), int(match.group(3))
    if action == "flag":
        return Move(Action.FLAG, board.cell(row, col), "mine")
    return Move(Action.OPEN, board.cell(row, col), "lowest")


class SeedMineAi:
    """MineAi.decide as printed; the state is its GibbsSampler's java.util.Random."""

    def __init__(self, option: str | None = None):
        self.name = "mineai@seed"

    def start(self, seed: int) -> int:
        return initial_state(seed)

    def decide(self, board: Board, state: int, budget: Budget | None = None) -> Decision:
        sampler = get_solver(f"gibbs@seed:{seed_for(state)}")
        result = replace(run_solver(sampler, board, Mode.LOCAL, budget), solver=self.name)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        after = skip(state, 2 * (SEED_BURN_IN + SEED_SAMPLES) * sampler_variables(board))
        move = parse_decide(board, dict(result.extra).get("decide", "none"))
        moves = (move,) if move is not None else ()
        return Decision(moves, after, result, None, result.seconds, "" if moves else "decide returned null")


class FixedMineAi:
    """MineAi.decide with a correct sampler in the global mode; the state is the next sampler seed."""

    def __init__(self, option: str | None = None):
        self.name = "mineai@fixed"

    def start(self, seed: int) -> int:
        return seed

    def decide(self, board: Board, state: int, budget: Budget | None = None) -> Decision:
        sampler = get_solver(f"gibbs@fixed:{state}")
        result = replace(run_solver(sampler, board, Mode.GLOBAL, budget), solver=self.name)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        answers = {a.cell: a for a in result.cells if board.is_covered(a.cell)}
        covered = board.covered
        sure_mines = [c for c in covered if c in answers and answers[c].verdict is Verdict.MINE]
        sure_safe = [c for c in covered if c in answers and answers[c].verdict is Verdict.SAFE]
        room = board.total_mines - len(board.flags)
        moves = [Move(Action.FLAG, c, "mine") for c in sure_mines[:room]]
        if sure_safe:
            moves += [Move(Action.OPEN, c, "safe") for c in sure_safe]
        else:
            called_mine = set(sure_mines)
            rest = [c for c in covered if c not in called_mine]
            rated = [(answers[c].probability, c) for c in rest if c in answers]
            if rated:
                moves.append(Move(Action.OPEN, lowest(rated), "lowest"))
            elif rest:  # the board is inconsistent to the sampler (a wrong flag): nothing to rate
                moves.append(Move(Action.OPEN, blind_guess(rest, state), "blind"))
        return Decision(tuple(moves), next_seed(state), result, None, result.seconds)


def seed_player(option: str | None = None) -> SeedMineAi:
    return SeedMineAi(option)


def fixed_player(option: str | None = None) -> FixedMineAi:
    return FixedMineAi(option)
