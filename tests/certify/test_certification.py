"""certify(board, result): every claim of a reference's answer settled by a certificate that checks; a right
answer comes out certified, a wrong one proven wrong, and the JSON form reads back to the same value."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from minecheck import strategies
from minecheck.certify.certificates import REFUTATION, WITNESS, from_json, to_json
from minecheck.certify.certification import certify
from minecheck.certify.verify import check_certification
from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.boardtext import parse_board
from minecheck.solvers.exact import ExactSolver

EXACT = ExactSolver()


def board(text: str):
    return parse_board(text.replace("/", "\n"))


def modes(b):
    return (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,)


def test_a_safe_cell_has_a_layout_with_it_safe_and_a_refutation_of_it_as_a_mine():
    cert = certify(board("3x2/HHH/121"), EXACT.solve(board("3x2/HHH/121"), Mode.LOCAL))
    middle = next(p for p in cert.cells if p.cell == 1)
    assert middle.claimed is Verdict.SAFE and middle.proven is Verdict.SAFE
    assert middle.safe.kind == WITNESS and middle.mine.kind == REFUTATION
    assert cert.certified and check_certification(cert).ok


def test_an_unknown_cell_has_two_layouts():
    cert = certify(board("2x2x2/HH/2F"), EXACT.solve(board("2x2x2/HH/2F"), Mode.GLOBAL))
    assert all(p.mine.kind == p.safe.kind == WITNESS for p in cert.cells)
    assert cert.certified and check_certification(cert).ok and cert.refutations == ()


def test_an_impossible_board_has_a_refutation_and_a_minimal_core():
    b = board("HH/1F/F2")
    cert = certify(b, EXACT.solve(b, Mode.LOCAL))
    assert cert.proven_consistent is False and cert.consistent.kind == REFUTATION
    assert cert.core.rules == (("flag", 3), ("flag", 4), ("digit", 2))
    assert cert.certified and check_certification(cert).ok


def test_wrong_verdicts_are_proven_wrong_by_certificates_that_check():
    b = board("3x2/HHH/121")
    right = EXACT.solve(b, Mode.LOCAL)
    flipped = {Verdict.SAFE: Verdict.UNKNOWN, Verdict.MINE: Verdict.SAFE, Verdict.UNKNOWN: Verdict.MINE}
    lie = replace(right, solver="liar", cells=tuple(CellAnswer(a.cell, flipped[a.verdict]) for a in right.cells))
    cert = certify(b, lie)
    assert cert.wrong == ("0", "1", "2") and not cert.certified
    assert [p.proven for p in cert.cells] == [Verdict.MINE, Verdict.SAFE, Verdict.MINE]
    assert check_certification(cert).ok


def test_a_consistent_board_called_impossible_is_proven_consistent_and_the_converse():
    b = board("3x2/HHH/121")
    cert = certify(b, SolverResult("liar", Mode.LOCAL, consistent=False))
    assert cert.wrong == ("consistency",) and check_certification(cert).ok
    impossible = board("1H0")
    cert = certify(impossible, SolverResult("liar", Mode.LOCAL, consistent=True, cells=(CellAnswer(1, Verdict.SAFE),)))
    assert cert.wrong == ("consistency",) and cert.core is not None and check_certification(cert).ok


def test_the_cells_off_the_frontier_are_answered_by_moving_mines_not_by_a_search_each():
    b = board("12x12x30/" + "/".join(["HHHHHHHHHHHH"] * 11) + "/0HHHHHHHHHHH")
    cert = certify(b, EXACT.solve(b, Mode.GLOBAL))
    assert cert.certified and check_certification(cert).ok
    assert len(cert.witnesses) <= 8, len(cert.witnesses)  # 141 off-frontier cells, 30 mines among them


def test_a_cell_the_total_alone_decides_is_refuted_with_the_total():
    b = board("4x1x1/H1HH")  # the 1 takes the one mine: r0c3 is safe only by the total
    cert = certify(b, EXACT.solve(b, Mode.GLOBAL))
    last = next(p for p in cert.cells if p.cell == 3)
    assert last.proven is Verdict.SAFE and ("total",) in cert.refutations[last.mine.index].rules
    assert cert.certified and check_certification(cert).ok


def test_a_tampered_certification_is_refused():
    b = board("3x2/HHH/121")
    cert = certify(b, EXACT.solve(b, Mode.LOCAL))
    moved = replace(cert, witnesses=(replace(cert.witnesses[0], mines=(0, 1)),))
    assert not check_certification(moved).ok
    swapped = replace(cert, cells=tuple(replace(p, mine=p.safe, safe=p.mine) for p in cert.cells))
    assert not check_certification(swapped).ok
    assert not check_certification(cert, board("3x2/HHH/111")).ok  # a certification of another board


def test_a_result_that_claims_nothing_is_not_certified_but_said_why():
    b = board("3x2/HHH/121")
    cert = certify(b, SolverResult("slow", Mode.LOCAL, declined="too big"))
    assert cert.declined == "too big" and not cert.certified


@settings(max_examples=80)
@given(st.one_of(strategies.boards(width=(1, 6), height=(1, 5)), strategies.inconsistent_boards(width=(1, 5),
                                                                                                  height=(1, 4))))
def test_the_exact_counter_s_answers_are_certified_and_every_certificate_checks(b):
    for mode in modes(b):
        cert = certify(b, EXACT.solve(b, mode))
        assert cert.certified, cert.wrong
        assert check_certification(cert, b).ok
        assert from_json(json.loads(json.dumps(to_json(cert)))) == cert


def test_the_same_answer_gives_the_same_certificates_byte_for_byte():
    b = board("5x3x4/HHHHH/H1H2H/HHHHH")
    first, again = (json.dumps(to_json(certify(b, EXACT.solve(b, Mode.GLOBAL)))) for _ in range(2))
    assert first == again


def test_a_board_too_big_to_certify_is_declined_with_what_was_settled(monkeypatch):
    from minecheck.certify import cnf, search

    b = board("4x1x1/H1HH")  # r0c3 is safe by the total alone: its refutation needs the total's counter
    monkeypatch.setattr(cnf, "CLAUSES", 3)
    monkeypatch.setattr(search, "CLAUSES", 10 ** 6)
    cert = certify(b, EXACT.solve(b, Mode.GLOBAL))
    assert cert.declined.startswith("too big to certify") and not cert.certified
    assert cert.proven_consistent is True and check_certification(cert).ok
