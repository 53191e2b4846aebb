"""Counts proved at the level of boxes: every component's box solutions listed and refuted whole, the count and
probabilities recomputed from the lists by the checker, a wrong count proven wrong at any size, and a list that
lost a solution, boxes that are not the board's or a component hidden as too big, refused."""

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
CORRIDOR = parse_board("10x3x9\nHHHHHHHHHH\nH2H2H2H2H2\nHHHHHHHHHH")  # the issue's: 9,241 layouts locally


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


def test_a_list_that_lost_a_solution_is_refused_even_with_its_blocking_clause_gone():
    cert = certify(CORRIDOR, EXACT.solve(CORRIDOR, Mode.LOCAL))
    comp = cert.count.components[0]
    fewer = comp.solutions[1:]
    lost = replace(comp, solutions=fewer, refutation=replace(comp.refutation, blocked=fewer, cnf=None))
    tampered = replace(cert, count=replace(cert.count, components=(lost,)))
    problems = check_certification(tampered).problems
    assert any("component 0" in p and "does not check" in p for p in problems), problems


def test_a_component_left_out_is_refused():
    cert = certify(TWO_PARTS, EXACT.solve(TWO_PARTS, Mode.LOCAL))
    tampered = replace(cert, count=replace(cert.count, components=cert.count.components[:1]))
    assert any("are not the board's 2" in p for p in check_certification(tampered).problems)


def test_a_component_past_the_cap_is_not_listed_and_its_count_and_probabilities_not_proved():
    result = EXACT.solve(CORRIDOR, Mode.GLOBAL)
    count = count_certificate(Reading(CORRIDOR, Mode.GLOBAL), result, listed=0)
    assert not count.listed and all(c.refutation is None and not c.solutions for c in count.components)
    cert = replace(certify(CORRIDOR, result), count=count)
    assert cert.proven_count is None and "count" not in cert.wrong and not cert.certified
    assert cert.claims["count"] == cert.claims["probabilities"] == "unproved" and cert.claims["verdicts"] == "proved"


def test_a_component_said_too_big_to_list_is_refused_when_its_box_system_is_small():
    cert = certify(CORRIDOR, EXACT.solve(CORRIDOR, Mode.LOCAL))
    (comp,) = cert.count.components
    hidden = replace(cert, count=replace(cert.count, components=(replace(comp, solutions=(), refutation=None),)))
    assert check_certification(hidden).problems == (
        "count: component 0: left unlisted, yet its box system has 31 solutions (a certificate lists up to 10,000)",)


def test_the_issue_s_corridor_is_proved_at_the_level_of_its_boxes_and_a_count_off_by_one_proven_wrong():
    right = EXACT.solve(CORRIDOR, Mode.LOCAL)
    assert right.layouts == 9_241
    cert = certify(CORRIDOR, right)
    assert cert.certified and cert.proven_count[0] == 9_241 and check_certification(cert).ok
    (comp,) = cert.count.components
    assert len(comp.boxes) == 9 and len(comp.solutions) == 31  # 31 solutions stand for 9,241 layouts
    planted = certify(CORRIDOR, replace(right, layouts=9_242, component_layouts=(9_242,)))
    assert check_certification(planted).ok and planted.wrong == ("count",) and planted.claims["count"] == "wrong"


def test_a_claimed_component_count_that_is_not_the_boxes_is_proven_wrong():
    right = EXACT.solve(TWO_PARTS, Mode.LOCAL)
    assert sorted(right.component_layouts) == [5, 8]
    cert = certify(TWO_PARTS, replace(right, component_layouts=(4, 10)))  # the product is still 40
    assert cert.wrong == ("count",)


def _corridor(width: int, total: int):
    return parse_board(f"{width}x3x{total}\n" + "H" * width + "\n" + "H2" * (width // 2) + "\n" + "H" * width)


@pytest.mark.parametrize("mode", Mode)
def test_a_long_corridor_is_proved_with_every_probability(mode):
    b = _corridor(20, 18)  # 60,312,790 layouts locally, 1,782 box solutions
    result = EXACT.solve(b, mode)
    cert = certify(b, result)
    count, probs = cert.proven_count
    assert count == result.layouts > 10_000 and cert.certified
    assert all(probs[a.cell] == a.probability for a in result.cells)
    assert check_certification(cert).ok


def test_boxes_that_are_not_the_board_s_are_refused():
    cert = certify(CORRIDOR, EXACT.solve(CORRIDOR, Mode.LOCAL))
    (comp,) = cert.count.components
    merged = (comp.boxes[0] + comp.boxes[1],) + comp.boxes[2:]  # two boxes that different digits see
    sols = tuple(sorted({(s[0] + s[1],) + s[2:] for s in comp.solutions}))
    bad = replace(comp, boxes=merged, solutions=sols, refutation=replace(comp.refutation, boxes=merged, blocked=sols,
                                                                       cnf=None))
    problems = check_certification(replace(cert, count=replace(cert.count, components=(bad,)))).problems
    assert any("holds cells that not the same digits see" in p for p in problems), problems


def test_a_listed_solution_that_breaks_a_digit_is_refused():
    cert = certify(CORRIDOR, EXACT.solve(CORRIDOR, Mode.LOCAL))
    (comp,) = cert.count.components
    wrong = tuple(min(k + 1, len(b)) for k, b in zip(comp.solutions[0], comp.boxes))
    sols = comp.solutions + (wrong,)
    bad = replace(comp, solutions=sols, refutation=replace(comp.refutation, blocked=sols, cnf=None))
    problems = check_certification(replace(cert, count=replace(cert.count, components=(bad,)))).problems
    assert any("breaks the digit at" in p for p in problems), problems


def test_a_blocking_clause_that_blocks_more_than_its_solution_is_refused():
    cert = certify(CORRIDOR, EXACT.solve(CORRIDOR, Mode.LOCAL))
    (comp,) = cert.count.components
    lines = comp.refutation.cnf.splitlines()
    last = lines[-1].split()
    shorter = " ".join(last[:1] + ["0"])  # the last blocked solution's clause cut to one literal: blocks many
    tampered = replace(comp.refutation, cnf="\n".join(lines[:-1] + [shorter]) + "\n")
    problems = check_certification(replace(cert, count=replace(cert.count, components=(
        replace(comp, refutation=tampered),)))).problems
    assert any("is implied by no rule" in p or "no clause says" in p for p in problems), problems
