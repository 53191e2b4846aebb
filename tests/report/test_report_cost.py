"""Reports cost time linear in what they show (issue 19, item 10): a replay draws each of its boards from one
view of the game, not a view per cell, and a page looks each cell's answer up, not through every answer."""

from __future__ import annotations

from fractions import Fraction

from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import COVERED, Board
from minecheck.model.boardtext import format_board
from minecheck.play import report as playreport
from minecheck.play.game import FirstClick, deal, parse_size
from minecheck.play.run import PlayConfig
from minecheck.report.pages import FindingPage, render_finding
from minecheck.report.textview import side_by_side


class CountedCells(tuple):
    """A result's cells that count how often they are walked through."""

    walks = 0

    def __iter__(self):
        CountedCells.walks += 1
        return super().__iter__()


def test_a_replay_of_a_50x50_game_makes_one_view_per_board_it_draws(monkeypatch):
    config = PlayConfig(1, ("exact",), "50x50x500", FirstClick.SAFE_3X3.value)
    game = deal(parse_size(config.size), FirstClick(config.first_click), config.seed, 0)
    safe = [c for c in range(2500) if c not in game.mines and c not in game.opened]
    turns = [[["open", c, "lowest"]] for c in safe[:300]] + [[["open", min(game.mines), "lowest"]]]
    record = {"player": "exact", "index": 0, "outcome": "lost", "turns": turns}
    calls = []
    real = playreport.view
    monkeypatch.setattr(playreport, "view", lambda g: calls.append(1) or real(g))
    shown = playreport.replay_view(config, record, [])
    assert len(shown["decisions"]) == 301 and len(shown["grids"]) == playreport.REPLAY_BOARDS + 1
    assert len(calls) == len(shown["grids"])  # was one per cell drawn: 2,500 a board


def test_a_page_of_a_200x200_board_looks_each_answer_up_once():
    board = Board(200, 200, (COVERED,) * 40_000, 4_000)
    cells = CountedCells(CellAnswer(c, Verdict.UNKNOWN, Fraction(1, 10)) for c in range(40_000))
    result = SolverResult("mine", Mode.GLOBAL, True, cells=cells)
    exact = SolverResult("exact", Mode.GLOBAL, True, cells=cells)
    finding = Finding(Kind.PROBABILITY, "mine", "exact", Mode.GLOBAL, (0,), "0.2", "1/10", format_board(board))
    CountedCells.walks = 0
    html = render_finding(FindingPage(finding, 0, board, None, (result, exact)))
    assert html.count('title="r199c199') == 2  # each side's answers, drawn on the board
    assert CountedCells.walks <= 4  # an index per result; a scan per cell walked them 80,000 times
    CountedCells.walks = 0
    table = side_by_side(board, [result, exact])
    assert table.count("\n") == 40_000 and CountedCells.walks <= 6
