"""What minecheck reads back from a run folder, checked before use: each line of each file it knows is JSON
of the right types, depth and size (schema/runfolder-v1.json), or BadFile naming the file, the line and the
field (exit 2).  A line that is no JSON object (cut short by a kill, or garbage) is left to the reader, which
drops it saying so, as it drops an object naming no task.

The depth is checked on the raw text before json.loads sees it: Python's reader recurses once per level,
so 200,000 nested brackets would end in a RecursionError (minecheck's fault, exit 3) instead of a message.
Integers are read by GMP (model/numbers.py) and a float past 1e308 is refused, not read as infinity.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from minecheck.model.errors import BadFile, MinecheckError
from minecheck.model.numbers import whole
from minecheck.running.files import check_kind, read_bytes

SCHEMA_FILE = Path(__file__).with_name("schema") / "runfolder-v1.json"
MAX_DEPTH = 64  # levels of nested arrays and objects: minecheck's own lines nest 8 at most
MAX_LINE = 64 * 2**20  # bytes of one line (a board's answers on a 1000x1000 board stay far below)

# a run folder's files by name, with the definition each line (.jsonl) or the whole file (.json) must follow
FILES = {"boards.jsonl": "result", "games.jsonl": "object", "findings.jsonl": "finding",
         "answers.jsonl": "answers", "certificates.jsonl": "certificate", "shrunk.jsonl": "shrunk",
         "campaign.json": "campaign", "play.json": "object"}
OWN = (".lock", ".minecheck-files", ".minecheck-digests", "summary.json")  # read back too, by their own readers

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: 30x faster on long strings
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}|\[\}|\{\]")
_BIG_EXPONENT = re.compile(r"[eE][+]?0*\d{3,}")  # a float that may pass 1e308 (the others are finite)


def depth(text: str, most: int = MAX_DEPTH) -> int:
    """How deep arrays and objects nest in JSON text, counted without parsing (brackets inside strings do not
    count) up to ``most + 1``: each pass of a regular expression takes away the innermost pairs."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    level = 0
    while brackets and level <= most:
        brackets, taken = _INNERMOST.subn("", brackets)
        if not taken:
            break
        level += 1
    return level


def loads(text: str, where: str) -> Any:
    """JSON text read safely: BadFile naming ``where`` if it nests too deep; ValueError if it is not JSON."""
    if len(text) > MAX_LINE:
        raise BadFile(f"{where}: {len(text)} characters, more than the {MAX_LINE} minecheck writes on a line")
    if "[" in text or "{" in text:
        levels = depth(text)
        if levels > MAX_DEPTH:
            raise BadFile(f"{where}: arrays or objects nested more than {MAX_DEPTH} deep, the most minecheck "
                          "reads (minecheck's own files nest a few levels)")
    hooks: dict[str, Any] = {"parse_constant": _no_constant}
    if _BIG_EXPONENT.search(text):
        hooks["parse_float"] = _finite_float
    try:
        return json.loads(text, **hooks)
    except ValueError as err:
        if "Exceeds the limit" not in str(err):
            raise
    return json.loads(text, parse_int=whole, **hooks)  # an integer past Python's 4,300 digits: read by GMP


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(text)
    return value


def _no_constant(name: str) -> Any:
    raise _NotFinite(name)


class _NotFinite(MinecheckError, ValueError):
    """A number JSON cannot hold as a float (1e999, NaN, Infinity)."""


def check_value(value: Any, definition: str, where: str) -> None:
    """BadFile naming ``where`` and the field if ``value`` does not follow the schema's ``definition``."""
    import fastjsonschema

    try:
        _validator(definition)(value)
    except fastjsonschema.JsonSchemaValueException as err:
        field = err.name.removeprefix("data").lstrip(".")
        said = err.message.removeprefix(err.name + " ")
        raise BadFile(f"{where}: field {field}: {said}" if field else f"{where}: {said}") from None


@cache
def _validator(definition: str):
    import fastjsonschema

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return fastjsonschema.compile({**schema, "$ref": f"#/definitions/{definition}"})


def check_file(path: Path, definition: str) -> None:
    """Every line of a JSON-lines file (or the whole of a .json file) checked, in order: BadFile naming the
    first that is too deep, too long, holds a number JSON cannot or does not follow ``definition``."""
    for where, text in _pieces(path):
        try:
            value = loads(text, where)
        except BadFile:
            raise
        except _NotFinite as err:
            raise BadFile(f"{where}: holds {err}, a number JSON cannot hold") from None
        except ValueError:
            if path.suffix == ".json":
                raise BadFile(f"{where}: not JSON") from None
            continue  # a line cut short by a kill: the reader drops it, saying so
        if isinstance(value, dict) or path.suffix == ".json":  # a line that is no object is dropped, saying so
            check_value(value, definition, where)


def _pieces(path: Path) -> Iterator[tuple[str, str]]:
    try:
        text = (read_bytes(path) or b"").decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadFile(f"{path}: not UTF-8 text (byte {err.start})") from None
    if path.suffix == ".json":
        yield str(path), text
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{path} line {n}", line


def check_folder(folder: Path) -> None:
    """Each file of a run folder that minecheck reads back, checked before any is used (``--resume``, verify): a
    regular file of bounded size, not a link, a FIFO or a device (``files.check_kind``), and of its schema."""
    for name in (*FILES, *OWN):
        check_kind(folder / name)
    for name, definition in FILES.items():
        if (folder / name).is_file():
            check_file(folder / name, definition)
