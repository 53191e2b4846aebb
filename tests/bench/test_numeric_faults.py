"""The numeric faults of bench/numeric_faults.py are faults: each shows on the boards of its numeric edge,
none on a plain board, and none is a seed port's named defect or one of bench/faults.py's."""

from __future__ import annotations

import sys

import pytest
from shared import ROOT

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import BY_NAME

sys.path.insert(0, str(ROOT / "bench"))

from faults import FAULTS  # noqa: E402
from numeric_faults import NUMERIC_FAULTS, NUMERIC_WITNESS  # noqa: E402

PLAIN = "4x3/HHHH/1221/0000"


def findings(board, name: str):
    return [f for c in check_board(board, [NUMERIC_FAULTS[name]()], references=()) for f in c.findings]


@pytest.mark.parametrize("name", sorted(NUMERIC_FAULTS))
def test_each_numeric_fault_shows_on_its_edge_and_not_on_a_plain_board(name):
    for seed in range(3):
        board = generate_board(recipe("numeric", seed, edge=NUMERIC_WITNESS[name]))
        assert findings(board, name), (name, seed)
    assert findings(parse_board(PLAIN.replace("/", "\n")), name) == []


@pytest.mark.parametrize("name", sorted(NUMERIC_FAULTS))
def test_each_numeric_fault_shows_on_the_default_mix_wide_numeric_board(name):
    assert findings(generate_board(recipe("numeric", 11, edge="wide")), name), name


def test_there_are_at_least_eight_numeric_faults_new_and_named():
    assert len(NUMERIC_FAULTS) >= 8 and not set(NUMERIC_FAULTS) & (set(BY_NAME) | set(FAULTS))
    assert all(cls.fault for cls in NUMERIC_FAULTS.values())
    assert all(NUMERIC_FAULTS[name]().name == f"fault:{name}" for name in NUMERIC_FAULTS)
