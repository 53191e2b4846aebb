"""Every move a player makes, checked against the exact counter on the view where it was made.

The counter runs in the global mode (a game always states its total) on the view before the
decision; each move of the decision is then one of the bad moves below, or fine:

* ``opened a certain mine``: the cell's exact mine probability is 1;
* ``flagged an uncertain cell``: a flag on a cell whose probability is not 1 (right or wrong by
  luck, it was not known);
* ``guessed beside a safe cell``: opened a cell with probability > 0 while some covered cell
  has probability 0;
* ``riskier guess``: opened a cell whose probability exceeds the lowest one on the view by more
  than ``DECISION_MARGIN``.  A blind guess (a solver that gives no probabilities, under the
  policy's documented random rule) is exempt: it had no probabilities to weigh.  So is a guess that
  the endgame search (``minecheck.play.endgame``, at most ``ENDGAME_LAYOUTS`` layouts) shows to win
  within ``OPTIMAL_MARGIN`` of the best move: the probability is only a stand-in for the chance of
  winning, and where that chance is known it decides (``3x3x3/HH1/HHH/1HH``: an edge at p=4/9 wins
  4/9, the centre at p=1/9 wins 1/3).

Judged optimally (``play --judge optimal``, on sizes ``minecheck.play.oracle`` covers), an open move
is also:

* ``suboptimal``: its chance of winning under perfect play from there on is below the best move's
  by more than ``OPTIMAL_MARGIN``; the lowest mine probability is not always the best move
  (``3x3x3/HH1/HHH/1HH``: the centre, p=1/9, wins 1/3; an edge, p=4/9, wins 4/9).  Flags are not
  judged by value: perfect play never needs one.

  A riskier guess that wins within ``OPTIMAL_MARGIN`` of the best move is then not bad (the edge above).

A view the counter finds inconsistent (only a wrong flag makes one) has no exact answer, and its
moves are not judged; the wrong flag was already a finding.  Each bad move becomes a ``Finding``
of kind ``decision`` whose board is the view (with the hidden mines, when the player's flags are
all on mines, so that shrinking can edit the position) and whose ``extra`` holds the player's
state before the decision, so that the decision replays alone and shrinks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from minecheck.check.findings import Finding, Kind
from minecheck.engine.counter import Count, count_board
from minecheck.model.answers import Mode, SolverResult, Verdict
from minecheck.model.board import Board, crop_cell, label
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.budget import DEFAULT_BUDGET, Budget
from minecheck.model.errors import BadOption
from minecheck.play.endgame import ENDGAME_LAYOUTS, move_shortfall
from minecheck.play.game import Action, Move
from minecheck.play.oracle import OracleLimit, board_move_values
from minecheck.play.player import Player, relocated
from minecheck.running.catalogue import GROUND_TRUTH

DECISION_MARGIN = Fraction(1, 20)  # a guess may be this much riskier than the safest cell before it is bad
OPTIMAL_MARGIN = Fraction(1, 100)  # an open move may win this much less often than the best move before it is bad
JUDGES = ("probability", "optimal")  # play --judge: the counter alone, or the counter and the game-value oracle


class Flaw(StrEnum):
    OPENED_MINE = "opened a certain mine"
    FLAGGED_UNCERTAIN = "flagged an uncertain cell"
    GUESSED_BESIDE_SAFE = "guessed beside a safe cell"
    RISKIER_GUESS = "riskier guess"
    SUBOPTIMAL = "suboptimal"


@dataclass(frozen=True)
class BadMove:
    """A move the exact counter shows to be bad, with the probabilities that show it."""

    move: Move
    flaw: Flaw
    probability: Fraction  # the exact mine probability of the move's cell
    best: int  # the covered cell with the lowest probability (lowest index on ties); SUBOPTIMAL: the best move
    best_probability: Fraction
    value: Fraction | None = None  # SUBOPTIMAL: the move's chance of winning under perfect play after it
    best_value: Fraction | None = None  # SUBOPTIMAL: the best move's chance of winning


def judge(board: Board, moves: tuple[Move, ...], count: Count | None = None) -> tuple[BadMove, ...]:
    """The bad moves among ``moves``, all made on ``board``; ``count`` is the board's global count if known."""
    count = count if count is not None else count_board(board, Mode.GLOBAL)
    if not count.consistent or not count.probabilities:
        return ()
    p = {c: q for c, q in count.probabilities if q is not None}
    best_probability, best = min((q, c) for c, q in p.items())
    bad = []
    for move in moves:
        q = p.get(move.cell)
        if q is None:
            continue  # not a covered cell: the move changes nothing
        flaw = _flaw(move, q, best_probability)
        if flaw is Flaw.RISKIER_GUESS and count.layouts <= ENDGAME_LAYOUTS and _wins_as_much(board, move.cell):
            continue
        if flaw is not None:
            bad.append(BadMove(move, flaw, q, best, best_probability))
    return tuple(bad)


def _wins_as_much(board: Board, cell: int) -> bool:
    """Whether the endgame search shows that opening cell wins within OPTIMAL_MARGIN of the best move (False
    when the search is past its limits: the probability then stands)."""
    short = move_shortfall(board, cell)
    return short is not None and short <= OPTIMAL_MARGIN


def judge_optimal(board: Board, moves: tuple[Move, ...], count: Count | None = None,
                  values: dict[int, Fraction] | None = None) -> tuple[BadMove, ...]:
    """The open moves among ``moves`` (all made on ``board``) whose chance of winning is below the best move's
    by more than OPTIMAL_MARGIN: Flaw.SUBOPTIMAL, with both chances and both mine probabilities.
    ``values``: the board's ``board_move_values`` if known; OracleLimit for a board beyond the oracle."""
    opens = [m for m in moves if m.action is Action.OPEN]
    if not opens:
        return ()
    count = count if count is not None else count_board(board, Mode.GLOBAL)
    if not count.consistent or not count.probabilities:
        return ()
    values = values if values is not None else board_move_values(board)
    if not values:
        return ()
    p = {c: q for c, q in count.probabilities if q is not None}
    best_value, best = max((v, -c) for c, v in values.items())
    best = -best
    bad = []
    for move in opens:
        v = values.get(move.cell)
        if v is not None and best_value - v > OPTIMAL_MARGIN:
            bad.append(BadMove(move, Flaw.SUBOPTIMAL, p.get(move.cell, Fraction(0)), best,
                               p.get(best, Fraction(0)), v, best_value))
    return tuple(bad)


def judge_with(board: Board, moves: tuple[Move, ...], how: str = "probability",
               count: Count | None = None) -> tuple[BadMove, ...]:
    """``judge``, and with ``how`` = "optimal" also ``judge_optimal`` (a move bad both ways is listed twice).
    Judged optimally, a riskier guess that wins within OPTIMAL_MARGIN of the best move is not bad: where the
    chance of winning is known, it decides, and the mine probability was only its stand-in."""
    if how not in JUDGES:
        raise BadOption(f"judge {how!r} is not one of {', '.join(JUDGES)}")
    count = count if count is not None else count_board(board, Mode.GLOBAL)
    bad = judge(board, moves, count)
    if how != "optimal" or not any(m.action is Action.OPEN for m in moves) or not count.consistent:
        return bad
    values = board_move_values(board)
    best = max(values.values(), default=None)
    bad = tuple(b for b in bad if not (b.flaw is Flaw.RISKIER_GUESS and best is not None
                                       and b.move.cell in values and best - values[b.move.cell] <= OPTIMAL_MARGIN))
    return bad + judge_optimal(board, moves, count, values)


def _flaw(move: Move, q: Fraction, best: Fraction) -> Flaw | None:
    if move.action is Action.FLAG:
        return None if q == 1 else Flaw.FLAGGED_UNCERTAIN
    if q == 1:
        return Flaw.OPENED_MINE
    if q > 0 and best == 0:
        return Flaw.GUESSED_BESIDE_SAFE
    if move.reason != "blind" and q - best > DECISION_MARGIN:
        return Flaw.RISKIER_GUESS
    return None


def _p(q: Fraction) -> str:
    return f"p={q}" if q.denominator < 10**6 else f"p~{float(q):.6f}"


def explain(board: Board, bad: BadMove) -> str:
    """What the counter says about a bad move, in words."""
    cell = label(board, bad.move.cell)
    if bad.flaw is Flaw.OPENED_MINE:
        return f"{cell} is certainly a mine"
    if bad.flaw is Flaw.FLAGGED_UNCERTAIN:
        return f"{cell} is not certainly a mine ({_p(bad.probability)})"
    if bad.flaw is Flaw.GUESSED_BESIDE_SAFE:
        return f"{cell} has {_p(bad.probability)} while {label(board, bad.best)} is certainly safe"
    if bad.flaw is Flaw.SUBOPTIMAL:
        return (f"{cell} wins {bad.value} under perfect play ({_p(bad.probability)}), {label(board, bad.best)} "
                f"wins {bad.best_value} ({_p(bad.best_probability)}); margin {OPTIMAL_MARGIN}")
    return (f"{cell} has {_p(bad.probability)}, {float(bad.probability - bad.best_probability):.3f} more than "
            f"{label(board, bad.best)} ({_p(bad.best_probability)}); margin {DECISION_MARGIN}")


def answer_summary(result: SolverResult | None) -> str:
    """What a player's solver answered on a view, in a line: the answer behind its moves."""
    if result is None:
        return "no answer of a solver behind it (the player's own rule)"
    if result.error:
        return f"it failed: {result.error}"
    if result.consistent is False:
        return f"it called the board inconsistent: {result.reason or 'no reason given'}"
    verdicts = [a.verdict for a in result.cells if a.verdict is not None]
    rated = sum(1 for a in result.cells if a.probability is not None)
    parts = [f"{verdicts.count(Verdict.SAFE)} safe, {verdicts.count(Verdict.MINE)} mines, "
             f"{verdicts.count(Verdict.UNKNOWN)} undecided" if verdicts else "no verdicts",
             f"a mine probability for {rated} cells" if rated else "no mine probability"]
    if result.layouts is not None:
        parts.append(f"{result.layouts} layouts")
    return ", ".join(parts)


def why_move(board: Board, move: Move, result: SolverResult | None) -> str:
    """Why the player made ``move``, from its own answer: what a decision finding's page and ``minecheck decide``
    say beside the counter's judgement."""
    cell = label(board, move.cell)
    answer = result.answer(move.cell) if result is not None else None
    p = answer.probability if answer is not None else None
    said = f" (it gave p={p})" if isinstance(p, Fraction) else f" (it gave p~{p:.4f})" if p is not None else ""
    if move.reason == "blind":
        cause = "it called the board inconsistent" if result is not None and result.consistent is False \
            else "it gave no mine probability to weigh"
        return f"a blind guess: {cause}, so {cell} was drawn at random from the covered cells"
    if move.reason == "safe":
        return f"it called {cell} safe{said}"
    if move.reason == "mine":
        return f"it called {cell} a mine{said}"
    if move.reason == "lowest":
        return f"{cell} had the lowest mine probability it gave{said}"
    if move.reason == "lookahead":
        return f"its one-move lookahead chose {cell}{said}"
    if move.reason == "endgame":
        value = dict(result.extra).get("value") if result is not None else None
        wins = f", which wins {value} under perfect play" if value else ""
        return f"its endgame search (few layouts left) chose {cell}{wins}{said}"
    if move.reason == "progress":
        return f"{cell} was its guess most likely to be safe and prove another cell safe{said}"
    return f"{move.describe(board)}{said}"


def as_finding(board_text: str, board: Board, player: str, bad: BadMove, index: int | None = None,
               extra: dict | None = None) -> Finding:
    """A bad move as a finding of kind ``decision`` (board_text: the view, with its hidden mines if known)."""
    cells = (bad.move.cell,) if bad.best == bad.move.cell else (bad.move.cell, bad.best)
    if bad.flaw in (Flaw.OPENED_MINE, Flaw.FLAGGED_UNCERTAIN):
        cells = (bad.move.cell,)
    return Finding(Kind.DECISION, player, GROUND_TRUTH, Mode.GLOBAL, cells, bad.move.describe(board),
                   explain(board, bad), board_text, bad.flaw.value, None, index, dict(extra or {}))


def replay_state(finding: Finding):
    """The player's state before the decision, as the finding stored it (JSON lists read back as lists)."""
    return finding.extra.get("state")


def cropped_cell(width: int, board: Board, origin: tuple[int, int]) -> Callable[[int], int | None]:
    """A cell of a ``width``-wide board, as a cell of ``board`` cut from it with its top-left at
    ``origin`` (row, column); None for a cell the crop removed."""
    return lambda cell: crop_cell(width, cell, *origin, board.width, board.height)


def still_decides_badly(finding: Finding, player: Player, budget: Budget | None = DEFAULT_BUDGET
                        ) -> Callable[[Board, tuple[int, int]], Finding | None]:
    """The shrink predicate of a decision finding: on a candidate board, the player (from the stored
    state) still makes a move with the same flaw; the finding on that board, or None.

    ``origin`` is where the candidate's top-left cell was on the finding's board (crops move it):
    a state that names cells is relocated onto the candidate, and the finding carries that state.
    """
    state = replay_state(finding)
    flaw = Flaw(finding.detail)
    width = parse_board(finding.board).width

    def check(board: Board, origin: tuple[int, int] = (0, 0)) -> Finding | None:
        if board.total_mines is None:
            return None
        seen = replace(board, truth=None)
        moved = relocated(player, state, cropped_cell(width, board, origin))
        decision = player.decide(seen, moved, budget)
        if decision.error:
            return None
        try:
            if flaw is Flaw.SUBOPTIMAL:
                found = judge_optimal(seen, decision.moves)
            else:  # by the run's judge: judged optimally, a riskier guess that wins as much is not bad
                found = judge_with(seen, decision.moves, finding.extra.get("judge", "probability"))
        except OracleLimit:
            return None  # a candidate beyond the oracle cannot show the flaw
        for bad in found:
            if bad.flaw is flaw:
                extra = {**finding.extra, "state": moved} if "state" in finding.extra else finding.extra
                return as_finding(format_board(board), seen, finding.subject, bad, finding.index, extra)
        return None

    return check
