"""The faults of bench/board_faults.py are faults of their class: each shows on its witness and none on a plain
board; the guessing one shows on guess boards and not on the same game with its flags; the 8-to-12 one only on
boards of 8 to 12 cells; both on a sample drawn as a guess position; the marks engine only once it is given
flagged boards without their flags."""

from __future__ import annotations

import sys

import pytest
from shared import ROOT

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import BY_NAME

sys.path.insert(0, str(ROOT / "bench"))

from board_faults import BOARD_FAULTS, BOARD_WITNESS  # noqa: E402
from faults import FAULTS  # noqa: E402
from numeric_faults import NUMERIC_FAULTS  # noqa: E402

PLAIN = "4x3/HHHH/1221/0000"


def findings(board, name: str, solver=None):
    board = parse_board(board.replace("/", "\n")) if isinstance(board, str) else board
    return [f for c in check_board(board, [solver or BOARD_FAULTS[name]()], references=()) for f in c.findings]


@pytest.mark.parametrize("name", sorted(BOARD_FAULTS))
def test_each_board_fault_shows_on_its_witness_and_not_on_a_plain_board(name):
    assert findings(BOARD_WITNESS[name], name)
    assert findings(PLAIN, name) == []


def test_the_names_are_new_and_each_says_its_fault():
    assert not set(BOARD_FAULTS) & (set(FAULTS) | set(NUMERIC_FAULTS) | set(BY_NAME))
    assert all(cls.fault for cls in BOARD_FAULTS.values())


def test_the_guessing_fault_shows_on_guess_boards_and_never_on_a_flagged_game():
    assert all(findings(generate_board(recipe("guess", seed)), "guess-mines-twice") for seed in range(3))
    assert not any(findings(generate_board(recipe("play", seed, level="beginner")), "guess-mines-twice")
                   for seed in range(3))


def test_a_guess_sample_shows_both_the_guessing_fault_and_the_8_to_12_one():
    boards = [generate_board(recipe("sample", seed, guess=True)) for seed in range(3)]
    assert all(findings(b, "guess-mines-twice") and findings(b, "table-8-to-12-cells") for b in boards)


def test_the_table_fault_needs_8_to_12_cells():
    assert findings("3x2/HH1/HHH", "table-8-to-12-cells") == []  # edge-wrap's witness: 6 cells
    assert findings("3x3/HH1/HHH/HHH", "table-8-to-12-cells")


def test_the_marks_engine_shows_on_a_flagged_board_only_as_a_marks_reader():
    declared = BOARD_FAULTS["marks-mines-twice"]()
    undeclared = BOARD_FAULTS["marks-mines-twice"]()
    undeclared.flags = "mines"
    assert findings("3x1/1F1", "", declared) and findings("3x1/1F1", "", undeclared) == []
