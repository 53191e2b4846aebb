"""A finding page shows the certificate of the reference's side: what proves it, checked by whom, a layout drawn."""

from __future__ import annotations

import re
from dataclasses import replace

from shared import board
from test_report import Page

from minecheck.certify.certification import certify
from minecheck.certify.counting import count_certificate
from minecheck.certify.rules import Reading
from minecheck.check.certified import certify_checks, with_certificate
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.model.answers import Mode
from minecheck.report.pages import FindingPage, render_finding
from minecheck.solvers.exact import ExactSolver


def verdict_check():
    (c,) = check_board(board("3x2/HHH/121"), ["dpll@seed"], [Mode.LOCAL], ["exact"])
    return c


def test_the_page_says_what_proves_the_reference_and_draws_a_layout():
    c = verdict_check()
    f = with_certificate(c.findings[0], certify_checks([c], None))
    page = Page(render_finding(FindingPage(f, 0, board("3x2/HHH/121"), None, c.results)))
    assert ("exact's answer on this board is certified: every claim proved (consistency, verdicts, count, "
            "probabilities)") in page.text
    assert re.search(r"no layout has r0c0 safe: (a proof of [1-9]\d* steps?|no steps: unit propagation alone), "
                     r"checked by dratify", page.text)
    assert "proof of 0 steps" not in page.text
    assert any(g.name.startswith("layout-") for g in page.grids)


def _page_with(change) -> Page:
    c = verdict_check()
    (made,) = certify_checks([c], None)
    made = replace(made, certification=change(made.certification))
    count_finding = next(f for f in c.findings if f.kind is Kind.COUNT)
    return Page(render_finding(FindingPage(with_certificate(count_finding, [made]), 0, board("3x2/HHH/121"), None,
                                           c.results)))


def test_a_count_not_proved_is_said_not_proved_claim_by_claim_and_nothing_said_to_agree():
    def unlisted(cert):
        b = board("3x2/HHH/121")
        result = ExactSolver().solve(b, Mode.LOCAL)
        return replace(cert, count=count_certificate(Reading(b, Mode.LOCAL), result, listed=0))

    text = _page_with(unlisted).text
    assert ("exact's answer on this board: consistency proved, verdicts proved, count NOT proved, probabilities NOT "
            "proved; the proofs checked again by dratify") in text
    assert "is certified" not in text and "agreed" not in text
    assert "count not proved: 1 of 1 components have more than 10,000 box solutions to list; no second counter " \
           "counted it; the probabilities are not proved either" in text


def test_a_count_proved_wrong_is_said_so_and_the_rest_proved():
    def planted(cert):
        b = board("3x2/HHH/121")
        right = ExactSolver().solve(b, Mode.LOCAL)
        return certify(b, replace(right, layouts=right.layouts + 1))

    text = _page_with(planted).text
    assert "exact's answer on this board: consistency proved, verdicts proved, count proved WRONG" in text
    assert "count proved: 1 layouts (not the 2 claimed)" in text
