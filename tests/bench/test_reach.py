"""The planted faults of bench/faults.py (timed by bench/reach.py) are faults: each shows on its witness board,
each reads a plain board right, and none is a seed port's named defect."""

from __future__ import annotations

import sys

import pytest
from shared import ROOT

from minecheck.check.crosscheck import check_board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import BY_NAME

sys.path.insert(0, str(ROOT / "bench"))

from faults import FAULTS, WITNESS  # noqa: E402

PLAIN = "4x3/HHHH/1221/0000"  # no flag, no total, no closed digit, one component, every fault reads it right


def findings(text: str, name: str):
    return [f for c in check_board(parse_board(text.replace("/", "\n")), [FAULTS[name]()], references=())
            for f in c.findings]


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_fault_shows_on_its_witness_and_not_on_a_plain_board(name):
    assert findings(WITNESS[name], name), WITNESS[name]
    assert findings(PLAIN, name) == []


def test_there_are_at_least_ten_faults_none_of_them_a_named_seed_defect():
    assert len(FAULTS) >= 10 and not set(FAULTS) & set(BY_NAME)
    assert all(cls.fault for cls in FAULTS.values())


def test_the_documented_reach_table_is_the_one_rendered_from_the_fixture():
    import reach

    page = (ROOT / "docs" / "reach.md").read_text()
    assert reach.block_in(page) == reach.render(*reach.stored_rows())


def test_reach_makes_the_boards_a_campaign_makes_and_measures_without_the_search_too():
    import reach

    found = reach.first_findings(1, ("no-covered-cell-crash", "total-ignored-off-frontier"), 12)
    crash, decided = found["no-covered-cell-crash"], found["total-ignored-off-frontier"]
    assert crash[0] == 3 and crash[3].startswith("small")  # walk board 74 (2x1x1/F0), board 2 of the mix
    assert decided[0] == 7 and crash[4] == crash[0] and decided[4] == decided[0]  # before the first search slot
