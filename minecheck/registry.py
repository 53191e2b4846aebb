"""One Solver protocol, every solver looked up by name, every run timed and guarded the same way.

A name is ``family`` or ``family@variant`` (``ilp@seed``), optionally with ``:option``
(``minisat:cadical153``); the option is passed to the solver's factory.
"""

from __future__ import annotations

import importlib
import signal
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import replace
from typing import Protocol, runtime_checkable

from minecheck.answers import Answers, Mode, SolverResult
from minecheck.board import Board
from minecheck.constraints import ConstraintSystem, Contradiction, build_constraints


@runtime_checkable
class Solver(Protocol):
    """What every solver under test and every reference implements."""

    name: str
    answers: frozenset[Answers]
    modes: frozenset[Mode]

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        """Answer what the solver can about the board; raise on internal failure."""
        ...


# name -> "module:factory"; the factory takes the option after ':' (or None)
REGISTRY: dict[str, str] = {
    "exact": "minecheck.solvers.exact:ExactSolver",
    "ilp@seed": "minecheck.solvers.ilp_seed:seed_solver",
    "ilp@fixed": "minecheck.solvers.ilp_fixed:fixed_solver",
    "dpll@seed": "minecheck.solvers.dpll_seed:seed_solver",
    "dpll@fixed": "minecheck.solvers.dpll_fixed:fixed_solver",
    "gibbs@seed": "minecheck.solvers.gibbs_seed:seed_solver",
    "gibbs@fixed": "minecheck.solvers.gibbs_fixed:fixed_solver",
    "cbc": "minecheck.references.cbc:make",
    "minisat": "minecheck.references.minisat:make",
    "brute": "minecheck.references.brute:make",
}
REFERENCES = ("exact", "cbc", "minisat")  # the references every check runs beside the solvers under test


class UnknownSolver(ValueError):
    pass


def solver_names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get_solver(name: str) -> Solver:
    """The solver registered under ``name`` (with an optional ``:option``)."""
    base, _, option = name.partition(":")
    if base not in REGISTRY:
        raise UnknownSolver(f"unknown solver {name!r}; known: {', '.join(REGISTRY)}")
    module, _, factory = REGISTRY[base].partition(":")
    solver = getattr(importlib.import_module(module), factory)(option or None)
    if solver.name != name:
        solver.name = name
    return solver


class SolverTimeout(Exception):
    """Raised inside a solver that runs past its time budget."""


@contextmanager
def _deadline(seconds: float | None):
    """Interrupt the block after ``seconds`` (SIGALRM; only in a main thread, else no limit)."""
    usable = seconds and threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if not usable:
        yield
        return

    def alarm(signum, frame):
        raise SolverTimeout(f"{seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def require_mode(solver: Solver, mode: Mode) -> None:
    """A mode the solver does not answer is the caller's mistake, not a finding: say so plainly."""
    if mode not in solver.modes:
        names = " and ".join(sorted(m.value for m in solver.modes))
        raise ValueError(f"{solver.name} answers the {names} mode only, not {mode.value}")


def system_or_refusal(name: str, board: Board, mode: Mode, **answer) -> ConstraintSystem | SolverResult:
    """The shared start of every solver that reads the constraint system: the system, or the
    inconsistent answer naming the digit (``answer`` adds fields such as layouts=0); the global
    mode on a board that states no total is bad input."""
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    try:
        return build_constraints(board)
    except Contradiction as err:
        return SolverResult(name, mode, consistent=False, reason=str(err), **answer)


def run_solver(solver: Solver, board: Board, mode: Mode, timeout: float | None = None) -> SolverResult:
    """Run one solver, timing it; an exception or a timeout becomes a result carrying the error, never a crash."""
    start = time.perf_counter()
    try:
        with _deadline(timeout):
            result = solver.solve(board, mode)
    except SolverTimeout as err:
        result = SolverResult(solver.name, mode, error=f"Timeout: stopped after {err}")
    except RecursionError as err:
        result = SolverResult(solver.name, mode, error=f"RecursionError: {err}")
    except Exception as err:  # the solver under test failed: that is an answer to report
        where = traceback.extract_tb(err.__traceback__)[-1]
        result = SolverResult(solver.name, mode,
                              error=f"{type(err).__name__}: {err} (at {where.name}:{where.lineno})")
    return replace(result, seconds=time.perf_counter() - start)
