"""Shrinking keeps a finding's numeric edge: a count that wraps at 2**64 cannot shrink below 2**64 layouts,
even where the solver is also wrong on tiny boards, and the page says why the board stays big."""

from __future__ import annotations

import sys
from dataclasses import replace

from shared import ROOT

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.check.numerals import edge_of
from minecheck.check.shrink import shrink
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.report.pages import FindingPage, render_finding

sys.path.insert(0, str(ROOT / "bench"))

from numeric_faults import CountWrap64  # noqa: E402


class WrapAndSmallBoards(CountWrap64):
    """Wraps at 2**64, and miscounts by one every board with fewer layouts: a count finding on any board."""

    def adjust(self, board, mode, result):
        if result.layouts is not None and result.layouts < 2**64:
            return replace(result, layouts=result.layouts + 1)
        return super().adjust(board, mode, result)


def count_finding(solver):
    board = generate_board(recipe("numeric", 0, edge="above-2**64"))
    found = [f for c in check_board(board, [solver], [Mode.GLOBAL], references=()) for f in c.findings
             if f.kind is Kind.COUNT]
    assert found
    return board, found[0]


def test_a_count_past_2_64_finding_stays_past_2_64_though_the_solver_also_fails_on_every_smaller_count():
    solver = WrapAndSmallBoards()
    board, finding = count_finding(solver)
    assert edge_of(finding) == ("wrap", 64)
    shrunk = shrink(finding, budget=None, solver=solver, max_calls=400)
    assert count_board(shrunk.board, Mode.GLOBAL).layouts > 2**64
    assert shrunk.board.size > 4 and shrunk.board.size <= board.size
    assert edge_of(shrunk.finding) == ("wrap", 64)


def test_without_its_edge_the_same_finding_would_shrink_to_a_few_cells(monkeypatch):
    import minecheck.check.shrink as shrinking

    monkeypatch.setattr(shrinking, "edge_of", lambda finding: None)
    solver = WrapAndSmallBoards()
    _, finding = count_finding(solver)
    assert shrink(finding, budget=None, solver=solver, max_calls=400).board.size <= 4


def test_the_page_of_a_shrunk_wrapped_count_says_why_the_board_stays_big():
    solver = CountWrap64()
    board, finding = count_finding(solver)
    shrunk = shrink(finding, budget=None, solver=solver, max_calls=200)
    page = render_finding(FindingPage(shrunk.finding, 0, board, parse_board(shrunk.finding.board)))
    assert "why the board stays big" in page and "the count must exceed 2**64" in page
    assert "read as" in page and "wraps at 2**64" in page
