"""play --judge optimal: open moves judged by their chance of winning under perfect play (the oracle),
summary.json's perfect-play value, sizes beyond the oracle refused, and the default judge unchanged."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from minecheck.cli import main
from minecheck.model.board import COVERED
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.play import run as play_run
from minecheck.play.decisions import (
    OPTIMAL_MARGIN,
    Flaw,
    as_finding,
    judge,
    judge_optimal,
    judge_with,
    still_decides_badly,
)
from minecheck.play.game import Action, Move
from minecheck.play.oracle import first_click_value
from minecheck.play.player import Decision
from minecheck.play.players import get_player
from minecheck.play.report import publish_play
from minecheck.play.run import PlayConfig, play_game, read_findings, run_play, write_summary

CENTRE_LOSES = "3x3x3\nHH1\nHHH\n1HH"  # the centre has p=1/9 and wins 1/3; an edge has p=4/9 and wins 4/9


def test_exact_probability_play_is_suboptimal_where_the_safest_cell_is_not_the_best():
    board = parse_board(CENTRE_LOSES)
    decision = get_player("exact").decide(board, get_player("exact").start(0), Budget(cpu=10))
    assert [m.cell for m in decision.moves if m.action is Action.OPEN] == [4], "exact opens the centre, p=1/9"
    assert judge(board, decision.moves) == (), "by probability alone the centre is the right move"
    (bad,) = judge_optimal(board, decision.moves)
    assert bad.flaw is Flaw.SUBOPTIMAL
    assert (bad.value, bad.best_value) == (Fraction(1, 3), Fraction(4, 9))
    assert (bad.probability, bad.best_probability) == (Fraction(1, 9), Fraction(4, 9))
    assert bad.best_value - bad.value > OPTIMAL_MARGIN
    finding = as_finding(CENTRE_LOSES, board, "exact", bad)
    assert finding.detail == "suboptimal"
    assert "wins 1/3" in finding.reference_says and "wins 4/9" in finding.reference_says
    assert judge_with(board, decision.moves, "optimal") == (bad,)
    assert judge_with(board, decision.moves, "probability") == ()


def test_the_shrink_predicate_re_judges_a_suboptimal_move_with_the_oracle():
    board = parse_board(CENTRE_LOSES)
    (bad,) = judge_optimal(board, (Move(Action.OPEN, 4, "lowest"),))
    finding = as_finding(CENTRE_LOSES, board, "exact", bad, 0, {"state": get_player("exact").start(0)})
    check = still_decides_badly(finding, get_player("exact"))
    again = check(board)
    assert again is not None and again.detail == "suboptimal" and "wins 1/3" in again.reference_says
    big = parse_board("7x7x5\n" + "\n".join(["HHHHHHH"] * 7))  # 49 cells: beyond the oracle, no match
    assert check(big) is None


def test_a_riskier_guess_that_wins_as_much_is_not_bad(monkeypatch):
    board = parse_board(CENTRE_LOSES)
    edge = (Move(Action.OPEN, 1, "lowest"),)  # r0c1: p=4/9 against the centre's 1/9, and it wins 4/9, the best
    assert judge_with(board, edge, "probability") == (), "the endgame search (9 layouts) values it"
    assert judge_with(board, edge, "optimal") == ()
    monkeypatch.setattr("minecheck.play.decisions.ENDGAME_LAYOUTS", 0)  # past the endgame's limit...
    (risky,) = judge_with(board, edge, "probability")
    assert risky.flaw is Flaw.RISKIER_GUESS, "...the probability stands"
    assert judge_with(board, edge, "optimal") == (), "and the oracle still values it"
    corner = (Move(Action.OPEN, 0, "lowest"),)  # r0c0: riskier and worse, bad both ways
    assert {b.flaw for b in judge_with(board, corner, "optimal")} == {Flaw.RISKIER_GUESS, Flaw.SUBOPTIMAL}


def test_flags_are_not_judged_by_value():
    board = parse_board("2x2x1\n1H\nHH")
    assert judge_optimal(board, (Move(Action.FLAG, 1, "mine"),)) == ()


def test_a_weak_player_makes_suboptimal_decisions_with_both_chances_shown(monkeypatch):
    class Weak:
        """A deliberately weak player: it opens the first covered cell, whatever the digits say."""

        name = "weak"

        def start(self, seed):
            return 0

        def decide(self, board, state, budget=None):
            covered = [c for c in range(board.width * board.height) if board.cells[c] == COVERED]
            return Decision((Move(Action.OPEN, covered[0], "lowest"),), state)

    monkeypatch.setattr(play_run, "_player", lambda name: Weak())
    config = PlayConfig(seed=5, players=("weak",), size="3x3x3", first_click="safe", judge="optimal")
    findings = [f for i in range(12) for f in play_game(config, "weak", i).findings]
    suboptimal = [f for f in findings if f.detail == "suboptimal"]
    assert suboptimal, "opening the first covered cell is not always the best move"
    for f in suboptimal:
        assert f.reference_says.count(" wins ") == 2 and "margin 1/100" in f.reference_says
        mine, best = (Fraction(part.split(" wins ")[1].split()[0]) for part in f.reference_says.split(", ")[:2])
        assert best - mine > OPTIMAL_MARGIN
    plain = replace(config, judge="probability")
    assert not any(f.detail == "suboptimal" for i in range(12) for f in play_game(plain, "weak", i).findings)


def test_summary_gives_perfect_play_from_the_runs_own_first_click(tmp_path):
    # 4x4x4 with mines anywhere: the best first click (an edge cell, r0c1) wins 961/1820
    config = PlayConfig(seed=1, players=("exact",), size="4x4x4", first_click="any", first_cell="0,1",
                        judge="optimal")
    run_play(config, tmp_path, games=3, jobs=1)
    summary = write_summary(tmp_path)
    assert summary["optimal"]["value"] == "961/1820" == str(first_click_value(4, 4, 4, "any"))
    assert summary["optimal"]["win_rate"] == pytest.approx(961 / 1820)
    assert "961/1820" in publish_play(tmp_path, per_flaw=0).read_text(), "the report shows it too"
    # a first click that may be a mine: P(safe) x the value with that cell safe
    assert first_click_value(4, 4, 4, "any", 1) == Fraction(12, 16) * first_click_value(4, 4, 4, "safe", 1)
    centre = replace(config, first_cell="centre")
    assert str(play_run.optimal_value(centre)) == "457/910" == str(first_click_value(4, 4, 4, "any", 10))


def test_a_size_beyond_the_oracle_is_refused_before_any_game(tmp_path, capsys):
    code = main(["play", "--solvers", "exact", "--games", "1", "--size", "7x7x5", "--judge", "optimal",
                 "--seed", "1", "--out", str(tmp_path / "run"), "--no-progress", "--no-report"])
    assert code == 2
    assert "36 cells" in capsys.readouterr().err
    assert not (tmp_path / "run" / "games.jsonl").exists()
    with pytest.raises(ValueError, match="judge"):
        PlayConfig(seed=1, players=("exact",), size="4x4x4", judge="perfect").validate()


def test_decide_judges_optimally_when_asked(capsys):
    assert main(["decide", CENTRE_LOSES.replace("\n", "/"), "--player", "exact", "--judge", "optimal"]) == 1
    out = capsys.readouterr().out
    assert "BAD (suboptimal)" in out and "wins 1/3" in out and "wins 4/9" in out
    assert main(["decide", CENTRE_LOSES.replace("\n", "/"), "--player", "exact"]) == 0


def test_the_default_judge_plays_and_judges_exactly_as_before():
    # recorded with the code before --judge existed (commit 2e0dab4), same seed and games
    before = [('gibbs@seed', 0, 'opened a certain mine', (6,), 2), ('gibbs@seed', 0, False, 'opened a mine at r0c6'),
              ('gibbs@seed', 1, 'riskier guess', (25, 8), 5), ('gibbs@seed', 1, False, 'opened a mine at r2c7'),
              ('gibbs@seed', 2, True, 'won'), ('gibbs@seed', 3, True, 'won')]
    config = PlayConfig(seed=3, players=("gibbs@seed",), size="beginner", budget=Budget(cpu=10))
    assert config.judge == "probability"
    now = []
    for i in range(4):
        record = play_game(config, "gibbs@seed", i)
        now += [(f.subject, f.index, f.detail, f.cells, f.extra["turn"]) for f in record.findings]
        now.append(("gibbs@seed", i, record.won, record.outcome))
    assert now == before


def test_a_play_json_from_before_the_judge_resumes(tmp_path):
    config = PlayConfig(seed=2, players=("exact",), size="4x4x4", first_click="safe")
    run_play(config, tmp_path, games=2, jobs=1)
    stored = json.loads((tmp_path / "play.json").read_text())
    del stored["judge"]
    (tmp_path / "play.json").write_text(json.dumps(stored))
    run_play(config, tmp_path, games=4, jobs=1, resume=True)
    assert len(play_run.read_games(tmp_path)) == 4
    assert play_run.read_config(tmp_path).judge == "probability"
    assert "optimal" not in write_summary(tmp_path)
    assert read_findings(tmp_path) == []


def test_mines_per_cell_counts_each_layouts_mines_once():
    from minecheck.play.endgame import mines_per_cell
    found = (0b1011, 0b0001, 0b1000, 0)
    assert mines_per_cell(found, 5) == [2, 1, 0, 2, 0]
