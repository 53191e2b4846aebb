"""Every run of a solver isolated and budgeted the same way: a call becomes a result, never a crash.

Solvers are named and made once (``minecheck.running.discovery``: a name, its definition, its solver);
here a made solver runs on boards, alone or a batch of them in one sandbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from minecheck.model.answers import Failure, FailureKind, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver
from minecheck.running import sandbox
from minecheck.running.batch import run_batch
from minecheck.running.stops import Outcome


def run_solver(solver: Solver, board: Board, mode: Mode, budget: Budget | None = None) -> SolverResult:
    """Run one solver, isolated within its budget (None: in this process, unlimited); an exception, a stop or
    a death becomes a result carrying the error, never a crash of the caller.

    A solver that runs a program of its own (``runs_own_process``) enforces the budget itself.
    """
    if getattr(solver, "runs_own_process", False):
        outcome = sandbox.run(solver, "solve_limited", (board, mode, budget), None)
    else:
        outcome = sandbox.run(solver, "solve", (board, mode), budget)
    return result_of(solver, mode, outcome)


def run_solver_batch(solver: Solver, items: Sequence[tuple[Board, Mode]], budget: Budget | None) -> list[SolverResult]:
    """``run_solver`` on each (board, mode) item, in one sandboxed run (``minecheck.running.batch``): the same
    results, a hang or a crash costing the item it happened on and no other."""
    return [result_of(solver, mode, o) for (_, mode), o in zip(items, run_batch(solver, items, budget))]


def result_of(solver: Solver, mode: Mode, outcome: Outcome) -> SolverResult:
    """A sandboxed call's outcome as the solver's result: its answer, or its failure with how it was stopped."""
    if outcome.failure is not None or not isinstance(outcome.value, SolverResult):
        failure = outcome.failure or Failure(FailureKind.CRASH, f"BadAnswer: solve() returned "
                                                                f"{type(outcome.value).__name__}, not a SolverResult")
        how = (("stopped", outcome.how),) if outcome.how else ()
        return SolverResult(solver.name, mode, failure=failure, seconds=outcome.wall, cpu=outcome.cpu, extra=how)
    own = getattr(solver, "runs_own_process", False)  # its CPU is its program's, measured by the solver
    return replace(outcome.value, seconds=outcome.wall, cpu=outcome.value.cpu if own else outcome.cpu)
