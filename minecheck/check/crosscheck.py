"""The cross-check of one board: run the solvers under test and the references, compare every answer.

The subjects are compared with ``exact``; simplex variants (``simplex@seed``, ``simplex@fixed``)
are checked on the LP relaxations of the board's components against CBC.  The other
references (CBC, MiniSat, brute force) are compared with ``exact`` too, so that a disagreement
among references - a defect in minecheck itself - is a finding of its own (kind ``reference``).

A solver that reads flags as the player's marks (``flags = "marks"``) is given a flagged board with its
flags shown as covered cells, and judged there: the ground truth answers that flag-free board for it too, and
the board's check holds its result and findings (each finding on the flag-free board).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from minecheck.boards.recipe import Recipe
from minecheck.check.compare import compare, not_comparable, not_judged, not_judged_in_part
from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board, label
from minecheck.model.boardtext import format_board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver, flags_covered, reads_flags_as_marks
from minecheck.running.catalogue import GROUND_TRUTH, REFERENCES, is_lp_solver
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver, run_solver_batch

FLAGS_COVERED = "judged on"  # a finding's extra: judged on the board with its flags covered (not the checked one)


@dataclass(frozen=True)
class BoardCheck:
    """Every solver's result on one board in one mode, and the findings among them."""

    board: Board
    mode: Mode
    results: tuple[SolverResult, ...]
    findings: tuple[Finding, ...]
    not_judged: tuple[tuple[str, str], ...] = ()  # (solver, why): answered, but not judged on this board
    not_comparable: tuple[tuple[str, tuple[int, ...], str], ...] = ()  # (solver, cells, why): compared with nothing

    def result(self, name: str) -> SolverResult | None:
        return next((r for r in self.results if r.solver == name), None)


@cache
def _named(name: str) -> Solver:
    return get_solver(name)


def solver(who: str | Solver) -> Solver:
    """The solver a name stands for (one instance per name and process), or the solver given."""
    return _named(who) if isinstance(who, str) else who


def name_of(who: str | Solver) -> str:
    return who if isinstance(who, str) else who.name


def loose_cells(board: Board, mode: Mode) -> frozenset[int]:
    """The covered cells no digit touches, in the local mode: no answer there can be certain (none in global)."""
    if mode is not Mode.LOCAL:
        return frozenset()
    return frozenset(c for c in board.covered if not any(board.is_digit(n) for n in board.neighbours(c)))


def not_comparable_text(board: Board, cells: tuple[int, ...], why: str) -> str:
    """Cells compared with nothing, as people read them (at most ten named)."""
    named = ", ".join(label(board, c) for c in cells[:10]) + (f" and {len(cells) - 10} more" if len(cells) > 10 else "")
    return f"{named}: {why}"


def modes_for(board: Board) -> tuple[Mode, ...]:
    return (Mode.LOCAL, Mode.GLOBAL) if board.total_mines is not None else (Mode.LOCAL,)


def check_board(board: Board, subjects: Sequence[str | Solver], modes: Sequence[Mode] | None = None,
                references: Sequence[str | Solver] = REFERENCES, recipe: Recipe | None = None,
                index: int | None = None, budget: Budget | None = None,
                judge_undeclared: bool = False) -> tuple[BoardCheck, ...]:
    """Cross-check a board in each mode (default: every mode the board allows).

    Solvers are named, or given as objects with the Solver protocol.  Every solver, references
    included, runs isolated within ``budget`` (None: in this process, unlimited: trusted code only).
    ``judge_undeclared``: a failure on a board the solver does not judge is a finding (``compare.not_judged``).
    """
    return check_boards([(board, recipe, index)], subjects, modes, references, budget, judge_undeclared)[0]


def check_boards(boards: Sequence[tuple[Board, Recipe | None, int | None]], subjects: Sequence[str | Solver],
                 modes: Sequence[Mode] | None = None, references: Sequence[str | Solver] = REFERENCES,
                 budget: Budget | None = None, judge_undeclared: bool = False) -> list[tuple[BoardCheck, ...]]:
    """``check_board`` on each (board, recipe, index), with each solver given all its boards in one sandboxed run
    (``minecheck.running.batch``): tiny boards cost a sandbox call each no more, and a solver that hangs or
    crashes on one board costs a finding on that board alone.  Results and findings are those of
    ``check_board`` board by board."""
    lp_subjects = [s for s in subjects if isinstance(s, str) and is_lp_solver(s)]
    everyone = {name_of(s): solver(s) for s in [GROUND_TRUTH, *references, *subjects] if s not in lp_subjects}
    subjects = [name_of(s) for s in subjects if s not in lp_subjects]
    marks = {name for name, who in everyone.items() if reads_flags_as_marks(who)}
    views, view_of = list(boards), {}  # a flagged board's flag-free copy, checked beside it for the marks readers
    for k, (board, recipe, index) in enumerate(boards):
        if marks and board.flags:
            view_of[k] = len(views)
            views.append((flags_covered(board), recipe, index))
    wanted = [(k, mode) for k, (board, _, _) in enumerate(views) for mode in (modes or modes_for(board))]
    results: dict[tuple[int, Mode], dict[str, SolverResult]] = {key: {} for key in wanted}
    for name, who in everyone.items():
        if name == GROUND_TRUTH:
            sees = set(range(len(views)))
        else:
            sees = ({view_of.get(k, k) for k in range(len(boards))} if name in marks
                    else set(range(len(boards))))
        mine = [(k, mode) for k, mode in wanted if mode in who.modes and k in sees]
        if not mine:
            continue
        items = [(views[k][0], mode) for k, mode in mine]
        answers = ([run_solver(who, *items[0], budget)] if len(items) == 1
                   else run_solver_batch(who, items, budget))
        for key, answer in zip(mine, answers):
            results[key][name] = answer
    out: list[list[BoardCheck]] = [[] for _ in boards]
    for k, mode in wanted:
        if k >= len(boards):
            continue  # a flag-free copy: judged within its board's check, below
        board, recipe, index = boards[k]
        check = _compared(board, mode, results[k, mode], everyone, subjects, lp_subjects, recipe, index,
                            judge_undeclared)
        if k in view_of:
            v = view_of[k]
            check = _with_marks(check, _compared(views[v][0], mode, results[v, mode], everyone, subjects, [], recipe,
                                                 index, judge_undeclared))
        out[k].append(check)
    return [tuple(checks) for checks in out]


def _with_marks(check: BoardCheck, bare: BoardCheck) -> BoardCheck:
    """A board's check with the marks readers' results, findings and silences on its flag-free copy (their findings
    carry that copy's text: the board they were judged on, which a replay or a shrink starts from)."""
    readers = tuple(r for r in bare.results if r.solver != GROUND_TRUTH)
    found = tuple(replace(f, extra={**f.extra, FLAGS_COVERED: "its flags covered: the solver reads flags as marks"})
                  for f in bare.findings)
    return replace(check, results=check.results + readers, findings=check.findings + found,
                   not_judged=check.not_judged + bare.not_judged)


def _compared(board: Board, mode: Mode, results: dict[str, SolverResult], everyone: dict[str, Solver],
              subjects: list[str], lp_subjects: list[str], recipe: Recipe | None, index: int | None,
              judge_undeclared: bool = False) -> BoardCheck:
    """One board in one mode: every solver's result compared with the ground truth's."""
    text = format_board(board)
    truth = results[GROUND_TRUTH]
    findings = []
    if truth.error:  # nothing on this board can be compared: say so rather than pass silently
        findings.append(Finding(Kind.REFERENCE, GROUND_TRUTH, GROUND_TRUTH, mode, (), truth.error, "an answer",
                                text, "the ground truth failed, so nothing on this board was compared",
                                recipe, index))
    unjudged, uncompared = [], []
    loose = loose_cells(board, mode)
    for name, result in results.items():
        if name == GROUND_TRUTH:
            continue
        why = None if truth.error else not_judged(result, everyone[name].answers, truth, judge_undeclared)
        if why:
            unjudged.append((name, why))
        elif not_judged_in_part(result, judge_undeclared):
            unjudged.append((name, not_judged_in_part(result, judge_undeclared)))
        apart = [] if why else not_comparable(result, everyone[name].answers, truth, loose)
        uncompared += [(name, cells, reason) for cells, reason in apart]
        extra = {"not_comparable": "; ".join(not_comparable_text(board, *a) for a in apart)} if apart else {}
        for diff in compare(result, everyone[name].answers, truth, judge_undeclared, loose):
            kind = diff.kind if name in subjects else Kind.REFERENCE
            detail = diff.detail if name in subjects else f"{diff.kind.value}: {diff.detail}".rstrip(": ")
            findings.append(Finding(kind, name, GROUND_TRUTH, mode, diff.cells, diff.subject_says,
                                    diff.reference_says, text, detail, recipe, index, dict(extra)))
    if lp_subjects and mode is Mode.LOCAL:  # LP values do not depend on the mode: checked once
        from minecheck.check.lpcheck import check_relaxations  # CBC and numpy only where LPs are checked

        found = check_relaxations(board, lp_subjects, index=index)
        findings += [replace(f, recipe=recipe) for f in found]
    return BoardCheck(board, mode, tuple(results.values()), tuple(findings), tuple(unjudged), tuple(uncompared))
