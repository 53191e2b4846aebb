"""What minecheck's own players share: the exact counter's answer with a guess of their own in it, and the
policy's moves with that guess in place of the lowest probability (``lookahead``, ``progress``).

The guess is made inside the solver call, so the CPU budget of a decision covers it; it travels in the
answer's ``extra`` (``guess``: the cell, ``why``: the move's reason) and the player turns it into a move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from minecheck.engine.counter import Count, count_board
from minecheck.model.answers import CellAnswer, Mode, SolverResult, verdict_of
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver
from minecheck.play.game import Action, Move
from minecheck.play.player import Decision
from minecheck.play.policy import next_seed, policy_moves
from minecheck.running.registry import run_solver

# the guess on a board with no certainly safe cell, from its global count and the probabilities of the
# cells that may be safe: the answer's extra items (at least ("guess", cell) and ("why", reason))
Guess = Callable[[Board, Count, dict[int, Fraction]], tuple[tuple[str, str], ...]]


def answer_with_guess(name: str, board: Board, mode: Mode, guess: Guess) -> SolverResult:
    """The exact counter's verdicts and probabilities (global mode), with ``guess``'s items in ``extra`` when no
    covered cell is certainly safe and some may be."""
    count = count_board(board, Mode.GLOBAL)
    if not count.consistent:
        return SolverResult(name, mode, consistent=False, reason=count.reason)
    probs = {c: p for c, p in count.probabilities if p is not None}
    cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in sorted(probs.items()))
    open_to_guess = {c: p for c, p in probs.items() if p < 1}
    extra: tuple[tuple[str, str], ...] = ()
    if open_to_guess and min(open_to_guess.values()) > 0:
        extra = guess(board, count, open_to_guess)
    return SolverResult(name, mode, consistent=True, cells=cells, layouts=count.layouts, extra=extra)


class GuessingPlayer:
    """The policy's sure moves from ``solver``'s answer, and its guess (``extra``) in place of the lowest
    probability; the state is the seed of the policy's blind guesses, never the deal's own."""

    def __init__(self, name: str, solver: Solver):
        self.name = name
        self.solver = solver

    def start(self, seed: int) -> int:
        return next_seed(seed)

    def decide(self, board: Board, state: int, budget: Budget | None = None) -> Decision:
        result = replace(run_solver(self.solver, board, Mode.GLOBAL, budget), solver=self.name)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        moves = policy_moves(board, result, state)
        extra = dict(result.extra)
        if "guess" in extra:
            moves = tuple(m for m in moves if m.reason != "lowest") + (
                Move(Action.OPEN, int(extra["guess"]), extra.get("why", self.name)),)
        return Decision(moves, next_seed(state), result, None, result.seconds)
