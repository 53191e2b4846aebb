"""Proof of teeth: every seed defect has a name, each recorded board shows its defect alone, the README agrees.

fixtures/teeth.json is written by ``python bench/teeth.py --write`` (minecheck.campaigns.teeth).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from shared import ROOT

from minecheck.campaigns.teeth import (
    NO_BOARD,
    PARTNER,
    from_json,
    lp_finding,
    lp_port,
    port,
    render_table,
    table_in,
)
from minecheck.check.crosscheck import check_board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.defects import BY_NAME, DEFECTS, chosen
from minecheck.solvers.simplex import LP

SOURCES = sorted((ROOT / "minecheck" / "solvers").glob("*.py"))
COMMENT = re.compile(r"#\s*DEFECT\(seed\)(?P<name> [a-z0-9-]+)?:")
TEETH = from_json((ROOT / "fixtures" / "teeth.json").read_text())
ON_BOARDS = [t for t in TEETH if t.board is not None]
ON_LPS = [t for t in TEETH if t.lp is not None]


def defect_comments() -> list[tuple[str, str | None]]:
    """(file, name or None) for every DEFECT(seed) comment in the solvers' sources."""
    return [(str(path.relative_to(ROOT)), m["name"] and m["name"].strip())
            for path in SOURCES for m in COMMENT.finditer(path.read_text())]


def test_every_defect_comment_names_a_defect():
    unnamed = [f for f, name in defect_comments() if name is None]
    assert not unnamed, f"DEFECT(seed) comments without a name (write `# DEFECT(seed) NAME: ...`): {unnamed}"


def test_every_defect_comment_is_a_record_in_its_own_file_and_every_record_has_one():
    comments = Counter((f, name) for f, name in defect_comments())
    records = Counter((d.source, d.name) for d in DEFECTS)
    assert comments == records


def test_no_stray_defect_markers_beyond_the_comments():
    """A marker written another way (no '#', no colon) would escape the count above."""
    loose = sum(len(re.findall(r"DEFECT\(seed\)[ a-z0-9-]*:", p.read_text())) for p in SOURCES)
    assert loose == len(DEFECTS)


def test_the_fixture_has_a_row_per_defect_in_order():
    assert [t.defect for t in TEETH] == [d.name for d in DEFECTS]


def test_a_defect_name_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="ilp-typo"):
        chosen(frozenset({"ilp-typo"}), "ilp@seed")


def kinds_on(text: str, solver: str, defects: frozenset[str]) -> set[str]:
    findings = [f for c in check_board(parse_board(text), [port(solver, defects)], references=()) for f in c.findings]
    return {f.kind.value for f in findings}


@pytest.mark.parametrize("tooth", ON_BOARDS, ids=[t.defect for t in ON_BOARDS])
def test_the_shrunk_board_shows_the_defect_alone(tooth):
    """Alone, or for a masked defect beside its partner: the port with only the partner on finds nothing."""
    partner = frozenset({tooth.partner}) if tooth.partner else frozenset()
    assert tooth.partner == PARTNER.get(tooth.defect, "")
    assert tooth.kind in kinds_on(tooth.board, tooth.solver, frozenset({tooth.defect}) | partner)
    assert kinds_on(tooth.board, tooth.solver, partner) == set()


@pytest.mark.parametrize("tooth", ON_LPS, ids=[t.defect for t in ON_LPS])
def test_the_shrunk_lp_shows_the_defect_alone(tooth):
    lp = LP(tuple(map(tuple, tooth.lp["a"])), tuple(tooth.lp["b"]), tuple(tooth.lp["c"]))
    assert lp_finding(lp, lp_port(frozenset({tooth.defect}))) == tooth.kind
    assert lp_finding(lp, lp_port(frozenset())) is None


def test_rows_without_an_input_are_the_unswitchable_or_the_ones_no_board_shows_and_none_is_not_found():
    for t in TEETH:
        assert not t.found.startswith("not found"), t
        if t.board is None and t.lp is None:
            assert t.found == ("not switchable" if not BY_NAME[t.defect].switchable else "no board alone")
            assert t.note == (BY_NAME[t.defect].fixed_only or NO_BOARD[t.defect])


def test_the_docs_table_is_the_one_rendered_from_the_fixture():
    assert table_in((ROOT / "docs" / "teeth.md").read_text()) == render_table(TEETH)
