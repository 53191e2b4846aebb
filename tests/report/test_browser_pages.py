"""Every kind of page a person reads, as Debian's Chromium draws it at a phone's width (390 px) and a desktop's
(1280 px): the page never scrolls sideways (a table or a board scrolls in its own box), every replay line is
inside the window with its whole text wrapped into view, and the plots' text is at least MIN_TEXT px high.

Each page is measured in a frame of the window's size (browser.framed: Chromium lays a window out at least
500 px wide), and its screenshot is kept at ``<pytest's tmp folder>/screens/<page>-<width>.png``.
"""

from __future__ import annotations

import json
import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from browser import DESKTOP, ORANGE, PHONE, framed, painted
from shared import PROGRAMS
from test_report import Page

from minecheck.cli import main

pytestmark = pytest.mark.browser

MIN_TEXT = 10  # px: the smallest text of a plot, as drawn (a phone drew the index's labels 5 px high)
# posted to the frame: the page's scroll width, its window's width, each replay line's box (left, right, scroll
# width, client width), each plot text's drawn font size and height, how many cells are outlined, and the win-rate
# table's box (scroll width, client width) with each of its cells (text, left, right, height, scroll and client width)
MEASURE = """<script>(function () {
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.right, e.scrollWidth, e.clientWidth]; }
  var rates = document.getElementById('winrates'), texts = [];
  document.querySelectorAll('svg.plot').forEach(function (svg) {
    var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    svg.querySelectorAll('text').forEach(function (t) {
      texts.push([parseFloat(t.getAttribute('font-size')) * scale, t.getBoundingClientRect().height]); });
  });
  parent.postMessage(JSON.stringify({width: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
    replays: Array.from(document.querySelectorAll('pre.replay')).map(box), texts: texts,
    outlined: document.querySelectorAll('.grid .cell.bad').length,
    winrates: rates && {box: [rates.parentElement.scrollWidth, rates.parentElement.clientWidth],
      cells: Array.from(rates.querySelectorAll('td')).map(function (td) { var r = td.getBoundingClientRect();
        return [td.textContent.trim(), r.left, r.right, r.height, td.scrollWidth, td.clientWidth]; })}}), '*');
})()</script>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """One small campaign with a finding of each kind: dpll@seed's verdict, probability and count, simplex@seed's
    LP on a board's relaxation and on a general random LP, and the crash of a program named on the command line
    (cmd:); and a play run's win-rate page and its decision's page.  Named by what they show."""
    out = tmp_path_factory.mktemp("campaign")
    program = shlex.join([sys.executable, str(PROGRAMS / "protocol_program.py"), "--misbehave", "crash"])
    code = main(["fuzz", "--seed", "9", "--boards", "1", "--generator", "reveal", "--out", str(out), "--solvers",
                 f"dpll@seed,simplex@seed,crasher=cmd:{program}", "--references", "exact", "--jobs", "1",
                 "--no-progress", "--shrink-per-signature", "1", "--timeout", "60"])
    assert code == 1
    found: dict[str, Path] = {"index": out / "index.html"}
    for path in sorted(out.glob("finding-*.html")):
        page = Page(path.read_text())
        kind, subject = page.headings[0].split()[:2]
        name = ("lp-general" if "a random LP" in page.text else "lp-board") if kind == "lp" else \
            "crash-cmd" if kind == "crash" and subject == "crasher" else kind
        found.setdefault(name, path)
    assert {"verdict", "probability", "count", "lp-board", "lp-general", "crash-cmd"} <= set(found), sorted(found)
    play = tmp_path_factory.mktemp("play")
    code = main(["play", "--solvers", "exact,gibbs@seed", "--games", "2", "--seed", "4", "--out", str(play),
                 "--jobs", "1", "--no-progress", "--timeout", "10"])
    decisions = sorted(play.glob("finding-*.html"))
    assert code == 1 and decisions, "gibbs@seed makes a bad decision in these two games"
    return {**found, "play": play / "index.html", "play-decision": decisions[0]}


def measured(chromium: Path, name: str, page: Path, screens: Path, window: tuple[int, int]) -> tuple[dict, np.ndarray]:
    """The page in a frame of the window's size: what MEASURE posts, and the frame's pixels (kept as
    ``screens/<name>-<width>.png``)."""
    posted, pixels = framed(chromium, page, MEASURE, screens / f"{name}-{window[0]}.png", window)
    return json.loads(posted), pixels


@pytest.fixture(scope="module")
def shown(chromium, pages, tmp_path_factory) -> dict[tuple[str, int], tuple[dict, np.ndarray]]:
    """Every page at both widths, by (page, width); the screenshots' paths printed."""
    screens = tmp_path_factory.getbasetemp() / "screens"
    screens.mkdir(exist_ok=True)
    jobs = [(name, window) for name in pages for window in (PHONE, DESKTOP)]
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two browsers at a time
        done = list(pool.map(lambda job: measured(chromium, job[0], pages[job[0]], screens, job[1]), jobs))
    print("screenshots:", *sorted(str(p) for p in screens.glob("*.png")), sep="\n  ")
    for (name, window), (data, _) in zip(jobs, done):
        fonts = [f for f, _ in data["texts"]]
        print(f"{name} at {window[0]}: content {data['width']} px in {data['window']} px"
              + (f", plot text from {min(fonts):.1f} px" if fonts else ""))
    return {(name, window[0]): result for (name, window), result in zip(jobs, done)}


PAGES = ("index", "verdict", "probability", "count", "lp-board", "lp-general", "crash-cmd", "play", "play-decision")


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways(shown, name, width):
    data, pixels = shown[name, width]
    assert data["width"] <= data["window"], f"{name}: content {data['width']} px wide in a {data['window']} px window"
    assert pixels.shape[:2] == (PHONE[1] if width == PHONE[0] else DESKTOP[1], width)


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", [p for p in PAGES if p not in ("index", "play")])
def test_every_replay_line_is_inside_the_window_and_wrapped_whole_into_view(shown, name, width):
    data, _ = shown[name, width]
    assert data["replays"], f"{name} shows no replay line"
    for left, right, scroll, client in data["replays"]:
        assert 0 <= left and right <= data["window"], f"{name}: a replay line spans {left}-{right} px"
        assert scroll <= client, f"{name}: a replay line is {scroll} px wide in a {client} px box: part of it hidden"


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", ["index", "play"])
def test_plot_text_is_drawn_at_least_min_text_high(shown, name, width):
    data, _ = shown[name, width]
    assert data["texts"], f"{name} draws no plot"
    font, height = min(f for f, _ in data["texts"]), min(h for _, h in data["texts"])
    assert font >= MIN_TEXT and height >= MIN_TEXT, f"{name}: plot text {font:.1f} px ({height:.1f} px high)"


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]], ids=["phone", "desktop"])
def test_the_win_rate_table_fits_its_box_with_every_cell_in_view(shown, width):
    """On a phone the win rates stack as cards, a value under its column's name, rather than scroll in their box."""
    data, _ = shown["play", width]
    rates = data["winrates"]
    scroll, client = rates["box"]
    assert scroll <= client, f"the win-rate table is {scroll} px wide in a {client} px box: it scrolls there"
    assert len(rates["cells"]) == 2 * 9  # exact and gibbs@seed, nine columns each
    for text, left, right, height, cell_scroll, cell_client in rates["cells"]:
        assert text and height > 0, f"a win-rate cell is not drawn: {text!r}, {height} px high"
        assert 0 <= left and right <= data["window"], f"the win-rate cell {text!r} spans {left}-{right} px"
        assert cell_scroll <= cell_client, f"the win-rate cell {text!r} shows {cell_client} of its {cell_scroll} px"


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]], ids=["phone", "desktop"])
def test_an_lp_finding_on_a_board_outlines_its_component_in_orange(shown, width):
    data, pixels = shown["lp-board", width]
    assert data["outlined"] >= 1
    assert painted(pixels, ORANGE) > 0
    general, pixels = shown["lp-general", width]
    assert general["outlined"] == 0 and painted(pixels, ORANGE) == 0  # a general LP has no board
