"""A finding page shows the certificate of the reference's side: what proves it, checked by whom, a layout drawn."""

from __future__ import annotations

import re

from shared import board
from test_report import Page

from minecheck.check.certified import certify_checks, with_certificate
from minecheck.check.crosscheck import check_board
from minecheck.model.answers import Mode
from minecheck.report.pages import FindingPage, render_finding


def verdict_check():
    (c,) = check_board(board("3x2/HHH/121"), ["dpll@seed"], [Mode.LOCAL], ["exact"])
    return c


def test_the_page_says_what_proves_the_reference_and_draws_a_layout():
    c = verdict_check()
    f = with_certificate(c.findings[0], certify_checks([c], None))
    page = Page(render_finding(FindingPage(f, 0, board("3x2/HHH/121"), None, c.results)))
    assert "exact's answer on this board is certified" in page.text
    assert re.search(r"no layout has r0c0 safe: (a proof of [1-9]\d* steps?|no steps: unit propagation alone), "
                     r"checked by dratify", page.text)
    assert "proof of 0 steps" not in page.text
    assert any(g.name.startswith("layout-") for g in page.grids)
