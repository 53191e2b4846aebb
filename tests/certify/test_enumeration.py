"""Every layout of a small board with its weight: the counts and probabilities the exact counter gives, and a
list with a layout missing, one too many, listed twice or weighed wrong is refused."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings

from minecheck import strategies
from minecheck.certify.enumeration import Layout, TooMany, check_enumeration, enumerate_layouts
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board


def board(text: str):
    return parse_board(text.replace("/", "\n"))


@settings(max_examples=80)
@given(strategies.boards(width=(1, 5), height=(1, 4)))
def test_the_list_gives_the_exact_counter_s_count_and_probabilities(b):
    for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
        listed = enumerate_layouts(b, mode, limit=100_000)
        count = count_board(b, mode)
        assert listed.count == count.layouts
        assert [listed.probability(c) for c, _ in count.probabilities] == [p for _, p in count.probabilities]
        assert check_enumeration(b, listed) == []


def test_in_the_global_mode_a_frontier_layout_weighs_the_ways_off_the_frontier():
    listed = enumerate_layouts(board("5x1x2/H1HHH"), Mode.GLOBAL)  # r0c3, r0c4 off the frontier
    assert listed.off == (3, 4)
    assert sorted((lay.mines, lay.weight) for lay in listed.layouts) == [((0,), 2), ((2,), 2)]
    assert listed.count == 4


def test_a_tampered_list_is_refused():
    b = board("4x1x2/H1HH")
    listed = enumerate_layouts(b, Mode.GLOBAL)
    assert check_enumeration(b, listed) == []
    short = replace(listed, layouts=listed.layouts[1:])
    assert any("counts" in p for p in check_enumeration(b, short))
    twice = replace(listed, layouts=listed.layouts + listed.layouts[:1])
    assert any("twice" in p for p in check_enumeration(b, twice))
    heavy = replace(listed, layouts=(replace(listed.layouts[0], weight=5),) + listed.layouts[1:])
    assert any("weighs" in p for p in check_enumeration(b, heavy))
    broken = replace(listed, layouts=listed.layouts + (Layout((0, 2), 0),))
    assert any("breaks the digit" in p for p in check_enumeration(b, broken))


def test_an_impossible_board_has_no_layout():
    assert enumerate_layouts(board("1H0"), Mode.LOCAL).layouts == ()


def test_past_its_limit_it_stops_and_says_so():
    with pytest.raises(TooMany, match="more than 10 layouts"):
        enumerate_layouts(board("6x3/HHHHHH/H1111H/HHHHHH"), Mode.LOCAL, limit=10)
