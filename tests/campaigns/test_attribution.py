"""Attribution: a seed port's finding on a shrunk board is traced to the named defects that reproduce it."""

from __future__ import annotations

import json

import pytest
from shared import FIXTURES

from minecheck.campaigns.attribution import MAX_CELLS, PORTED, explained_by
from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import DEFECTS

ROWS = [r for r in json.loads((FIXTURES / "teeth.json").read_text())["teeth"]
        if r["board"] and r["solver"] in PORTED and parse_board(r["board"]).size <= MAX_CELLS]


def finding(subject: str, kind: str, board: str) -> Finding:
    return Finding(Kind(kind), subject, "exact", Mode.LOCAL, (), "", "", board)


@pytest.mark.parametrize("row", ROWS, ids=[r["defect"] for r in ROWS])
def test_each_teeth_row_is_explained_by_a_named_defect_of_its_solver(row):
    why = explained_by(finding(row["solver"], row["kind"], row["board"]), row["board"])
    names = {d.name for d in DEFECTS if d.solver == row["solver"]}
    assert why is not None and set(why.split(" + ")) <= names, why


def test_what_no_known_defect_does_is_not_explained():
    assert explained_by(finding("dpll@seed", "timeout", "3x1\nH1H\n"), "3x1\nH1H\n") is None
    assert explained_by(finding("my@solver", "verdict", "2x1\n0H\n"), "2x1\n0H\n") is None  # no named defects


def test_a_simplex_difference_on_a_board_is_traced_through_its_relaxations():
    """The board's relaxations with the campaign's objectives (seeded by the board's text), against CBC."""
    board = "5x1x1\n1mHHH\n"  # a nightly's shrunk board: min x s.t. x = 1 answered x = 0
    assert explained_by(finding("simplex@seed", "lp", board), board) == "simplex-artificials-kept"
    assert explained_by(finding("simplex@seed", "crash", board), board) is None
