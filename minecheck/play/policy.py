"""The one policy by which every solver from the registry plays: from a solver's answer to moves.

On each view the solver runs once, in the global mode when it answers that mode (a game always
states its total), else in the local mode; then:

1. flag every covered cell it calls a mine;
2. open every covered cell it calls safe;
3. when it calls none safe, open the covered cell (not called a mine) with the lowest mine
   probability it gives; ties go to the lowest cell index, i.e. the topmost, then leftmost cell;
   cells it is silent on (off the frontier in the local mode) are not candidates while it gives
   any probability;
4. when it gives no probability at all (a solver of verdicts only, a board it declines or calls
   inconsistent), open a *blind guess*: a covered cell not called a mine, uniformly at random
   from a stream seeded by the game, so the guess replays.

A solver that raises or runs out of time loses the game.  The policy never unflags and never
opens a flag, so a wrong flag stays the solver's mistake.
"""

from __future__ import annotations

import hashlib
import random

from minecheck.model.answers import Mode, SolverResult, Verdict
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver
from minecheck.play.game import Action, Move
from minecheck.play.player import Decision
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver


def policy_moves(board: Board, result: SolverResult, guess_seed: int) -> tuple[Move, ...]:
    """The policy's moves on ``board`` given the solver's ``result`` (see the module)."""
    covered = board.covered
    answers = {a.cell: a for a in result.cells if board.is_covered(a.cell)}
    mines = tuple(c for c in covered if c in answers and answers[c].verdict is Verdict.MINE)
    safe = tuple(c for c in covered if c in answers and answers[c].verdict is Verdict.SAFE)
    flags = tuple(Move(Action.FLAG, c, "mine") for c in mines)
    if safe:
        return flags + tuple(Move(Action.OPEN, c, "safe") for c in safe)
    called_mine = set(mines)
    candidates = [c for c in covered if c not in called_mine]
    if not candidates:
        return flags
    rated = [(answers[c].probability, c) for c in candidates if _usable(answers.get(c))]
    if rated:
        return flags + (Move(Action.OPEN, lowest(rated), "lowest"),)
    return flags + (Move(Action.OPEN, blind_guess(candidates, guess_seed), "blind"),)


def lowest(rated: list[tuple[object, int]]) -> int:
    """The cell with the lowest probability; on a tie the lowest cell index (topmost, then leftmost)."""
    return min(rated)[1]


def blind_guess(candidates: list[int], seed: int) -> int:
    """A cell drawn uniformly from ``candidates`` with a stream seeded by ``seed``."""
    return random.Random(seed).choice(candidates)


def _usable(answer) -> bool:
    p = answer.probability if answer is not None else None
    return p is not None and p == p  # NaN from a broken solver is no probability


def next_seed(seed: int) -> int:
    """The guess seed of the next decision: SHA-256 of this one, so each decision's guess replays alone."""
    return int.from_bytes(hashlib.sha256(f"guess|{seed}".encode()).digest()[:8], "big")


def mode_for(solver: Solver) -> Mode:
    return Mode.GLOBAL if Mode.GLOBAL in solver.modes else Mode.LOCAL


class PolicyPlayer:
    """A registry solver playing by the policy; its state is the seed of its next blind guess."""

    def __init__(self, solver: Solver, name: str | None = None):
        self.solver = solver
        self.name = name or solver.name
        self.mode = mode_for(solver)

    def start(self, seed: int) -> int:
        """The first guess's seed: derived from the game's, never equal to it (the deal draws its mines from
        ``random.Random(seed)``; a guess from that same stream would pick the first mine dealt)."""
        return next_seed(seed)

    def decide(self, board: Board, state: int, budget: Budget | None = None) -> Decision:
        result = run_solver(self.solver, board, self.mode, budget)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        moves = policy_moves(board, result, state)
        note = "" if moves else "the solver leaves nothing to open"
        return Decision(moves, next_seed(state), result, None, result.seconds, note)


def policy_player(name: str) -> PolicyPlayer:
    """The registry's solver ``name`` under the policy (UnknownSolver for a name nobody knows)."""
    return PolicyPlayer(get_solver(name), name)
