"""Where solver names come from: one lookup for built-in, configured, installed and inline solvers.

A name is looked up, in this order, among

* the built-in solvers (``exact``, ``ilp@seed``, ... ``minisat``), with an optional ``:option``;
* the user's ``[tool.minecheck.solvers]`` table in the nearest ``pyproject.toml`` (searched from
  the working directory upwards): ``name = "pkg.module:Thing"``, ``name = "cmd:COMMAND"``, or a
  table ``{ command = "...", persistent = true, modes = [...], answers = [...] }``;
* the entry points of the group ``minecheck.solvers`` of installed packages;
* inline forms: ``pkg.module:Thing`` (an import path), ``cmd:COMMAND`` (a program), and
  ``NAME=...`` to name either.

The result is a ``Definition``: plain data that says how to make the solver, so that a worker
(a forked process, or a dask worker elsewhere) makes the same solver from it.  The cross-check,
campaigns and reports never ask where a solver came from.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from minecheck.model.errors import UnknownSolver
from minecheck.running.catalogue import CATALOGUE, LP_SOLVERS, Role
from minecheck.running.protocol import precision

BUILT_IN: dict[str, str] = {e.name: e.target for e in CATALOGUE if Role.LP not in e.roles}  # Solvers by name
COMMAND = "cmd:"
GROUP = "minecheck.solvers"
TABLE = ("tool", "minecheck", "solvers")


def suggest(name: str, known) -> str:
    """" (did you mean 'exact'?)" when a known name is close to the one given (difflib), else ""."""
    from difflib import get_close_matches

    close = get_close_matches(name, list(known), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


@dataclass(frozen=True)
class Definition:
    """How to make one solver: an import path (``module:attribute``) or a command, and where it was found."""

    name: str
    target: str  # "module:attribute", or "cmd:COMMAND"
    origin: str  # "built-in", "pyproject.toml at PATH", "installed (DIST)", "command line"
    option: str | None = None
    persistent: bool = False
    modes: tuple[str, ...] | None = None  # for programs: the modes it answers (default both)
    answers: tuple[str, ...] | None = None  # for programs: what it answers (default everything it says)
    cwd: str | None = None  # a pyproject's folder: where its programs run, and where its import paths are found
    tolerance: float | None = None  # for programs: the precision of their probabilities (decimals or tolerance)

    @property
    def is_command(self) -> bool:
        return self.target.startswith(COMMAND)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Definition:
        data = json.loads(text)
        for key in ("modes", "answers"):
            if data.get(key) is not None:
                data[key] = tuple(data[key])
        return Definition(**data)


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
            return _entry(alias, _inline_table(alias, rest), "command line", Path.cwd())
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
    known = named()
    raise UnknownSolver(f"unknown solver {name!r}{suggest(base, [*known, *LP_SOLVERS])}; known: "
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
    return _table(path)


@cache
def _table(path: Path) -> dict[str, Definition]:
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise UnknownSolver(f"{path}: not UTF-8 text (byte {err.start}), which TOML must be") from None
    if toml_depth(text) > MAX_TOML_DEPTH:  # tomllib recurses once a level: refused before it reads
        raise UnknownSolver(f"{path}: arrays or inline tables nested {toml_depth(text)} deep, more than the "
                            f"{MAX_TOML_DEPTH} minecheck reads")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UnknownSolver(f"{path}: not valid TOML ({err})") from None
    table, place = data, []
    for key in TABLE:
        place.append(key)
        table = table.get(key, {})
        if not isinstance(table, dict):
            raise UnknownSolver(f"{path}: {'.'.join(place)} = {str(table)[:40]}: [{'.'.join(place)}] must be a "
                                "table (of solvers: name = \"module:attribute\" or a table)")
    origin = f"pyproject.toml at {path.parent}"
    return {name: _entry(name, value, origin, path.parent) for name, value in table.items()}


def _entry(name: str, value: object, origin: str, folder: Path) -> Definition:
    """One entry of the table: a string (import path or cmd:...), or a table describing a program or import path."""
    where = (f"--solvers {name}={{...}}" if origin == "command line"
             else f"[tool.minecheck.solvers] {name} in {folder / 'pyproject.toml'}")
    if isinstance(value, str):
        value = {"command": value[len(COMMAND):]} if value.startswith(COMMAND) else {"target": value}
    if not isinstance(value, dict):
        raise UnknownSolver(f"{where}: expected a string or a table, got {value!r}")
    unknown = set(value) - {"target", "command", "persistent", "modes", "answers", "cwd", "decimals", "tolerance"}
    if unknown:
        raise UnknownSolver(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if ("target" in value) == ("command" in value):
        raise UnknownSolver(f"{where}: give either target = \"module:attribute\" or command = \"...\"")
    for key, kind in _TYPES.items():
        if key in value and not isinstance(value[key], kind):
            raise UnknownSolver(f"{where}: {key} = {str(value[key])[:40]}: expected {_TYPE_NAMES[key]}")
    target = value.get("target") or COMMAND + str(value["command"])
    modes = tuple(value["modes"]) if "modes" in value else None
    answers = tuple(value["answers"]) if "answers" in value else None
    cwd = str((folder / value["cwd"]).resolve()) if "cwd" in value else str(folder)
    tolerance = _tolerance(where, value.get("decimals"), value.get("tolerance"))
    return Definition(name, target, origin, None, bool(value.get("persistent", False)), modes, answers, cwd,
                      tolerance)


_TYPES = {"target": str, "command": str, "persistent": bool, "modes": list, "answers": list, "cwd": str}
_TYPE_NAMES = {"target": "a string", "command": "a string", "persistent": "true or false",
               "modes": "a list of strings", "answers": "a list of strings", "cwd": "a string"}
MAX_TOML_DEPTH = 64  # levels of arrays and inline tables in a pyproject.toml
_TOML_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def toml_depth(text: str) -> int:
    """How deep arrays and inline tables nest in TOML text (outside strings and comments), without parsing."""
    level = deepest = 0
    for ch in _TOML_STRING.sub("", text):
        if ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def _tolerance(where: str, decimals: object, tolerance: object) -> float | None:
    """The tolerance a table's ``decimals`` or ``tolerance`` declares (at most one of them)."""
    if decimals is not None and tolerance is not None:
        raise UnknownSolver(f"{where}: give decimals or tolerance, not both")
    whole = isinstance(decimals, int) and not isinstance(decimals, bool)
    if decimals is not None and not (whole and 0 <= decimals <= 17):
        raise UnknownSolver(f"{where}: decimals = {decimals!r}: give a whole number of decimals from 0 to 17")
    if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, int | float)
                                  or not 0 < tolerance <= 1):
        raise UnknownSolver(f"{where}: tolerance = {tolerance!r}: give a number above 0 and at most 1")
    return precision(decimals, tolerance)


def _inline_table(name: str, text: str) -> dict:
    """``{ command = "...", ... }`` read as TOML, as the same entry in a pyproject.toml would be."""
    import tomllib

    try:
        return tomllib.loads(f"entry = {text}")["entry"]
    except tomllib.TOMLDecodeError as err:
        raise UnknownSolver(f"{name}={text}: not a TOML inline table ({err}); write it as in pyproject.toml, "
                            "e.g. {command = \"./engine\", persistent = true, decimals = 5}") from None


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
    if not definition.is_command:
        return f"{definition.name}={definition.target}"
    fields = [f"command = {_toml(definition.target[len(COMMAND):])}"]
    if definition.persistent:
        fields.append("persistent = true")
    for key in ("modes", "answers"):
        if getattr(definition, key):
            fields.append(f"{key} = [{', '.join(_toml(v) for v in getattr(definition, key))}]")
    if definition.tolerance is not None:
        fields.append(f"tolerance = {definition.tolerance!r}")
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
