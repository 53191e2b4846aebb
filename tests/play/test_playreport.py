"""The play report: the win-rate page (table, inline SVG plot, findings, a lost game replayed), the
decision findings' pages, and the campaign index's plots; every name from outside is escaped."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from minecheck.check.findings import Finding, Kind
from minecheck.check.shrinkcache import finding_key
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.play import report as playreport
from minecheck.play.report import lost_game, publish_play
from minecheck.play.run import PlayConfig, read_findings, read_games, run_play
from minecheck.report.pages import CampaignSummary, render_index
from minecheck.report.plots import bar_chart, interval_plot, stacked_bars

EVIL = '<script>alert(1)</script>"&'


class Links(HTMLParser):
    def __init__(self, markup: str):
        super().__init__()
        self.links: list[str] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs)["href"])


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Three Beginner games of exact and gibbs@seed (which loses some and decides badly), published."""
    out = tmp_path_factory.mktemp("playreport")
    run_play(PlayConfig(4, ("exact", "gibbs@seed"), "beginner", budget=Budget(cpu=10)), out, games=3, jobs=2)
    publish_play(out)
    return out


def test_the_page_shows_each_solver_s_win_rate_and_interval(run):
    page = (run / "index.html").read_text()
    summary_rows = re.findall(r"<tr><td[^>]*>([^<]+)</td><td class=\"num\"[^>]*>3</td>", page)
    assert summary_rows == ["exact", "gibbs@seed"]
    assert "95% interval (Wilson)" in page


def test_the_plot_is_inline_svg_with_one_interval_per_solver_and_the_anchor(run):
    page = (run / "index.html").read_text()
    (svg,) = re.findall(r"<svg.*?</svg>", page, re.S)
    assert svg.count("<circle") == 2 and "Tu et al. 2017" in svg
    for needle in ("http://", "https://", "src=", "<script", "url("):
        assert needle not in page


def test_bad_decisions_link_to_pages_that_exist(run):
    page = (run / "index.html").read_text()
    links = [h for h in Links(page).links if h.startswith("finding-")]
    assert links and all((run / h).is_file() for h in links)
    finding_page = (run / links[0]).read_text()
    assert "decision" in finding_page and "minecheck decide" in finding_page


def test_a_lost_game_is_replayed_move_by_move(run):
    page = (run / "index.html").read_text()
    shown = lost_game(read_games(run), read_findings(run), "gibbs@seed")
    assert shown is not None, "the fixture needs a lost game"
    assert f"<h3>{shown['player']}: game {shown['index']} &mdash; {shown['outcome']}</h3>" in page
    assert "<h3>before decision 1</h3>" in page and f"<h3>the end: {shown['outcome']}</h3>" in page
    assert ('class="cell mine exploded' in page) == shown["outcome"].startswith("opened a mine")


def test_names_from_outside_are_escaped_in_the_page(tmp_path):
    (tmp_path / "play.json").write_text(json.dumps({"seed": 1, "players": [EVIL], "size": "beginner",
                                                    "first_click": "safe-3x3", "budget": {"cpu": 1.0}}))
    (tmp_path / "games.jsonl").write_text(json.dumps({"player": EVIL, "index": 0, "won": False, "outcome": EVIL,
                                                      "error": EVIL, "turns": [], "findings": 0}) + "\n")
    page = publish_play(tmp_path).read_text()
    assert "<script" not in page and "&lt;script&gt;" in page


def test_plots_escape_their_labels():
    for svg in (interval_plot([(EVIL, 0.5, 0.4, 0.6)], EVIL, [(EVIL, 0.5)]), bar_chart([(EVIL, 2.0)], EVIL),
                stacked_bars([(EVIL, {EVIL: 3})], EVIL)):
        assert svg.startswith("<svg") and "<script" not in svg and "&lt;script&gt;" in svg


def test_the_campaign_index_plots_findings_per_solver_and_kind_and_time_per_solver():
    finding = Finding(Kind.VERDICT, EVIL, "exact", Mode.LOCAL, (0,), "safe", "mine", "1x1\nH")
    summary = CampaignSummary(1, (EVIL,), ("exact",), "mix", 1, 1.0, {EVIL: 0.5, "exact": 0.1}, (finding,))
    page = render_index(summary)
    assert page.count("<svg") == 2 and "Findings per solver and kind" in page and "Time per solver" in page
    assert "<script" not in page


def _decision(index: int, flaw: str = "opened a certain mine") -> Finding:
    return Finding(Kind.DECISION, "satdemo@seed", "exact", Mode.GLOBAL, (0,), "open r0c0 (blind)",
                   "r0c0 is certainly a mine", "2x1x1\nHm\n", flaw, None, index)


def _shrinks_that_fail_below(game: int):
    """A stand-in for the shrinker: findings of games below ``game`` keep most of their 8 cells, the rest
    shrink to a quarter; game 7's shrink is cut short by its budget."""
    def shrink_one(f: Finding, timeout: float) -> dict:
        tried.append(f.index)
        after = 3 if f.index < game else 2
        stats = {"cells_before": 8, "cells_after": after, "cut_short": f.index == 7}
        return {"key": finding_key(f), "finding": f.to_json(), "stats": stats}
    tried: list[int] = []
    return shrink_one, tried


@pytest.mark.parametrize("first_that_shrinks, expected", [(0, [0]), (1, [0, 1]), (99, [0, 1, 2])])
def test_a_group_whose_shrink_kept_its_size_tries_its_next_findings(tmp_path, monkeypatch, first_that_shrinks,
                                                                     expected):
    fake, tried = _shrinks_that_fail_below(first_that_shrinks)
    monkeypatch.setattr(playreport, "_shrink_one", fake)
    findings = [_decision(i) for i in range(5)] + [_decision(7, "guessed beside a safe cell")]
    shrunk = playreport.shrink_groups(tmp_path, findings, per_flaw=1, budget=Budget(cpu=1.0))
    assert tried == expected[:1] + [7] + expected[1:], "one per group first, then the stuck group's next ones"
    assert sorted(shrunk) == sorted(expected + [5]) and playreport.SHRINK_TRIES == 3


def test_a_decision_page_says_where_the_move_was_on_each_board_why_it_was_made_and_how_to_replay_it(run):
    findings = playreport.ordered(read_findings(run), ["exact", "gibbs@seed"])
    shrunk = {json.loads(line)["key"]: json.loads(line) for line in (run / "shrunk.jsonl").read_text().splitlines()}
    (n, f) = next((n, f) for n, f in enumerate(findings) if finding_key(f) in shrunk)
    small = Finding.from_json(shrunk[finding_key(f)]["finding"])
    page = (run / f"finding-{n:05d}.html").read_text()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert f"{f.subject_says} on the original board (game {f.index}, decision {f.extra['turn'] + 1})" in text
    assert f"on the shrunk board {small.subject_says}" in text
    assert "gibbs@seed answered" in text and "why it moved so" in text
    assert f"game {f.index} of play seed 4 (beginner, first click safe-3x3)" in text
    assert "a board given by hand" not in text and "campaign index" not in text and "play index" in text
    commands = re.findall(r"<pre[^>]*>(minecheck [^<]+)</pre>", page)
    assert [c.split()[1] for c in commands] == ["decide", "decide", "check"]  # shrunk, original, the solver alone
    assert "--solvers gibbs@seed --mode local --references exact" in commands[2]


def test_decide_says_what_the_player_answered_and_why_it_moved(run, capsys):
    from minecheck.cli import main

    f = playreport.ordered(read_findings(run), ["exact", "gibbs@seed"])[0]
    board = "/".join(line for line in f.board.splitlines() if line)
    code = main(["decide", board, "--player", f.subject, "--state", json.dumps(f.extra["state"])])
    out = capsys.readouterr().out
    assert code == 1 and f"{f.subject}'s answer on this board: " in out
    assert f"{f.subject_says}: BAD ({f.detail})" in out and "    why: " in out
