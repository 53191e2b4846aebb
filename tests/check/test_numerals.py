"""A finding says which numeric edge it sits on: both values with digits enough to differ, a wrong count
read through a bit width, a NaN, a rounding, a verdict from a probability a hair from 0 or 1."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from shared import ROOT

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.compare import compare
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Finding, Kind
from minecheck.check.numerals import (
    count_edge,
    count_reading,
    edge_of,
    kept_because,
    power_form,
    probability_reading,
    show_pair,
)
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict

sys.path.insert(0, str(ROOT / "bench"))

from numeric_faults import NUMERIC_FAULTS  # noqa: E402


def test_a_count_past_2_64_read_as_its_low_bits_is_explained_by_the_width():
    assert power_form(2**64 + 5, 64) == "2**64 + 5"
    assert count_reading(5, 2**64 + 5).startswith("2**64 + 5 read as 5: the count wraps at 2**64")
    assert count_edge(5, 2**64 + 5) == ("wrap", 64)


def test_a_signed_wrap_a_32_bit_wrap_and_a_double_are_told_apart():
    assert count_edge(-(2**63) + 3, 2**63 + 3) == ("signed", 64)
    assert count_edge(7, 2**32 + 7) == ("wrap", 32)
    assert count_edge(int(float(2**60 + 1)), 2**60 + 1) == ("double", 53)
    assert "off by 1" in count_reading(int(float(2**60 + 1)), 2**60 + 1)
    assert count_reading(12, 13) == "" and count_edge(12, 13) is None


def test_both_values_get_the_digits_it_takes_to_see_them_differ():
    got, want = show_pair(0.5000001, Fraction(1, 2))
    assert got != want.split(" ")[0] and got.startswith("0.5000001")
    assert show_pair(Fraction(1, 3), Fraction(2, 7)) == ("1/3", "2/7")
    tiny = show_pair(0.0, Fraction(1, 10**320))
    assert tiny[1].endswith("e-320")


def test_a_nan_a_rounding_and_an_underflow_are_named():
    assert "NaN" in probability_reading(math.nan, Fraction(1, 3))
    assert "rounded to 3 decimals" in probability_reading(0.333, Fraction(1, 3))
    assert probability_reading(0.0, Fraction(1, 10**9)).startswith("0 where it is")
    assert probability_reading(0.25, Fraction(1, 3)) == ""


def exact_result(board_cells):
    return SolverResult("exact", Mode.LOCAL, consistent=True,
                        cells=tuple(CellAnswer(c, Verdict.UNKNOWN, p) for c, p in board_cells), layouts=3)


def test_a_nan_probability_is_a_finding_though_it_compares_false_with_everything():
    subject = SolverResult("s", Mode.LOCAL, consistent=True, cells=(CellAnswer(0, Verdict.UNKNOWN, math.nan),))
    diffs = compare(subject, frozenset({Answers.PROBABILITIES}), exact_result([(0, Fraction(1, 3))]))
    assert [d.kind for d in diffs] == [Kind.PROBABILITY] and "NaN" in diffs[0].detail


def fault_findings(name: str, edge: str, seed: int = 0):
    board = generate_board(recipe("numeric", seed, edge=edge))
    return [f for c in check_board(board, [NUMERIC_FAULTS[name]()], references=()) for f in c.findings]


def test_a_threshold_finding_says_how_near_0_the_exact_probability_is():
    verdicts = [f for f in fault_findings("float-threshold-0.0001", "near-1e-06") if f.kind is Kind.VERDICT]
    assert verdicts and any("from 0, not 0" in f.detail for f in verdicts)
    assert {edge_of(f) for f in verdicts} == {None}  # a threshold shows on small boards too: not kept


def test_a_wrapped_count_finding_carries_its_reading_and_why_a_shrunk_board_stays_big():
    counts = [f for f in fault_findings("count-wrap-64", "above-2**64") if f.kind is Kind.COUNT]
    assert counts and "read as" in counts[0].detail and "wraps at 2**64" in counts[0].detail
    assert edge_of(counts[0]) == ("wrap", 64)
    assert "the count must exceed 2**64" in kept_because(counts[0])


def test_a_finding_without_a_numeric_edge_has_none():
    f = Finding(Kind.COUNT, "s", "exact", Mode.LOCAL, (), "4 layouts", "5 layouts", "1x1\nH\n")
    assert edge_of(f) is None and kept_because(f) == ""
