"""A result written as JSON and read back is the same result: exact fractions, counts past 2**64, failures."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given
from shared import board

from minecheck import strategies
from minecheck.model.answers import (
    Answers,
    CellAnswer,
    Failure,
    FailureKind,
    Mode,
    SolverResult,
    Verdict,
    result_from_json,
    result_to_json,
)
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver


def round_trip(result: SolverResult) -> SolverResult:
    return result_from_json(json.loads(json.dumps(result_to_json(result))))


@given(strategies.boards(width=(1, 5), height=(1, 5)))
def test_the_exact_counters_answers_survive_the_round_trip(b):
    for mode in (Mode.LOCAL,) + ((Mode.GLOBAL,) if b.total_mines is not None else ()):
        result = run_solver(get_solver("exact"), b, mode)
        assert round_trip(result) == result


def test_every_field_survives_including_big_counts_floats_and_failures():
    result = SolverResult("x", Mode.GLOBAL, True, None,
                          (CellAnswer(0, Verdict.UNKNOWN, Fraction(1, 3)), CellAnswer(1, None, 0.25, 0.01),
                           CellAnswer(2, Verdict.MINE, None)),
                          layouts=2**70 + 5, component_layouts=(2**65, 3), lp_values=((0, 0.5),), seconds=1.5,
                          cpu=1.25, failure=Failure(FailureKind.TIMEOUT, "Timeout: ...", "cpu", "last line"),
                          declined=None, samples=100, claims=frozenset({Answers.VERDICTS}), partial=True,
                          extra=(("reading", "flags ignored"),))
    assert round_trip(result) == result
    assert round_trip(run_solver(get_solver("exact"), board("1H0"), Mode.LOCAL)).consistent is False
