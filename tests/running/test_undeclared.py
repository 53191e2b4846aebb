"""An answer a solver does not declare is not judged, even when it breaks the protocol (a probability of 2.0 from
a solver of verdicts): the rest of its answer is read and judged, the board counted as not judged, unless
--judge-undeclared; a broken answer it declares, or a broken answer as a whole, is a protocol finding."""

from __future__ import annotations

import json
import shlex
import sys

import pytest
from shared import PROGRAMS

from minecheck.check.compare import compare, not_judged_in_part
from minecheck.cli import main
from minecheck.model.answers import UNDECLARED, Answers, Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import ProtocolError
from minecheck.running.discovery import get_solver
from minecheck.running.protocol import decode_declared

BOARD = parse_board("3x1\nH1H\n")  # a possible board: a mine on one side or the other
VERDICTS = frozenset({Answers.VERDICTS})


def answer(verdict: str, probability) -> str:
    return json.dumps({"schema": 1, "cells": [{"row": 0, "col": 0, "verdict": verdict, "probability": probability}]})


def test_a_broken_probability_from_a_solver_of_verdicts_is_left_out_and_its_verdict_read():
    result = decode_declared(answer("mine", 2.0), BOARD, Mode.LOCAL, "v", VERDICTS)
    (cell,) = result.cells
    assert cell.probability is None and cell.verdict.value == "mine"
    assert "cells[0].probability: 2.0 is not a probability" in dict(result.extra)[UNDECLARED]


def test_its_verdict_is_still_judged_and_the_broken_probability_only_with_judge_undeclared():
    result = decode_declared(answer("mine", 2.0), BOARD, Mode.LOCAL, "v", VERDICTS)
    reference = get_solver("exact").solve(BOARD, Mode.LOCAL)
    assert [d.kind.value for d in compare(result, VERDICTS, reference)] == ["verdict"]
    assert "does not declare" in not_judged_in_part(result)
    assert [d.kind.value for d in compare(result, VERDICTS, reference, judge_undeclared=True)] == ["protocol"]
    assert not_judged_in_part(result, judge_undeclared=True) is None


@pytest.mark.parametrize("text", [answer("maybe", 2.0),  # a broken verdict, which it declares
                                  '{"schema": 1, "cells": [{"row": 0, "col": 1, "probability": 2.0}]}',  # a digit
                                  "not JSON"])
def test_a_broken_declared_answer_or_a_broken_answer_as_a_whole_stays_a_complaint(text):
    with pytest.raises(ProtocolError):
        decode_declared(text, BOARD, Mode.LOCAL, "v", VERDICTS)


def test_a_nan_probability_it_does_not_declare_is_left_out_too():
    text = '{"schema": 1, "cells": [{"row": 0, "col": 0, "verdict": "unknown", "probability": NaN}]}'
    result = decode_declared(text, BOARD, Mode.LOCAL, "v", VERDICTS)
    assert result.cells[0].probability is None and "NaN" in dict(result.extra)[UNDECLARED]
    with pytest.raises(ProtocolError):
        decode_declared(text, BOARD, Mode.LOCAL, "v", frozenset(Answers))


def test_a_program_of_verdicts_with_a_probability_of_2_is_not_judged_unless_asked(capsys):
    program = shlex.join([sys.executable, str(PROGRAMS / "protocol_program.py"), "--misbehave", "probability-2"])
    solver = f"verdicts-only={{command = {json.dumps(program)}, answers = [\"verdicts\"]}}"
    args = ["check", "H1H", "--solvers", solver, "--references", "exact", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] == [] and "does not declare" in data["not_judged"]["verdicts-only"]
    assert main([*args, "--judge-undeclared"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in data["findings"]] == ["protocol"] and data["not_judged"] == {}
