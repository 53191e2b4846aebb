"""One Solver protocol, every solver made from its name, every run isolated and budgeted the same way.

Names are looked up by ``minecheck.running.discovery`` (built-in, pyproject.toml, entry points, import
paths, ``cmd:`` programs); here a definition becomes a solver, and a run becomes a result.
"""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from minecheck.model.answers import Answers, Failure, FailureKind, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.errors import SolverUnavailable, Unavailable, UnknownSolver
from minecheck.model.solver import Solver
from minecheck.running import sandbox
from minecheck.running.batch import run_batch
from minecheck.running.discovery import COMMAND, Definition, lookup, suggest
from minecheck.running.external import ALL_ANSWERS, BOTH_MODES, ExternalSolver, Program
from minecheck.running.hosted import Hosted, describe
from minecheck.running.protocol import board_text, decode_answer, decode_object
from minecheck.running.stops import Outcome

_KNOWN: dict[str, Definition] = {}  # definitions handed over by a campaign (for workers that cannot see its pyproject)


def remember(definitions: tuple[str, ...]) -> None:
    """Make names defined elsewhere (Definition.to_json texts) known in this process, as a campaign's workers need."""
    for text in definitions:
        d = Definition.from_json(text)
        _KNOWN[d.name] = d


def get_solver(name: str) -> Solver:
    """The solver a name stands for: built-in, configured, installed, an import path or ``cmd:COMMAND``."""
    return build(lookup(name, _KNOWN))


def build(definition: Definition) -> Solver:
    """Make the solver a definition describes; UnknownSolver (naming it) when that cannot be done.  A solver
    that is not minecheck's own is made only in its sandboxes (``running.hosted``): its code never runs here."""
    if definition.is_command:
        return ExternalSolver(definition.name, _program(definition))
    if definition.origin != "built-in" and sandbox.SUPPORTED:
        return Hosted(definition, make, describe(definition, make, definition.name))
    return make(definition)


def make(definition: Definition) -> Solver:
    """The solver of an import path, made in this process (importing its module runs its code)."""
    module_name, _, attribute = definition.target.partition(":")
    folder = definition.cwd or os.getcwd()
    owner = part = None  # the object an attribute is missing from, and the attribute: for "did you mean"
    try:
        thing = _import(module_name, folder)
        for part in attribute.split("."):
            owner = thing
            thing = getattr(thing, part)
    except (ImportError, AttributeError) as err:
        top = module_name.split(".")[0]
        fix = None
        if isinstance(err, ModuleNotFoundError) and err.name == top:
            fix = (f"run minecheck in the folder that holds {top}.py or {top}/, or install the package that "
                   f"provides it (pip install -e PATH); looked in {folder} and the installed packages")
        close = suggest(part, [n for n in dir(owner) if not n.startswith("_")]) \
            if isinstance(err, AttributeError) and owner is not None else ""
        raise Unavailable(f"{definition.name}: cannot import {definition.target} ({type(err).__name__}: {err})"
                          f"{close}; found in {definition.origin}", fix) from None
    except Exception as err:  # noqa: BLE001 - the module itself fails (a syntax error, an error at import)
        raise Unavailable(f"{definition.name}: importing {definition.target} raised {type(err).__name__}: "
                          f"{err}", "fix the module, then try again (python -c 'import "
                          f"{module_name}' shows the whole traceback)") from None
    try:
        solver = _instance(thing, definition)
    except SolverUnavailable as err:
        raise Unavailable(f"{definition.name} cannot run here: {err.reason}", err.install) from None
    missing = [a for a in ("solve", "answers", "modes") if not hasattr(solver, a)]
    if missing:
        raise UnknownSolver(f"{definition.name}: {definition.target} gives {type(solver).__name__}, which lacks "
                            f"{', '.join(missing)} of the Solver protocol (see minecheck.model.solver.Solver)")
    if getattr(solver, "name", None) != definition.name:
        solver.name = definition.name
    return solver


def require_runnable(solver: Solver) -> Solver:
    """The solver, if it can run here; Unavailable (exit 2 on the command line) when it is a program that
    is not there: a mistyped path, a program not built, a name not on PATH, a file not executable.

    Made solvers that need a missing library are refused by ``build`` already; this is the check for
    programs, done once before any work, so that a missing one is not a crash finding on every board.
    """
    program = getattr(solver, "program", None)
    command = getattr(program, "command", None)
    if not command:
        return solver
    problem = program_problem(command[0], getattr(program, "cwd", None))
    if problem is not None:
        reason, fix = problem
        raise Unavailable(f"{solver.name} cannot run here: {reason}", fix)
    return solver


def program_problem(executable: str, cwd: str | None) -> tuple[str, str] | None:
    """Why a program cannot be started (and what to do about it), or None when it can."""
    folder = Path(cwd or os.getcwd())
    if "/" not in executable:
        if shutil.which(executable) is None:
            return (f"no program named {executable!r} on PATH",
                    f"install {executable}, or give its path (cmd:./path/to/{executable} ...)")
        return None
    path = folder / executable
    if not path.exists():
        return f"no such program: {executable} (looked in {folder})", "build it, or give its path from that folder"
    if path.is_dir() or not os.access(path, os.X_OK):
        return (f"{executable} is not an executable file",
                f"chmod +x {shlex.quote(executable)}, or run it through its interpreter (cmd:'python3 {executable}')")
    return None


def _import(module_name: str, folder: str):
    """Import a module, looking also in ``folder`` (the pyproject's, or the working directory) as
    ``python -m`` would, so that a project's own solver is found without installing it."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name.split(".")[0] or folder in sys.path:
            raise
    sys.path.append(folder)
    return importlib.import_module(module_name)


def _instance(thing: object, definition: Definition) -> object:
    """A solver from what an import path names: a Solver, a class or factory making one, or a protocol function."""
    if definition.option is not None:
        return thing(definition.option)  # built-in factories and user factories alike take the option
    if isinstance(thing, type) or (callable(thing) and not hasattr(thing, "solve") and _arity(thing) < 2):
        return thing()
    if callable(thing) and not hasattr(thing, "solve"):
        return FunctionSolver(definition.name, thing)
    return thing


def _arity(fn) -> int:
    """How many positional parameters a plain function requires (a protocol function takes board text and mode)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return 0
    return code.co_argcount - len(getattr(fn, "__defaults__", None) or ())


def _program(definition: Definition) -> Program:
    def parse(values, enum, what):
        try:
            return frozenset(enum(v) for v in values)
        except ValueError:
            raise UnknownSolver(f"{definition.name}: unknown {what} in {list(values)}; known: "
                                f"{', '.join(e.value for e in enum)}") from None

    modes = parse(definition.modes, Mode, "mode") if definition.modes else BOTH_MODES
    answers = parse(definition.answers, Answers, "answer") if definition.answers else ALL_ANSWERS
    return Program.parse(definition.target[len(COMMAND):], persistent=definition.persistent, modes=modes,
                         answers=answers, cwd=definition.cwd, tolerance=definition.tolerance)


class FunctionSolver:
    """A plain function ``f(board_text, mode) -> dict`` (the protocol's answer) behind the Solver protocol."""

    answers = ALL_ANSWERS
    modes = BOTH_MODES

    def __init__(self, name: str, function):
        self.name, self.function = name, function

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        answer = self.function(board_text(board), mode.value)
        if isinstance(answer, str | bytes):
            return decode_answer(answer.decode() if isinstance(answer, bytes) else answer, board, mode, self.name)
        return decode_object(answer, board, mode, self.name)


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
