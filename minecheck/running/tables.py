"""The solvers a user defines: a ``Definition`` (how to make one solver, as plain data a worker can be handed),
and the tables that give them - ``[tool.minecheck.solvers]`` in a pyproject.toml, or ``NAME={...}`` on the
command line - read and checked entry by entry, each error naming its table (exit 2).

What a table grants its solver's sandbox is checked here, when it is read: ``writable`` paths are resolved
(``..`` and links) and must not be, nor hold, ``/`` or the home folder, nor lie in a run folder; the run's own
folders (``--out``, the baseline) are checked when the run starts (``check_grants``).  ``env`` names the
variables of minecheck's environment passed on to the solver: no other is (``jail.environment``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from minecheck.model.errors import UnknownSolver
from minecheck.model.solver import FLAG_READINGS
from minecheck.running.manifest import MANIFEST
from minecheck.running.protocol import precision

COMMAND = "cmd:"
TABLE = ("tool", "minecheck", "solvers")


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
    flags: str | None = None  # "marks": it reads a flag as the player's mark, not a mine (None: as it declares)
    writable: tuple[str, ...] = ()  # the paths it may write in its sandbox (all else is read-only)
    env: tuple[str, ...] = ()  # the variables of minecheck's environment passed on to it (jail.environment)

    @property
    def where(self) -> str:
        """Its table, as an error names it."""
        if self.origin.startswith("pyproject.toml at "):
            folder = Path(self.origin.removeprefix("pyproject.toml at "))
            return f"[tool.minecheck.solvers] {self.name} in {folder / 'pyproject.toml'}"
        return f"--solvers {self.name}={{...}}"

    @property
    def is_command(self) -> bool:
        return self.target.startswith(COMMAND)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Definition:
        data = json.loads(text)
        for key in ("modes", "answers", "writable", "env"):
            if data.get(key) is not None:
                data[key] = tuple(data[key])
        return Definition(**data)


@cache
def read_table(path: Path) -> dict[str, Definition]:
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
    return {name: entry(name, value, origin, path.parent) for name, value in table.items()}


def entry(name: str, value: object, origin: str, folder: Path) -> Definition:
    """One entry of the table: a string (import path or cmd:...), or a table describing a program or import path."""
    where = (f"--solvers {name}={{...}}" if origin == "command line"
             else f"[tool.minecheck.solvers] {name} in {folder / 'pyproject.toml'}")
    if isinstance(value, str):
        value = {"command": value[len(COMMAND):]} if value.startswith(COMMAND) else {"target": value}
    if not isinstance(value, dict):
        raise UnknownSolver(f"{where}: expected a string or a table, got {value!r}")
    unknown = set(value) - {"target", "command", "persistent", "modes", "answers", "cwd", "decimals", "tolerance",
                            "flags", "writable", "env"}
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
    flags = value.get("flags")
    if flags is not None and flags not in FLAG_READINGS:
        raise UnknownSolver(f"{where}: flags = {flags!r}: give \"mines\" (a flag is a mine) or \"marks\" (a flag "
                            "is the player's mark: the solver is given flagged boards with their flags covered)")
    return Definition(name, target, origin, None, bool(value.get("persistent", False)), modes, answers, cwd,
                      tolerance, flags, _writable(where, value.get("writable", []), Path(cwd)),
                      _env(where, value.get("env", [])))


def _writable(where: str, paths: list, folder: Path) -> tuple[str, ...]:
    """A solver's ``writable`` paths, absolute (from its folder, ``..`` and links resolved), each an existing file or
    folder (its own /tmp is writable already): the one way through its sandbox's read-only view (docs/sandbox.md),
    for a program or a Python solver alike.  ``/``, the home folder, a folder holding either, and a run folder or
    anything in one are refused (``check_grant``)."""
    found = []
    for path in paths:
        if not isinstance(path, str):
            raise UnknownSolver(f"{where}: writable = [{str(path)[:40]}]: expected a path (a string)")
        full = (folder / path).resolve()
        if not full.exists():
            raise UnknownSolver(f"{where}: writable = [{path!r}]: no such file or folder (looked in {folder})")
        check_grant(where, path, full, protected_folders())
        found.append(str(full))
    return tuple(found)


def protected_folders() -> list[tuple[str, Path]]:
    """What no ``writable`` may grant, nor hold: the root of the files, and the home folder."""
    homes = {Path(p).resolve() for p in (os.path.expanduser("~"), os.environ.get("HOME")) if p}
    return [("the root of every file", Path("/")), *(("the home folder", home) for home in sorted(homes))]


def check_grant(where: str, given: str, path: Path, protected: list[tuple[str, Path]]) -> None:
    """UnknownSolver naming the table when ``path`` (granted as ``given``) is, or holds, a protected folder, or lies
    in a run folder (a manifest or a lock in it or above it: another run's findings)."""
    grant = f"{where}: writable = [{given!r}]" + (f" grants {path}" if given != str(path) else "")
    for what, folder in protected:
        if path == folder or path in folder.parents:
            said = what if path == folder else f"a folder holding {what} ({folder})"
            raise UnknownSolver(f"{grant}, {said}: a solver may write only its own folders (a cache, a log)")
    for folder in (path, *path.parents):
        if folder != Path("/") and any((folder / name).exists() for name in RUN_MARKS):
            raise UnknownSolver(f"{grant}, in the run folder {folder}: a solver may not write a run's findings")


def check_grants(definitions: tuple[str, ...], protected: list[tuple[str, Path]]) -> None:
    """Every ``writable`` of these definitions (Definition JSON texts) against the run's own folders (``--out``,
    the baseline...): UnknownSolver naming the table when one grants one of them or a folder holding it."""
    for text in definitions:
        definition = Definition.from_json(text)
        for granted in definition.writable:
            check_grant(definition.where, granted, Path(granted), protected)


RUN_MARKS = (MANIFEST,)  # what a run folder holds (a ".lock" alone may be anyone's)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _env(where: str, names: list) -> tuple[str, ...]:
    """The names of the variables a solver's table passes on to it, each a plain variable name."""
    for name in names:
        if not isinstance(name, str) or not _ENV_NAME.fullmatch(name):
            raise UnknownSolver(f"{where}: env = [{str(name)[:40]!r}]: expected the name of an environment variable")
    return tuple(names)


_TYPES = {"target": str, "command": str, "persistent": bool, "modes": list, "answers": list, "cwd": str,
          "writable": list, "env": list}
_TYPE_NAMES = {"target": "a string", "command": "a string", "persistent": "true or false",
               "modes": "a list of strings", "answers": "a list of strings", "cwd": "a string",
               "writable": "a list of paths", "env": "a list of variable names"}
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


def inline_table(name: str, text: str) -> dict:
    """``{ command = "...", ... }`` read as TOML, as the same entry in a pyproject.toml would be."""
    import tomllib

    try:
        return tomllib.loads(f"entry = {text}")["entry"]
    except tomllib.TOMLDecodeError as err:
        raise UnknownSolver(f"{name}={text}: not a TOML inline table ({err}); write it as in pyproject.toml, "
                            "e.g. {command = \"./engine\", persistent = true, decimals = 5}") from None


