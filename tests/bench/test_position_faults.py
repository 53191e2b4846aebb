"""The faults of bench/position_faults.py are faults of the positions they need: each shows on its witness and on
the position kind it was planted for (boards.positions), none on a plain board, and none is another fault's name."""

from __future__ import annotations

import sys

import pytest
from shared import ROOT

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import BY_NAME

sys.path.insert(0, str(ROOT / "bench"))

from board_faults import BOARD_FAULTS  # noqa: E402
from faults import FAULTS  # noqa: E402
from numeric_faults import NUMERIC_FAULTS  # noqa: E402
from position_faults import POSITION_FAULTS, POSITION_WITNESS  # noqa: E402

PLAIN = ("4x3/HHHH/1221/0000", "4x3x2/HHHH/1221/0000")
KIND = {"total-ignored-off-frontier": "decided", "no-covered-cell-crash": ("finished", {"flags": "all"}),
        "endgame-mines-kept": "endgame", "estimate-cut-at-20-cells": "opening"}


def findings(board, name: str):
    board = parse_board(board.replace("/", "\n")) if isinstance(board, str) else board
    return [f for c in check_board(board, [POSITION_FAULTS[name]()], references=()) for f in c.findings]


@pytest.mark.parametrize("name", sorted(POSITION_FAULTS))
def test_each_position_fault_shows_on_its_witness_and_not_on_a_plain_board(name):
    assert findings(POSITION_WITNESS[name], name)
    assert all(findings(plain, name) == [] for plain in PLAIN)


@pytest.mark.parametrize("name", sorted(POSITION_FAULTS))
def test_each_position_fault_shows_on_the_kind_of_position_it_needs(name):
    kind, params = KIND[name] if isinstance(KIND[name], tuple) else (KIND[name], {})
    shown = [bool(findings(generate_board(recipe(kind, seed, **params)), name)) for seed in range(5)]
    assert sum(shown) >= 3, shown  # a finished game states its total on three boards in four


def test_the_names_are_new_and_each_says_its_fault():
    assert not set(POSITION_FAULTS) & (set(FAULTS) | set(NUMERIC_FAULTS) | set(BOARD_FAULTS) | set(BY_NAME))
    assert all(cls.fault for cls in POSITION_FAULTS.values())


def test_the_crash_needs_a_stated_total_and_no_covered_cell():
    assert findings("2x1x1/F1", "no-covered-cell-crash")
    assert not findings("2x1/F1", "no-covered-cell-crash")  # no total: the local mode alone
    assert not findings("2x1x1/H1", "no-covered-cell-crash")


def test_the_kept_mines_fault_needs_an_endgame_with_a_total():
    assert findings("3x1x2/1HH", "endgame-mines-kept")
    assert not findings("3x1/1HH", "endgame-mines-kept")  # no total
    assert not findings("4x1x2/1H0H", "endgame-mines-kept")  # a safe cell: no guess
