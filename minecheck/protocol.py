"""The solver protocol, schema 1: what a solver outside minecheck is given and what it must answer.

A solver in any language is a program (``minecheck.external``); a Python solver may also be a
plain function ``f(board_text, mode) -> dict``.  Both answer the same JSON object, described by
``minecheck/schema/answer-v1.json`` and checked here, field by field, against the board it
answers: a cell off the board or on an opened cell, an unknown verdict, a probability outside
[0, 1] are each a ``ProtocolError`` naming the place.  What the answer holds is what it claims:
verdicts where it gives verdicts, probabilities where it gives probabilities, a count where it
gives ``layouts``, consistency where it says ``consistent``; a cell left out claims nothing.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from minecheck.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.board import Board, label
from minecheck.boardtext import format_board

SCHEMA_VERSION = 1
SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / "answer-v1.json"
PROTOCOL_PREFIX = "Protocol"  # the error of an answer that breaks the schema starts with this


class ProtocolError(ValueError):
    """An answer that breaks the schema; the message names the field (``cells[3].verdict``)."""


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
        data = json.loads(stripped)
    except json.JSONDecodeError as err:
        raise ProtocolError(f"the answer is not JSON ({err.msg} at line {err.lineno}, column {err.colno}): "
                            f"{_excerpt(stripped)}") from None
    return decode_object(data, board, mode, name)


def decode_object(data: Any, board: Board, mode: Mode, name: str) -> SolverResult:
    """Check an answer object against the schema and the board; the result it stands for."""
    _check_schema(data)
    cells, seen = [], {}
    for i, item in enumerate(data["cells"]):
        row, col = item["row"], item["col"]
        where = f"cells[{i}]"
        if row >= board.height or col >= board.width:
            raise ProtocolError(f"{where}: row {row}, col {col} is off the {board.width}x{board.height} board")
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
                        cells=tuple(sorted(cells, key=lambda a: a.cell)), layouts=data.get("layouts"),
                        samples=data.get("samples"), claims=claims, partial=True)


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
    from jsonschema import Draft202012Validator  # imported only when an answer is checked

    errors = sorted(Draft202012Validator(answer_schema()).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        place = _place(err.absolute_path) or "the answer"
        raise ProtocolError(f"{place}: {_explain(err)}")


def _place(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _explain(err) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown field(s)")
    if err.validator == "oneOf" and err.absolute_path and err.absolute_path[-1] == "probability":
        return f"{err.instance!r} is not a probability: a number in [0, 1], a fraction string such as \"1/3\", or null"
    if err.validator == "enum" and err.absolute_path and err.absolute_path[-1] == "verdict":
        return f"{err.instance!r} is not a verdict: \"safe\", \"mine\", \"unknown\" or null"
    return err.message


def _excerpt(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")
