"""Where solver names come from: one lookup for built-in, configured, installed and inline solvers.

A name is looked up, in this order, among

* the built-in solvers (``exact``, ``ilp@seed``, ... ``minisat``), with an optional ``:option``;
* the user's ``[tool.minecheck.solvers]`` table in the nearest ``pyproject.toml`` (searched from
  the working directory upwards): ``name = "pkg.module:Thing"``, ``name = "cmd:COMMAND"``, or a
  table ``{ command = "...", persistent = true, modes = [...], answers = [...], flags = "marks",
  writable = [...] }``;
* the entry points of the group ``minecheck.solvers`` of installed packages;
* inline forms: ``pkg.module:Thing`` (an import path), ``cmd:COMMAND`` (a program), and
  ``NAME=...`` to name either.

The result is a ``Definition``: plain data that says how to make the solver, so that a worker
(a forked process, or a dask worker elsewhere) makes the same solver from it; ``get_solver`` and
``build`` make it (``minecheck.running.registry`` then runs it).  The cross-check, campaigns and
reports never ask where a solver came from.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import sys
from dataclasses import asdict
from functools import cache
from pathlib import Path

from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.errors import SolverUnavailable, Unavailable, UnknownSolver
from minecheck.model.solver import Solver
from minecheck.running import jail, sandbox
from minecheck.running.catalogue import CATALOGUE, LP_SOLVERS, Role
from minecheck.running.external import ALL_ANSWERS, BOTH_MODES, ExternalSolver, Program
from minecheck.running.hosted import Hosted, describe
from minecheck.running.protocol import board_text, decode_answer, decode_object
from minecheck.running.tables import COMMAND, Definition, entry, inline_table, read_table

BUILT_IN: dict[str, str] = {e.name: e.target for e in CATALOGUE if Role.LP not in e.roles}  # Solvers by name
GROUP = "minecheck.solvers"


def suggest(name: str, known) -> str:
    """" (did you mean 'NAME'?)" when a known name is close to the one given (difflib), else ""."""
    from difflib import get_close_matches

    close = get_close_matches(name, list(known), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def lookup(name: str, known: dict[str, Definition] | None = None, persistent: bool = False) -> Definition:
    """The definition of a solver name; UnknownSolver (listing what is known) if there is none.

    ``persistent`` runs a program named inline (``cmd:``) in persistent mode.
    """
    if known and name in known:
        return known[name]
    if persistent:
        found = lookup(name, known)
        return Definition(**{**asdict(found), "persistent": True}) if found.is_command else found
    alias, eq, rest = name.partition("=")
    if eq and alias and "/" not in alias and ":" not in alias:
        if rest.lstrip().startswith("{"):  # NAME={ command = "...", persistent = true, ... }: a pyproject table
            return entry(alias, inline_table(alias, rest), "command line", Path.cwd())
        inner = lookup(rest, known)
        return Definition(**{**asdict(inner), "name": alias})
    if name.startswith(COMMAND):
        if not name[len(COMMAND):].strip():
            raise UnknownSolver("cmd: needs a command, e.g. cmd:'java -cp build MySolver'")
        return Definition(name, name, "command line")
    base, _, option = name.partition(":")
    found = Definition(base, BUILT_IN[base], "built-in") if base in BUILT_IN else named().get(base)
    if found is not None:
        if option and found.is_command:
            raise UnknownSolver(f"{base} is a program ({found.target}); it takes no ':{option}' option")
        return Definition(**{**asdict(found), "name": name, "option": option or None})
    if ":" in name and _looks_importable(name):
        return Definition(name, name, "command line")
    known = [*named(), *LP_SOLVERS]  # every name --solvers takes, the LP solvers too
    raise UnknownSolver(f"unknown solver {name!r}{suggest(base, known)}; known: "
                        f"{', '.join(known)} (or an import path module:attribute, or cmd:COMMAND)")


def resolve(names, persistent: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names as results will show them (``NAME=...`` becomes NAME), and the definitions (JSON) of
    those not built in, for workers that cannot look them up; ``persistent`` makes every program among
    them run in persistent mode."""
    shown, out = [], []
    for name in names:
        d = lookup(name, None, persistent)
        shown.append(d.name)
        if d.origin != "built-in":
            out.append(d.to_json())
    return tuple(shown), tuple(out)


def _looks_importable(path: str) -> bool:
    module, _, attribute = path.partition(":")
    return bool(module) and bool(attribute) and all(p.isidentifier() for p in module.split(".") + attribute.split("."))


def named() -> dict[str, Definition]:
    """Every solver known by a plain name: built-in, then configured, then installed (first wins)."""
    out = {name: Definition(name, target, "built-in") for name, target in BUILT_IN.items()}
    for source in (configured(), installed()):
        for name, definition in source.items():
            out.setdefault(name, definition)
    return out


@cache
def _pyproject_near(start: str) -> Path | None:
    for folder in (Path(start), *Path(start).parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def configured(start: str | None = None) -> dict[str, Definition]:
    """The ``[tool.minecheck.solvers]`` table of the nearest pyproject.toml, as definitions."""
    path = _pyproject_near(str(Path(start or os.getcwd()).resolve()))
    if path is None:
        return {}
    return read_table(path)


def installed() -> dict[str, Definition]:
    """Solvers offered by installed packages through the ``minecheck.solvers`` entry-point group."""
    from importlib.metadata import entry_points  # reads every installed package: only when a name is not built in

    out = {}
    for ep in entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else "an installed package"
        out.setdefault(ep.name, Definition(ep.name, ep.value, f"installed ({dist})"))
    return out


def split_names(text: str) -> list[str]:
    """Comma-separated solver names, where a name may hold commas inside braces, brackets or quotes (an inline
    table: ``fast=exact,zig={command = "./zig", answers = ["verdicts", "probabilities"]}``)."""
    names, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [n.strip() for n in names if n.strip()]


def replay_name(definition: Definition) -> str:
    """How a command line names this solver so that it is made again, as it was: its name where the name alone
    finds it (built in, configured, installed, an import path), else ``NAME={...}`` with the whole definition."""
    if definition.origin != "command line" or definition.name == definition.target:
        return definition.name
    if not definition.is_command and not definition.writable and not definition.env:
        return f"{definition.name}={definition.target}"
    fields = [f"command = {_toml(definition.target[len(COMMAND):])}" if definition.is_command
              else f"target = {_toml(definition.target)}"]
    if definition.persistent:
        fields.append("persistent = true")
    for key in ("modes", "answers"):
        if getattr(definition, key):
            fields.append(f"{key} = [{', '.join(_toml(v) for v in getattr(definition, key))}]")
    if definition.tolerance is not None:
        fields.append(f"tolerance = {definition.tolerance!r}")
    if definition.flags is not None:
        fields.append(f"flags = {_toml(definition.flags)}")
    for key in ("writable", "env"):
        if getattr(definition, key):
            fields.append(f"{key} = [{', '.join(_toml(v) for v in getattr(definition, key))}]")
    return f"{definition.name}={{{', '.join(fields)}}}"


def _toml(text: str) -> str:
    """A TOML basic string."""
    return json.dumps(text)  # JSON's escapes are TOML's for a basic string


def replay_names(definitions) -> dict[str, str]:
    """Name -> ``replay_name``, for the definitions (Definition JSON texts) a run stored."""
    out = {}
    for text in definitions:
        d = Definition.from_json(text)
        out[d.name] = replay_name(d)
    return out


# -- making the solver a definition describes ------------------------------------------

_KNOWN: dict[str, Definition] = {}  # definitions handed over by a campaign (for workers that cannot see its pyproject)


def announce_jail(definitions: tuple[str, ...]) -> None:
    """Look at the sandbox now, before workers are forked, if a program or a Python solver not minecheck's own is
    among these definitions: a sandbox refused here is said once on standard error, not once by each worker."""
    if any(Definition.from_json(text).origin != "built-in" for text in definitions):
        jail.status()


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
        return _declared_flags(ExternalSolver(definition.name, _program(definition)), definition)
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
    return _declared_flags(solver, definition)


def _declared_flags(solver: Solver, definition: Definition) -> Solver:
    """The solver, reading flags as its table says (``flags = "marks"``), where the table says it; else as the
    solver itself declares (its ``flags`` attribute, a mine when it has none)."""
    if definition.flags is not None:
        solver.flags = definition.flags
    return solver


def grants(definition: Definition) -> dict:
    """What a solver not minecheck's own is given in its sandbox, for ``minecheck solvers``: the paths it may
    write, the variables of minecheck's environment it sees, and the user it runs as."""
    if definition.is_command:
        program = _program(definition)
        try:
            planned = jail.plan(program.command, program.cwd, dict(os.environ), program.writable)
        except OSError:
            planned = jail.Plan([])
        as_root = planned.as_root
    else:
        as_root = jail.python_user(definition.writable, (definition.cwd,) if definition.cwd else ())
    given = [*jail.ALLOWED, "HOME", *definition.env]
    return {"writable": list(definition.writable), "env": list(dict.fromkeys(given)), "runs_as": jail.runs_as(as_root)}


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
                         answers=answers, cwd=definition.cwd, tolerance=definition.tolerance,
                         writable=tuple(definition.writable), env=tuple(definition.env))


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
