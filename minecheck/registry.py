"""One Solver protocol, every solver looked up by name, every run timed and guarded the same way.

A name is ``family`` or ``family@variant`` (``ilp@seed``), optionally with ``:option``
(``minisat:cadical153``); the option is passed to the solver's factory.
"""

from __future__ import annotations

import importlib
import time
import traceback
from dataclasses import replace
from typing import Protocol, runtime_checkable

from minecheck.answers import Answers, Mode, SolverResult
from minecheck.board import Board


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
    "ilp@seed": "minecheck.solvers.ilp:seed_solver",
    "ilp@fixed": "minecheck.solvers.ilp:fixed_solver",
    "dpll@seed": "minecheck.solvers.dpll:seed_solver",
    "dpll@fixed": "minecheck.solvers.dpll:fixed_solver",
    "gibbs@seed": "minecheck.solvers.gibbs:seed_solver",
    "gibbs@fixed": "minecheck.solvers.gibbs:fixed_solver",
}


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


def run_solver(solver: Solver, board: Board, mode: Mode) -> SolverResult:
    """Run one solver, timing it; an exception becomes a result carrying the error, never a crash."""
    start = time.perf_counter()
    try:
        result = solver.solve(board, mode)
    except RecursionError as err:
        result = SolverResult(solver.name, mode, error=f"RecursionError: {err}")
    except Exception as err:  # the solver under test failed: that is an answer to report
        where = traceback.extract_tb(err.__traceback__)[-1]
        result = SolverResult(solver.name, mode,
                              error=f"{type(err).__name__}: {err} (at {where.name}:{where.lineno})")
    return replace(result, seconds=time.perf_counter() - start)
