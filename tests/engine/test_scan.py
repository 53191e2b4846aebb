"""The counter's board reading must give exactly what build_constraints gives, contradictions included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import Contradiction, build_constraints
from minecheck.engine.scan import _from_covered, _from_digits, _where, neighbour_table, read_constraints
from minecheck.model.board import COVERED, FLAG, Board


def reference(b: Board):
    """build_constraints' answer, or the words of its Contradiction."""
    try:
        return build_constraints(b)
    except Contradiction as err:
        return str(err)


def scanned(b: Board):
    try:
        return read_constraints(b)
    except Contradiction as err:
        return str(err)


@st.composite
def generated_boards(draw):
    """Consistent boards from every generator, from nearly all covered to nearly all open."""
    gen = draw(st.sampled_from(["reveal", "stress", "play"]))
    seed = draw(st.integers(0, 10**9))
    if gen == "play":
        return generate_board(recipe("play", seed, level=draw(st.sampled_from(["beginner", "intermediate"]))))
    return generate_board(recipe(gen, seed, width=draw(st.integers(1, 12)), height=draw(st.integers(1, 9)),
                                 density=draw(st.floats(0.0, 0.6)), open_prob=draw(st.floats(0.05, 0.95))))


@st.composite
def arbitrary_boards(draw):
    """Any cells at all: digits that no layout meets, flags next to too small digits, digits in the open."""
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    cells = draw(st.lists(st.sampled_from([COVERED, FLAG, 0, 1, 2, 3, 8]), min_size=w * h, max_size=w * h))
    total = draw(st.none() | st.integers(0, w * h))
    return Board(w, h, tuple(cells), total)


@settings(max_examples=300)
@given(generated_boards())
def test_reading_equals_build_constraints_on_generated_boards(b):
    assert scanned(b) == reference(b)


@settings(max_examples=500)
@given(arbitrary_boards())
def test_reading_equals_build_constraints_on_arbitrary_cells(b):
    assert scanned(b) == reference(b)


@settings(max_examples=300)
@given(st.one_of(generated_boards(), arbitrary_boards()))
def test_both_walks_find_the_same_digits(b):
    # the reading walks the covered cells and flags, or the digits, whichever are fewer
    table = neighbour_table(b.width, b.height)
    by_covered = _from_covered(b.cells, table, _where(b.cells, COVERED), _where(b.cells, FLAG))
    by_digits = _from_digits(b.cells, table)
    assert (by_covered is None) == (by_digits is None)
    if by_covered is not None:
        assert by_covered[0] == by_digits[0]
        assert {d: n for d, n in by_covered[1].items() if b.cells[d] >= 0} == by_digits[1]


@pytest.mark.parametrize("text, words", [
    ("3x1/1H1", None),
    ("3x1/2H0", "digit 2 at r0c0: needs 2 more mines but has only 1 covered neighbours"),
    ("3x1/1F1", None),
    ("3x1/0F1", "digit 0 at r0c0: 1 flagged neighbours, more than 0"),
    ("5x1/3H001", "digit 1 at r0c4: needs 1 more mines"),  # a digit in the open is named before one by H
    ("3x1/1H0", None),  # not locally wrong: only the counter finds that no layout fits
    ("3x3/000/010/000", "digit 1 at r1c1: needs 1 more mines but has only 0 covered neighbours"),
])
def test_contradictions_keep_the_reference_words(text, words):
    b = board(text)
    got = scanned(b)
    assert got == reference(b)
    if words is None:
        assert not isinstance(got, str)
    else:
        assert words in got
