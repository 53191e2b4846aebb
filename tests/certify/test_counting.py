"""Counts proved: every component's layouts listed and refuted whole, the count and probabilities recomputed from
the lists by the checker, a wrong count proven wrong, and a list that lost a layout refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from minecheck.boards.generators import generate_board
from minecheck.boards.small import small_count, small_recipe
from minecheck.certify.certificates import from_json, to_json
from minecheck.certify.certification import certify
from minecheck.certify.counting import count_certificate
from minecheck.certify.rules import Reading
from minecheck.certify.verify import check_certification
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.solvers.exact import ExactSolver

EXACT = ExactSolver()
TWO_PARTS = parse_board("6x3x4\nHHHHHH\n1HHH1H\nHHHHHH")  # two components, cells off the frontier


def _modes(b):
    return (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,)


@pytest.mark.parametrize("start", range(4))
def test_the_proved_count_and_probabilities_are_the_exact_counter_s(start):
    step = small_count(7) // 40
    for i in range(start * step // 4, small_count(7), step):
        b = generate_board(small_recipe(7, i))
        for mode in _modes(b):
            result = EXACT.solve(b, mode)
            cert = certify(b, result)
            if cert.proven_consistent is not True:
                continue
            count, probs = cert.proven_count
            assert count == result.layouts, b.text()
            assert all(probs[a.cell] == a.probability for a in result.cells), b.text()
            assert check_certification(cert).ok and "count" not in cert.wrong


def test_a_count_certificate_checks_and_reads_back():
    for mode in _modes(TWO_PARTS):
        cert = certify(TWO_PARTS, EXACT.solve(TWO_PARTS, mode))
        assert len(cert.count.components) == 2 and cert.count.listed
        assert check_certification(cert).ok and from_json(to_json(cert)) == cert
        assert cert.proven_count[0] == EXACT.solve(TWO_PARTS, mode).layouts


def test_a_count_wrong_by_one_is_proven_wrong():
    right = EXACT.solve(TWO_PARTS, Mode.GLOBAL)
    cert = certify(TWO_PARTS, replace(right, layouts=right.layouts + 1))
    assert check_certification(cert).ok  # the certificates hold: they prove the claim wrong
    assert "count" in cert.wrong and not cert.certified


def test_a_list_that_lost_a_layout_is_refused_even_with_its_blocking_clause_gone():
    cert = certify(TWO_PARTS, EXACT.solve(TWO_PARTS, Mode.LOCAL))
    comp = cert.count.components[0]
    fewer = comp.layouts[1:]
    lost = replace(comp, layouts=fewer, refutation=replace(comp.refutation, blocked=fewer, cnf=None))
    tampered = replace(cert, count=replace(cert.count, components=(lost,) + cert.count.components[1:]))
    problems = check_certification(tampered).problems
    assert any("component 0" in p and "does not check" in p for p in problems), problems


def test_a_component_left_out_is_refused():
    cert = certify(TWO_PARTS, EXACT.solve(TWO_PARTS, Mode.LOCAL))
    tampered = replace(cert, count=replace(cert.count, components=cert.count.components[:1]))
    assert any("are not the board's 2" in p for p in check_certification(tampered).problems)


def test_a_component_with_too_many_layouts_is_not_listed_and_the_count_not_proved():
    result = EXACT.solve(TWO_PARTS, Mode.GLOBAL)
    count = count_certificate(Reading(TWO_PARTS, Mode.GLOBAL), result, listed=2)
    assert not count.listed and all(c.refutation is None and not c.layouts for c in count.components)
    cert = replace(certify(TWO_PARTS, result), count=count)
    assert cert.proven_count is None and check_certification(cert).ok and "count" not in cert.wrong
