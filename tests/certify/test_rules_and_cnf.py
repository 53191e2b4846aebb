"""The certificates' own reading of a board and its CNF say what the rules of the game say: the geometry,
each digit's clauses for every size and value, and a board's CNF whose models are exactly its layouts."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from pysat.solvers import Solver

from minecheck import strategies
from minecheck.certify.cnf import DIGIT_ENCODINGS, TOTAL_ENCODINGS, encode, exactly
from minecheck.certify.rules import TOTAL, Reading, around
from minecheck.engine.enumeration import enumerate_count
from minecheck.model.answers import Mode
from minecheck.model.board import neighbours
from minecheck.model.boardtext import parse_board


def board(text: str):
    return parse_board(text.replace("/", "\n"))


@pytest.mark.parametrize("width, height", [(1, 1), (1, 5), (5, 1), (3, 3), (7, 4)])
def test_the_geometry_is_the_games(width, height):
    assert [around(width, height, c) for c in range(width * height)] == [
        neighbours(width, height, c) for c in range(width * height)]


@pytest.mark.parametrize("way", DIGIT_ENCODINGS)
def test_a_digit_s_clauses_hold_exactly_on_its_layouts_for_every_size_and_value(way):
    for n in range(9):
        for k in range(-1, 10):
            clauses, top = exactly(list(range(1, n + 1)), k, way, n)
            with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as sat:
                for values in product((False, True), repeat=n):
                    lits = [i + 1 if v else -(i + 1) for i, v in enumerate(values)]
                    assert sat.solve(assumptions=lits) == (sum(values) == k), (n, k, values)


def test_the_direct_encoding_uses_no_helper_variable():
    clauses, top = exactly([1, 2, 3, 4, 5, 6, 7, 8], 3, "direct", 8)
    assert top == 8 and max(abs(x) for c in clauses for x in c) == 8


@pytest.mark.parametrize("total", TOTAL_ENCODINGS)
def test_the_total_s_clauses_hold_exactly_on_its_layouts(total):
    b = board("4x2x3/HHHH/HHHH")
    reading = Reading(b, Mode.GLOBAL)
    formula = encode(reading, (TOTAL,), total=total)
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in formula.clauses]) as sat:
        for values in product((False, True), repeat=8):
            lits = [i + 1 if v else -(i + 1) for i, v in enumerate(values)]
            assert sat.solve(assumptions=lits) == (sum(values) == 3)


def test_flags_are_rules_and_digits_count_them():
    reading = Reading(board("3x1x1/F1H"), Mode.GLOBAL)
    assert reading.rules["flag", 0].cells == (0,)
    assert reading.rules["digit", 1].cells == (0, 2) and reading.rules["digit", 1].mines == 1
    assert reading.rules[TOTAL].cells == (0, 2)
    assert reading.broken(frozenset({0})) == [] and reading.broken(frozenset({2})) != []


def test_the_groups_are_the_digits_linked_by_covered_cells_with_their_flags():
    reading = Reading(board("5x1/H1F1H"), Mode.LOCAL)  # the flag links nothing: two groups
    assert reading.groups == ((("flag", 2), ("digit", 1)), (("flag", 2), ("digit", 3)))
    assert reading.group_of(0) == reading.groups[0] and reading.group_of(4) == reading.groups[1]


def test_the_dimacs_text_names_every_variable_and_rule_in_comments_before_the_p_line():
    text = encode(Reading(board("3x1/H1H"), Mode.LOCAL), (("digit", 1),), ((0, True),)).dimacs
    lines = text.splitlines()
    p = lines.index("p cnf 2 3")
    assert all(line.startswith("c ") for line in lines[:p]) and not any(line.startswith("c") for line in lines[p:])
    assert lines[p + 1:] == ["-1 -2 0", "1 2 0", "1 0"]
    assert "1=r0c0 2=r0c2" in text and "c clause 1 on: the digit 1 at r0c1" in text
    assert "c clause 3 on: the claim: r0c0 is a mine" in text


def test_a_rule_the_board_has_not_is_refused_by_name():
    with pytest.raises(ValueError, match="no rule the total"):
        encode(Reading(board("3x1/H1H"), Mode.LOCAL), (TOTAL,))


@settings(max_examples=60)
@given(strategies.boards(width=(1, 4), height=(1, 3)))
def test_a_board_s_cnf_models_are_its_layouts(b):
    for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
        reading = Reading(b, mode)
        cells = reading.unknown
        formula = encode(reading, tuple(reading.rules))
        layouts = 0
        with Solver(name="minisat22", bootstrap_with=[list(c) for c in formula.clauses]) as sat:
            for values in product((False, True), repeat=len(cells)):
                lits = [i + 1 if v else -(i + 1) for i, v in enumerate(values)]
                mines = frozenset(c for c, v in zip(cells, values) if v)
                assert sat.solve(assumptions=lits) == (not reading.broken(mines))
                layouts += not reading.broken(mines)
        if mode is Mode.GLOBAL:  # the plain enumeration counts the same layouts (flags are mines in both)
            assert layouts == enumerate_count(b, mode).layouts
