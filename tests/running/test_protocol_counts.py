"""The protocol as a solver in another language meets it (issue 19, items 3, 4 and 8): a count as a decimal
string (JavaScript cannot print an integer past 2^53), a stray line beside the answer named as such, a
program's standard error shown apart from the reference's answer, and play naming a program as fuzz does."""

from __future__ import annotations

import json
import math
import shlex
import sys

import pytest
from shared import PROGRAMS, board, writing

from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.cli import main
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.model.numbers import whole
from minecheck.report.textview import findings_text
from minecheck.running.discovery import FunctionSolver
from minecheck.running.protocol import answer_schema, decode_answer, follows_schema

PROGRAM = PROGRAMS / "protocol_program.py"
EXPERT = "30x16x99/" + "/".join(["H" * 30] * 16)  # every cell covered: C(480, 99) layouts, about 10^104


def counted(written):
    """A protocol function that answers the exact count, written by ``written``."""
    def solve(text, mode):
        return {"schema": 1, "consistent": True, "layouts": written(count_board(board(text), mode).layouts),
                "cells": []}
    return FunctionSolver("counter", solve)


def test_a_count_past_2_to_the_53_is_exact_as_a_decimal_string_and_wrong_as_a_double():
    assert count_board(board(EXPERT), Mode.GLOBAL).layouts == math.comb(480, 99) > 2**53
    (right,) = check_board(board(EXPERT), [counted(str)], [Mode.GLOBAL], ["exact"])
    assert right.findings == () and right.result("counter").layouts == math.comb(480, 99)
    (wrong,) = check_board(board(EXPERT), [counted(float)], [Mode.GLOBAL], ["exact"])  # what Number prints
    assert [f.kind for f in wrong.findings] == [Kind.COUNT]


WIDE = "200x100x10000\n" + "\n".join(["H" * 200] * 100) + "\n"  # C(20000, 10000) layouts: 6,019 digits


@pytest.mark.parametrize("persistent", [[], ["--persistent"]])
def test_a_right_count_past_pythons_digit_limit_from_a_program_is_no_finding(persistent, tmp_path, capsys):
    (tmp_path / "wide.txt").write_text(WIDE)
    name = "cmd:" + shlex.join([sys.executable, str(PROGRAM), *persistent])
    code = main(["check", str(tmp_path / "wide.txt"), "--solvers", name, "--references", "exact", "--json",
                 "--timeout", "60", *persistent])
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out, parse_int=whole)
    assert data["findings"] == []
    assert whole(str(data[name]["layouts"])) == math.comb(20000, 10000) > 10**5000


@pytest.mark.parametrize("layouts, valid", [
    ("12", True), ("0", True), ("123456789012345678901234567890", True), (12, True), (None, True),
    ("", False), ("-1", False), ("1e5", False), ("12.0", False), (" 12", False), (-1, False), (1.5, False),
])
def test_the_fast_schema_check_and_the_json_schema_agree_on_counts(layouts, valid):
    from jsonschema import Draft7Validator

    answer = {"schema": 1, "layouts": layouts, "cells": []}
    assert follows_schema(answer) is valid
    assert Draft7Validator(answer_schema()).is_valid(answer) is valid


def test_a_count_that_is_no_decimal_string_is_a_protocol_error_naming_the_field():
    with pytest.raises(ValueError, match="layouts"):
        decode_answer('{"schema": 1, "layouts": "many", "cells": []}', board("HHH/121"), Mode.LOCAL, "p")


def test_a_stray_line_beside_the_answer_is_named_apart_from_it(tmp_path):
    program = tmp_path / "chatty.py"
    program.write_text("import sys\nsys.stdin.read()\nprint('solving now...')\n"
                       "print('{\"schema\": 1, \"cells\": []}')\n")
    name = "cmd:" + shlex.join([sys.executable, str(program)])
    (checked,) = check_board(board("HHH/121"), [name], [Mode.LOCAL], ["exact"], budget=Budget(cpu=10))
    (finding,) = checked.findings
    assert finding.kind is Kind.PROTOCOL
    assert "standard output held 1 other line(s), the first 'solving now...'" in finding.subject_says
    assert "write anything else to standard error" in finding.subject_says
    assert "schema" not in finding.subject_says  # the answer is not merged into the stray line's text


def test_a_crashing_programs_standard_error_is_not_printed_as_the_references_answer():
    name = "cmd:" + shlex.join([sys.executable, str(PROGRAM), "--misbehave", "crash"])
    (checked,) = check_board(board("HHH/121"), [name], [Mode.LOCAL], ["exact"], budget=Budget(cpu=10))
    lines = findings_text(board("HHH/121"), checked.findings).splitlines()
    (said,) = [line for line in lines if "exact says:" in line]
    assert said.strip() == "exact says: an answer"
    assert any(line.strip() == "its standard error ended with:" for line in lines)
    assert any("| Exception in thread \"main\" java.lang.IllegalStateException" in line for line in lines)


def test_play_names_a_program_as_fuzz_does_and_runs_it_persistently(tmp_path, capsys):
    (tmp_path / "own").mkdir()  # the program's folder: beside the run's, never holding it
    starts = tmp_path / "own" / "starts"
    command = shlex.join([sys.executable, str(PROGRAM), "--persistent", "--starts", str(starts)])
    out = tmp_path / "play"
    code = main(["play", "--solvers", writing("py", command, tmp_path / "own"), "--persistent", "--games", "2",
                 "--seed", "1", "--out", str(out), "--no-progress", "--no-report", "--jobs", "1"])
    assert code == 0, capsys.readouterr()
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert {g["player"] for g in games} == {"py"} and all(g["error"] is None for g in games)
    stored = json.loads((out / "play.json").read_text())
    (definition,) = [json.loads(d) for d in stored["definitions"]]
    assert stored["players"] == ["py"] and definition["persistent"] is True
    assert definition["writable"] == [str(tmp_path / "own")], "the one place it may write, kept for a replay"
    assert "py" in json.loads((out / "summary.json").read_text())["solvers"]
    decisions = sum(len(g["turns"]) for g in games)
    assert decisions > 2 and len(starts.read_text().split()) == 1  # one process for every decision of the worker
