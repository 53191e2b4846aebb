"""assert_agree: one solver checked on one board against the references, for a test suite.

On a disagreement it fails with an ``AssertionError`` that a reader can act on without minecheck
open: what each side says, the board shrunk by minecheck's shrinker (as board text), the one-line
``minecheck check`` command that replays it, and the path of an HTML page that draws it.  Pages
are written under ``.minecheck/findings/`` in the working directory (the environment variable
``MINECHECK_PAGES``, or the ``pages`` argument, names another folder).

The solver may be a ``Solver`` object, a name (built-in, an import path ``pkg.mod:thing``, or
``cmd:COMMAND``), or a plain function ``f(board_text, mode) -> dict`` answering the protocol's
JSON object (``minecheck.running.protocol``).
"""

from __future__ import annotations

import inspect
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from minecheck.check.crosscheck import check_board, modes_for
from minecheck.check.crosscheck import solver as named_solver
from minecheck.check.findings import Finding, Kind
from minecheck.check.shrink import Shrunk, shrink
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.budget import DEFAULT_CPU, Budget
from minecheck.model.errors import BadOption, UnknownSolver
from minecheck.model.solver import Solver, require_mode
from minecheck.report.findingpage import pages_folder, write_page
from minecheck.report.pages import replay_command
from minecheck.report.textview import findings_text
from minecheck.running.catalogue import GROUND_TRUTH
from minecheck.running.discovery import FunctionSolver, lookup, require_runnable

MINECHECK_FILES = "/minecheck/**"  # hypothesis's glob for every file in a folder named minecheck


def assert_agree(solver, board: Board | str, mode: Mode | str | Sequence[Mode | str] | None = None,
                 references: Sequence[str | Solver] = (GROUND_TRUTH,), *, cpu: float = DEFAULT_CPU,
                 shrink_seconds: float = 60.0, pages: Path | str | None = None) -> None:
    """Fail unless the solver agrees with the references on the board in every mode asked (None: every
    mode the board allows and the solver answers).

    ``board``: a Board, or board text (rows may be joined by ``/``).  ``cpu``: CPU seconds per solver
    call.  ``shrink_seconds``: the most time spent shrinking a disagreement.  The failure's page is
    written under ``pages`` (default: $MINECHECK_PAGES, else .minecheck/findings).
    """
    __tracebackhide__ = True  # pytest shows the test's line, not this function's source
    _hide_from_hypothesis()
    subject = as_solver(solver)
    board = board if isinstance(board, Board) else _parse(board)
    modes = _modes(board, mode, subject)
    budget = Budget(cpu=cpu)
    checks = check_board(board, [subject], modes, references, budget=budget)
    findings = sorted((f for c in checks for f in c.findings), key=lambda f: f.kind is Kind.REFERENCE)
    if not findings:
        return
    first = findings[0]
    if _hypothesis_is_searching():  # only the example hypothesis settles on is worth a shrink and a page
        message = (f"{first.subject} disagrees with {first.reference} ({first.kind.value}, {first.mode.value} mode); "
                   "the shrunk board comes with hypothesis's final run")
    else:
        rerun = subject if first.subject == subject.name else None
        shrunk = None
        if first.kind is not Kind.TIMEOUT:  # a timeout takes the whole budget on every board tried
            shrunk = shrink(first, budget, seconds=shrink_seconds, solver=rerun)
        page = write_page(first, shrunk, board, checks, rerun, references, budget, pages_folder(pages))
        replay = replay_line(solver, subject, first, shrunk, references, cpu)
        message = failure_message(first, shrunk, findings[1:], replay, page)
    raise AssertionError(message)  # one place, so that hypothesis sees the same failure on every run


def as_solver(solver) -> Solver:
    """The Solver a thing stands for: a Solver as it is, a name through the registry, a class made
    without arguments, a protocol function wrapped (named by its import path when it has one)."""
    if isinstance(solver, str):
        return require_runnable(named_solver(solver))  # one per name: its sandbox is forked once; a program
        # that is not there fails the test at once, with the reason, rather than as a crash on the board
    if isinstance(solver, type):
        solver = solver()
    if isinstance(solver, Solver):
        return solver
    if callable(solver):
        return _wrapped(solver)
    raise TypeError(f"{solver!r} is no solver: give a Solver, a name, or a function f(board_text, mode) -> dict")


@cache
def _wrapped(function) -> FunctionSolver:
    """One solver per function, so that a test calling assert_agree again and again forks its sandbox once."""
    return FunctionSolver(import_path(function) or getattr(function, "__name__", "function"), function)


def import_path(thing: object) -> str | None:
    """``module:attribute`` by which ``minecheck check`` imports the thing, or None when it cannot: a
    lambda, a function defined inside another, anything defined in ``__main__``."""
    if isinstance(thing, FunctionSolver):
        return import_path(thing.function)
    module, qualname = getattr(thing, "__module__", None), getattr(thing, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and _resolves(module, qualname, thing):
        return f"{module}:{qualname}"
    module = type(thing).__module__
    namespace = vars(sys.modules[module]) if module in sys.modules and module != "__main__" else {}
    for name, value in namespace.items():  # an instance bound to a module-level name
        if value is thing:
            return f"{module}:{name}"
    if _resolves(module, type(thing).__qualname__, type(thing)) and _made_without_arguments(type(thing)):
        return f"{module}:{type(thing).__qualname__}"
    return None


def replay_line(given, subject: Solver, finding: Finding, shrunk: Shrunk | None,
                references: Sequence[str | Solver], cpu: float) -> tuple[str, str]:
    """The ``minecheck check`` command that replays the finding, and a note when the solver has no
    name that command can use."""
    text = format_board(shrunk.board) if shrunk else finding.board
    name, prefix, note = finding.subject, "", ""
    if finding.subject == subject.name and not _named_by(given, subject):
        path = import_path(given)
        if path is None:
            note = (f"{subject.name} has no import path that `minecheck check` can use (a lambda, a local function, "
                    "or code in __main__): define it at module level and give --solvers module:attribute")
        else:
            name = path
            root = _import_root(path.partition(":")[0])
            if root is not None and root != Path.cwd():
                prefix = f"PYTHONPATH={shlex.quote(_shown_path(root))} "
    command = prefix + replay_command(replace(finding, subject=name), text)
    if cpu != DEFAULT_CPU:
        command += f" --timeout {cpu:g}"
    return command, note


def failure_message(finding: Finding, shrunk: Shrunk | None, others: list[Finding], replay: tuple[str, str],
                    page: Path) -> str:
    """What a failing test shows: the disagreement, the shrunk board, how to replay it, where its page is."""
    shown = shrunk.finding if shrunk else finding
    board = shrunk.board if shrunk else parse_board(finding.board)
    who = "minecheck's references disagree" if finding.kind is Kind.REFERENCE else f"{finding.subject} disagrees"
    lines = [f"{who} with {finding.reference} ({finding.kind.value}, {finding.mode.value} mode)", "",
             findings_text(board, [shown]), ""]
    if shrunk and shrunk.stats.cut_short:
        lines.append(f"a smaller board that still shows it (shrinking was cut short after {shrunk.stats.calls} checks; "
                     f"{shrunk.stats.cells_before} cells shrunk to {shrunk.stats.cells_after}):")
    elif shrunk and shrunk.stats.cells_after < shrunk.stats.cells_before:
        lines.append(f"the smallest board that still shows it ({shrunk.stats.cells_before} cells shrunk to "
                     f"{shrunk.stats.cells_after} in {shrunk.stats.calls} checks):")
    elif shrunk:
        lines.append(f"the board, which is already the smallest that shows it ({shrunk.stats.calls} checks):")
    else:
        lines.append("the board (a timeout is not shrunk):")
    lines += ["    " + row for row in format_board(board).splitlines()]
    command, note = replay
    lines += ["", f"replay: {command}"] + ([f"        ({note})"] if note else []) + [f"page:   {page}"]
    if others:
        kinds = ", ".join(sorted({f"{f.kind.value} ({f.mode.value})" for f in others}))
        lines.append(f"and {len(others)} more finding(s) on the original board: {kinds}")
    return "\n".join(lines)


# -- helpers -----------------------------------------------------------------------------------

def _hypothesis_is_searching() -> bool:
    """Whether this runs inside a hypothesis test that is still generating or shrinking examples (not
    its final run, which reports the failing example)."""
    hypothesis = sys.modules.get("hypothesis")
    if hypothesis is None or not hypothesis.currently_in_test_context():
        return False
    from hypothesis.control import current_build_context

    return not current_build_context().is_final


def _hide_from_hypothesis() -> None:
    """Keep minecheck's own lines out of hypothesis's "Explanation: these lines were always and only run by
    failing test cases", which otherwise points into minecheck/check/compare.py rather than at the solver.

    Hypothesis leaves out the locations in ``scrutineer.UNHELPFUL_LOCATIONS`` (pytest's, pluggy's); there
    is no public way to add one, so this adds minecheck's folder there when hypothesis is loaded, and does
    nothing when that internal name is gone.
    """
    if "hypothesis" not in sys.modules:  # not under @given: nothing to explain
        return
    try:
        from hypothesis.internal import scrutineer
    except ImportError:
        return
    unhelpful = getattr(scrutineer, "UNHELPFUL_LOCATIONS", None)
    if isinstance(unhelpful, tuple) and MINECHECK_FILES not in unhelpful:
        scrutineer.UNHELPFUL_LOCATIONS = (*unhelpful, MINECHECK_FILES)


def _parse(text: str) -> Board:
    return parse_board(text if "\n" in text else text.replace("/", "\n"))


def _modes(board: Board, mode, subject: Solver) -> tuple[Mode, ...]:
    if mode is None:
        return tuple(m for m in modes_for(board) if m in subject.modes)
    asked = (mode,) if isinstance(mode, str | Mode) else tuple(mode)
    modes = tuple(Mode(m) for m in asked)
    for m in modes:
        require_mode(subject, m)
        if m is Mode.GLOBAL and board.total_mines is None:
            raise BadOption("the global mode needs the total mine count: give the board a header WxHxM")
    return modes


def _named_by(given, subject: Solver) -> bool:
    """Whether ``minecheck check --solvers NAME`` makes this solver: it was given by name, or its name is known."""
    if isinstance(given, str):
        return True
    if isinstance(subject, FunctionSolver):
        return False
    try:
        lookup(subject.name)
    except UnknownSolver:
        return False
    return True


def _resolves(module: str, qualname: str, thing: object) -> bool:
    if module == "__main__" or "<" in qualname or module not in sys.modules:
        return False
    found: object = sys.modules[module]
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found is thing


def _made_without_arguments(cls: type) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def _import_root(module: str) -> Path | None:
    """The folder from which ``module`` is imported (what must be on the path to import it again)."""
    file = getattr(sys.modules.get(module), "__file__", None)
    if file is None:
        return None
    root = Path(file).resolve().parent
    for _ in range(module.count(".") + (Path(file).name == "__init__.py")):
        root = root.parent
    return root


def _shown_path(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
