"""The planted fault every reference shares (bench/faults.py shared_fault): exact, cbc, minisat and brute
agree with each other on it and are wrong, and certification alone shows it, with certificates that check."""

from __future__ import annotations

import sys
from pathlib import Path

from minecheck.certify.certification import certify
from minecheck.certify.verify import check_certification
from minecheck.model.answers import Mode, Verdict
from minecheck.model.boardtext import parse_board
from minecheck.running.discovery import get_solver

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from faults import SHARED_WITNESS, shared_fault  # noqa: E402

REFERENCES = ("exact", "cbc", "minisat", "brute")
BOARD = parse_board(SHARED_WITNESS.replace("/", "\n"))


def answers(board, mode):
    return {name: get_solver(name).solve(board, mode) for name in REFERENCES}


def verdicts(result):
    return result.consistent, tuple((a.cell, a.verdict) for a in result.cells)


def test_with_the_fault_planted_every_reference_agrees_and_is_wrong():
    right = get_solver("exact").solve(BOARD, Mode.LOCAL)
    with shared_fault():
        wrong = answers(BOARD, Mode.LOCAL)
    assert len({verdicts(r) for r in wrong.values()}) == 1
    assert verdicts(wrong["exact"]) != verdicts(right)


def test_certification_alone_proves_the_agreeing_answer_wrong():
    with shared_fault():
        wrong = get_solver("exact").solve(BOARD, Mode.LOCAL)
    cert = certify(BOARD, wrong)
    assert not cert.certified and check_certification(cert, BOARD).ok
    proven = {p.cell: p.proven for p in cert.cells}
    assert proven[1] is Verdict.MINE and proven[2] is Verdict.SAFE and proven[3] is Verdict.SAFE
    assert set(cert.wrong) == {"1", "2", "3", "count", "probabilities"}  # the count and probabilities too


def test_once_the_fault_is_removed_the_answer_is_certified():
    with shared_fault():
        pass
    cert = certify(BOARD, get_solver("exact").solve(BOARD, Mode.LOCAL))
    assert cert.certified and check_certification(cert, BOARD).ok


def test_the_fault_is_quiet_on_a_board_that_is_not_taller_than_wide():
    wide = parse_board("3x2\n1HH\n0HH")
    with shared_fault():
        planted = get_solver("exact").solve(wide, Mode.LOCAL)
    assert verdicts(planted) == verdicts(get_solver("exact").solve(wide, Mode.LOCAL))
