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
