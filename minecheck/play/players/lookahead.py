"""``lookahead``: the exact counter's moves, with guesses chosen by a one-move lookahead.

Sure moves are the policy's (flag every certain mine, open every certain safe cell).  When none is
safe, the plain policy opens the lowest mine probability; this player instead weighs, for each
candidate cell c, the chance to survive c *and* the best move after it:

    score(c) = sum over digits v of  P(c is safe and shows v) * max over covered d of P(d safe | c shows v)

P(c safe, shows v) is the share of the board's layouts (global mode) that have c safe showing v:
the exact count of the board with c opened as v, over the board's count; the inner maximum is 1
when c's digit proves some cell safe.  The highest score wins (ties: lower probability, then lower
index).  Candidates are the cells whose probability is within ``SPREAD`` of the lowest - no more
than the decision cross-check's margin, so its choice is never a "riskier guess" - at most
``CANDIDATES`` of them, fewest covered neighbours first (a corner far from the digits opens most).
The whole decision runs as one solver call, so the CPU budget covers the lookahead too.
"""

from __future__ import annotations

from fractions import Fraction

from minecheck.engine.counter import count_board
from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.play.decisions import DECISION_MARGIN
from minecheck.play.players.guessing import GuessingPlayer, answer_with_guess

SPREAD = DECISION_MARGIN
CANDIDATES = 12


def open_as(board: Board, cell: int, digit: int) -> Board:
    """The board with ``cell`` opened showing ``digit`` (no flood fill: the counter deduces the rest)."""
    cells = list(board.cells)
    cells[cell] = digit
    return Board(board.width, board.height, tuple(cells), board.total_mines)


def survival(board: Board, cell: int, layouts: int) -> Fraction:
    """P(cell is safe and the best next move is safe too), summed over the digits the cell can show."""
    total = Fraction(0)
    for digit in range(len(board.neighbours(cell)) + 1):
        after = count_board(open_as(board, cell, digit), Mode.GLOBAL)
        if not after.consistent or after.layouts == 0:
            continue
        rest = [p for c, p in after.probabilities if p is not None]
        best_next = 1 - min(rest) if rest else Fraction(1)
        total += Fraction(after.layouts, layouts) * best_next
    return total


def lookahead_guess(board: Board, probabilities: dict[int, Fraction], layouts: int) -> int:
    """The candidate with the highest survival score (see the module)."""
    low = min(probabilities.values())
    near = [c for c, p in probabilities.items() if p - low <= SPREAD]
    covered_around = {c: sum(1 for n in board.neighbours(c) if board.is_covered(n)) for c in near}
    near = sorted(near, key=lambda c: (probabilities[c], covered_around[c], c))[:CANDIDATES]
    scored = [(-survival(board, c, layouts), probabilities[c], c) for c in near]
    return min(scored)[2]


class LookaheadSolver:
    """The exact answers, plus the lookahead's guess in ``extra`` when no cell is certainly safe."""

    name = "lookahead"
    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES})
    modes = frozenset({Mode.GLOBAL})

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return answer_with_guess(self.name, board, mode, lambda b, count, open_to_guess: (
            ("guess", str(lookahead_guess(b, open_to_guess, count.layouts))), ("why", "lookahead")))


def lookahead_player(option: str | None = None) -> GuessingPlayer:
    return GuessingPlayer("lookahead", LookaheadSolver())
