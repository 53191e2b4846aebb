"""Numbers of any length (issue 38): counts past Python's 4,300-digit limit are read, compared and written
exactly, and what minecheck writes as JSON stays JSON."""

from __future__ import annotations

import json
import math
import sys

import pytest

from minecheck.cli import main
from minecheck.model.numbers import finite, whole

FULL = "150x100x7500\n" + "\n".join(["H" * 150] * 100) + "\n"  # C(15000, 7500) layouts: 4,515 digits


def test_check_answers_a_fully_covered_150x100_board_with_7500_mines_exactly(tmp_path, capsys):
    (tmp_path / "full.txt").write_text(FULL)
    code = main(["check", str(tmp_path / "full.txt"), "--references", "exact", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out, parse_int=whole)["exact"]["layouts"] == math.comb(15000, 7500)
    assert "internal error" not in out.err


@pytest.mark.parametrize("digits", [1, 4000, 4001, 4301, 100_000])
def test_a_decimal_of_any_length_reads_as_the_same_integer(digits):
    text = "7" * digits
    assert whole(text) == (10**digits - 1) // 9 * 7


def test_a_long_decimal_is_read_past_pythons_limit_while_the_limit_stands():
    assert sys.get_int_max_str_digits() in (0, 4300)
    assert whole("1" + "0" * 5000) == 10**5000


@pytest.mark.parametrize("value, expected", [(1.5, 1.5), (math.inf, 0.0), (-math.inf, 0.0), (math.nan, 0.0)])
def test_finite_keeps_a_number_json_can_hold_and_replaces_the_others(value, expected):
    assert finite(value) == expected
    json.dumps(finite(value), allow_nan=False)
