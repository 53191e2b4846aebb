"""Reference ganak, the second counter: the exact counter's counts and probabilities, small boards and played
positions, in both modes; an impossible board; the budget of counts declines politely."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from minecheck import strategies
from minecheck.boards.generators import generate_board, recipe
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.references.ganak import make
from minecheck.running.discovery import BUILT_IN
from minecheck.solvers.exact import ExactSolver

GANAK, EXACT = make(), ExactSolver()


def same(b, mode) -> None:
    ours, theirs = GANAK.solve(b, mode), EXACT.solve(b, mode)
    assert ours.consistent == theirs.consistent
    if theirs.consistent:
        assert ours.layouts == theirs.layouts
        assert sorted(ours.component_layouts) == sorted(theirs.component_layouts)
        assert [(a.cell, a.probability, a.verdict) for a in ours.cells] == [
            (a.cell, a.probability, a.verdict) for a in theirs.cells]


@settings(max_examples=60)
@given(strategies.boards(width=(1, 5), height=(1, 4)))
def test_ganak_agrees_with_the_exact_counter_on_small_boards(b):
    for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
        same(b, mode)


@pytest.mark.parametrize("level, seed", [("beginner", 0), ("beginner", 3), ("expert", 0), ("expert", 1)])
def test_ganak_agrees_with_the_exact_counter_on_played_positions(level, seed):
    b = generate_board(recipe("play", seed, level=level))
    for mode in (Mode.LOCAL, Mode.GLOBAL):
        same(b, mode)


def test_an_impossible_board_is_inconsistent_and_nothing_is_printed(capfd):
    for text in ("1H0", "HH\n1F\nF2", "3x1x2\nH1H"):
        b = parse_board(text)
        mode = Mode.GLOBAL if b.total_mines is not None else Mode.LOCAL
        assert GANAK.solve(b, mode).consistent is False
    assert capfd.readouterr().out == ""


def test_past_its_budget_of_counts_it_declines():
    b = generate_board(recipe("play", 0, level="expert"))
    result = make("3").solve(b, Mode.GLOBAL)
    assert result.declined == "more than 3 counts to make" and result.failure is None


def test_ganak_is_built_in_but_not_a_default_reference():
    from minecheck.running.catalogue import REFERENCES

    assert BUILT_IN["ganak"] == "minecheck.references.ganak:make" and "ganak" not in REFERENCES
