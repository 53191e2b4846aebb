"""The solver protocol, schema 1: what a solver outside minecheck is given and what it must answer.

A solver in any language is a program (``minecheck.running.external``); a Python solver may also be a
plain function ``f(board_text, mode) -> dict``.  Both answer the same JSON object, described by
``minecheck/schema/answer-v1.json`` and checked here, field by field, against the board it
answers: a cell off the board or on an opened cell, an unknown verdict, a probability outside
[0, 1] are each a ``ProtocolError`` naming the place.  What the answer holds is what it claims:
verdicts where it gives verdicts, probabilities where it gives probabilities, a count where it
gives ``layouts``, consistency where it says ``consistent``; a cell left out claims nothing.
``layouts`` may be a decimal string ("123456789012345678901"): counts outgrow the doubles a JavaScript
program prints its numbers as (2^53), and a string keeps every digit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from minecheck.model.answers import UNDECLARED, Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board, label
from minecheck.model.boardtext import format_board
from minecheck.model.errors import ProtocolError
from minecheck.model.numbers import whole

SCHEMA_VERSION = 1
SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / "answer-v1.json"
PROTOCOL_PREFIX = "Protocol"  # the error of an answer that breaks the schema starts with this


def board_text(board: Board) -> str:
    """The board as a solver is given it: the .mine text, header WxHxM when the total is known, no hidden truth."""
    visible = Board(board.width, board.height, board.cells, board.total_mines, None)
    return format_board(visible)


def seed_for(board: Board, mode: Mode) -> int:
    """The seed a sampler is given for this board and mode: the same on every run and machine."""
    digest = hashlib.sha256(f"{board_text(board)}|{mode.value}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def request_line(board: Board, mode: Mode) -> str:
    """One request of the persistent mode: a JSON object on one line."""
    return json.dumps({"schema": SCHEMA_VERSION, "board": board_text(board), "mode": mode.value,
                       "seed": seed_for(board, mode)})


@cache
def answer_schema() -> dict:
    """The answer's JSON Schema, as shipped in minecheck/schema/answer-v1.json."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def decode_answer(text: str, board: Board, mode: Mode, name: str) -> SolverResult:
    """Parse one answer (JSON text) into a result; raise ProtocolError on anything else."""
    stripped = text.strip()
    if not stripped:
        raise ProtocolError("the answer is empty: expected one JSON object")
    try:
        data = json.loads(stripped, parse_constant=_no_constant, parse_int=whole)
    except json.JSONDecodeError as err:
        stray = _stray_lines(stripped)
        if stray:
            raise ProtocolError(f"besides a JSON answer, standard output held {len(stray)} other line(s), the "
                                f"first {_excerpt(stray[0])}: standard output must hold the answer alone (write "
                                f"anything else to standard error)") from None
        raise ProtocolError(f"the answer is not JSON ({err.msg} at line {err.lineno}, column {err.colno}): "
                            f"{_excerpt(stripped)}") from None
    except RecursionError:
        raise ProtocolError("the answer nests arrays or objects deeper than a JSON reader follows (about "
                            f"{sys.getrecursionlimit()} levels); schema {SCHEMA_VERSION} nests 3") from None
    except ProtocolError:
        raise
    except ValueError as err:  # an integer past Python's limit on digits
        raise ProtocolError(f"the answer holds a number too long to read ({err}); a count past "
                            f"{sys.get_int_max_str_digits()} digits is no count of a board's layouts") from None
    return decode_object(data, board, mode, name)


FIELDS = {  # each answer's fields: the answer's own, and each cell's
    Answers.VERDICTS: ((), ("verdict",)),
    Answers.PROBABILITIES: (("samples", "decimals", "tolerance"), ("probability", "stderr")),
    Answers.COUNTS: (("layouts",), ()),
    Answers.CONSISTENCY: (("consistent", "reason"), ()),
}


def decode_declared(text: str, board: Board, mode: Mode, name: str, declared: frozenset[Answers]) -> SolverResult:
    """``decode_answer`` for a solver that declares ``declared``: a complaint about an answer it does not declare
    (a probability of 2.0 from a solver of verdicts) is no failure.  The answer is read again without the
    fields of what it does not declare, and the complaint kept in the result's extra (``UNDECLARED``): not
    judged, unless ``--judge-undeclared`` (``check.compare``).  A complaint about a declared answer, or about
    the answer as a whole (not JSON, a cell off the board or answered twice), stands: ProtocolError."""
    try:
        return decode_answer(text, board, mode, name)
    except ProtocolError as err:
        complaint = err
    try:
        data = json.loads(text.strip(), parse_constant=float, parse_int=whole)  # NaN read, to be left out
    except (ValueError, RecursionError):
        raise complaint from None
    bare = _without(data, frozenset(Answers) - declared)
    if bare is None or bare == data:
        raise complaint
    try:
        result = decode_object(bare, board, mode, name)
    except ProtocolError:
        raise complaint from None
    return replace(result, extra=result.extra + ((UNDECLARED, f"{PROTOCOL_PREFIX}: {complaint}"),))


def _without(data: Any, answers: frozenset[Answers]) -> dict | None:
    """The answer without the fields of ``answers`` (None if it is no object with a list of cells)."""
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return None
    own = {f for a in answers if a in FIELDS for f in FIELDS[a][0]}  # (an LP's values are no field of an answer)
    per_cell = {f for a in answers if a in FIELDS for f in FIELDS[a][1]}
    out = {k: v for k, v in data.items() if k not in own}
    out["cells"] = [{k: v for k, v in c.items() if k not in per_cell} if isinstance(c, dict) else c
                    for c in data["cells"]]
    return out


def _no_constant(name: str) -> Any:
    """JSON has no NaN or Infinity (Python's reader takes them): an answer holding one breaks the schema."""
    raise ProtocolError(f"the answer holds {name}, which is not JSON: a probability is a number in [0, 1] or a "
                        "fraction string such as \"1/3\"")


def _stray_lines(text: str) -> list[str]:
    """The lines that are not the answer, when one line of several is a JSON object (a debug print beside
    the answer), else []: then the text is not JSON at all, and says so as a whole."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return []
    objects = []
    for line in lines:
        try:
            objects.append(isinstance(json.loads(line), dict))
        except json.JSONDecodeError:
            objects.append(False)
    return [line for line, is_object in zip(lines, objects) if not is_object] if any(objects) else []


def decode_object(data: Any, board: Board, mode: Mode, name: str) -> SolverResult:
    """Check an answer object against the schema and the board; the result it stands for."""
    _check_schema(data)
    cells, seen = [], {}
    for i, item in enumerate(data["cells"]):
        row, col = int(item["row"]), int(item["col"])
        where = f"cells[{i}]"
        if row >= board.height or col >= board.width:
            raise ProtocolError(f"{where}: row {_short(row)}, col {_short(col)} is off the {board.width}x"
                                f"{board.height} board")
        cell = board.cell(row, col)
        if not board.is_covered(cell):
            what = "a flag" if board.is_flag(cell) else f"an opened {board.cells[cell]}"
            raise ProtocolError(f"{where}: {label(board, cell)} is {what}, not a covered cell")
        if cell in seen:
            raise ProtocolError(f"{where}: {label(board, cell)} is answered twice (also cells[{seen[cell]}])")
        seen[cell] = i
        verdict = Verdict(item["verdict"]) if item.get("verdict") is not None else None
        probability = _probability(item.get("probability"), f"{where}.probability")
        cells.append(CellAnswer(cell, verdict, probability, item.get("stderr")))
    claims = _claims(data, cells)
    return SolverResult(name, mode, consistent=data.get("consistent"), reason=data.get("reason"),
                        cells=tuple(sorted(cells, key=lambda a: a.cell)), layouts=_whole(data.get("layouts")),
                        samples=_whole(data.get("samples")), claims=claims, partial=True,
                        tolerance=precision(data.get("decimals"), data.get("tolerance")))


def precision(decimals: int | None, tolerance: float | None) -> float | None:
    """The tolerance a declared precision gives: half a unit of the last decimal (and a hair more, for the
    rounding of the decimal text itself), or the tolerance as given; None when neither is declared."""
    if decimals is not None:
        return 0.5 * 10.0 ** -int(decimals) * (1 + 1e-9)
    return None if tolerance is None else float(tolerance)


def _whole(value: Any) -> int | None:
    """A count as given: an integer, a whole number written with a point (2.0), or a decimal string (of any
    length, read by GMP: a count past 4,300 digits is a count like any other)."""
    if value is None:
        return None
    return whole(value) if isinstance(value, str) else int(value)


def _claims(data: dict, cells: list[CellAnswer]) -> frozenset[Answers]:
    out = set()
    if any(a.verdict is not None for a in cells):
        out.add(Answers.VERDICTS)
    if any(a.probability is not None for a in cells):
        out.add(Answers.PROBABILITIES)
    if data.get("layouts") is not None:
        out.add(Answers.COUNTS)
    if data.get("consistent") is not None:
        out.add(Answers.CONSISTENCY)
    return frozenset(out)


def _probability(value: Any, where: str) -> Fraction | float | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            p = Fraction(value.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            raise ProtocolError(f"{where}: {value!r} is not a fraction such as \"1/3\"") from None
    elif isinstance(value, int):
        p = Fraction(value)
    else:
        p = float(value)
    if not 0 <= p <= 1:
        raise ProtocolError(f"{where}: {value!r} is outside [0, 1]")
    return p


def _check_schema(data: Any) -> None:
    if not isinstance(data, dict):
        raise ProtocolError(f"the answer is {type(data).__name__} {_excerpt(json.dumps(data))}, not a JSON object")
    if data.get("schema") != SCHEMA_VERSION:
        raise ProtocolError(f"schema: {data.get('schema')!r} is not understood; minecheck speaks schema "
                            f"{SCHEMA_VERSION} (put \"schema\": {SCHEMA_VERSION} in the answer)")
    if follows_schema(data):
        return
    from jsonschema import Draft7Validator  # only to word what is wrong: 30 ms an answer, so not every time

    errors = sorted(Draft7Validator(answer_schema()).iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:  # the two validators read one schema; a difference would be theirs, not the answer's
        raise ProtocolError(f"the answer does not follow schema {SCHEMA_VERSION}: {_excerpt(json.dumps(data))}")
    err = errors[0]
    place = _place(err.absolute_path) or "the answer"
    raise ProtocolError(f"{place}: {_explain(err)}")


@cache
def _compiled():
    """The answer schema compiled to Python (fastjsonschema): the one schema, checked at the speed of code."""
    import fastjsonschema

    return fastjsonschema.compile(answer_schema())


def follows_schema(data: Any) -> bool:
    """Whether the answer follows schema/answer-v1.json, by the validator generated from that file."""
    import fastjsonschema

    try:
        _compiled()(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _place(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _explain(err) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown field(s)")
    if err.validator == "anyOf" and err.absolute_path and err.absolute_path[-1] == "probability":
        return f"{err.instance!r} is not a probability: a number in [0, 1], a fraction string such as \"1/3\", or null"
    if err.validator == "enum" and err.absolute_path and err.absolute_path[-1] == "verdict":
        return f"{err.instance!r} is not a verdict: \"safe\", \"mine\", \"unknown\" or null"
    return err.message


def _short(number: int) -> str:
    text = str(number)
    return text if len(text) <= 12 else f"{text[:6]}...({len(text)} digits)"


def _excerpt(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")
