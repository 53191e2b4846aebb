"""The report as a browser draws it: Debian's Chromium, headless, opening a published campaign from disk.

Chromium gives back the DOM after rendering (--dump-dom) and a screenshot; the screenshot is read
with Pillow and numpy to check that the highlight and the heat map are really painted.
"""

from __future__ import annotations

import colorsys
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from browser import DESKTOP, ORANGE, PHONE, drawn, framed, painted, require_chromium
from test_report import Page

from minecheck.cli import main
from minecheck.model.boardtext import parse_board
from minecheck.report.pages import render_index

pytestmark = pytest.mark.browser

WINDOW = (1200, 1600)


@dataclass(frozen=True)
class Shown:
    """A page as Chromium rendered it: the DOM after loading, and the screenshot's pixels."""

    dom: Page
    pixels: np.ndarray  # height x width x RGB, as int16 so that differences do not wrap
    screenshot: Path


def show(chromium: Path, page: Path, work: Path) -> Shown:
    """Open one page from disk, in the whole window."""
    png = work / f"{page.stem}.png"
    dom, pixels = drawn(chromium, page.as_uri(), png, WINDOW)
    return Shown(Page(dom), pixels, png)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    """dpll@seed on one small board: a count, a probability and a verdict finding, each shrunk."""
    out = tmp_path_factory.mktemp("campaign")
    code = main(["fuzz", "--seed", "7", "--boards", "1", "--out", str(out), "--solvers", "dpll@seed",
                 "--generator", "reveal", "--timeout", "60", "--jobs", "1", "--no-progress",
                 "--shrink-per-signature", "1"])
    assert code == 1
    return out


@pytest.fixture(scope="module")
def pages(campaign) -> dict[str, Path]:
    """The index, and a finding page of each kind by kind."""
    by_kind = {Page(p.read_text()).headings[0].split()[0]: p for p in sorted(campaign.glob("finding-*.html"))}
    assert {"count", "probability", "verdict"} <= set(by_kind), f"kinds found: {sorted(by_kind)}"
    return {"index": campaign / "index.html", **by_kind}


@pytest.fixture(scope="module")
def shown(chromium, pages, tmp_path_factory) -> dict[str, Shown]:
    work = tmp_path_factory.mktemp("chromium")
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two browsers at a time
        return dict(zip(pages, pool.map(lambda p: show(chromium, p, work), pages.values())))


def test_debian_chromium_is_installed():
    assert require_chromium().is_file()


def test_screenshots_are_saved_at_the_window_size(shown):
    for name, s in shown.items():
        assert s.screenshot.stat().st_size > 0, name
        assert s.pixels.shape == (WINDOW[1], WINDOW[0], 3), name


def test_index_opens_from_disk_with_a_link_to_every_finding_page(shown, pages):
    dom = shown["index"].dom
    findings = {p.name for p in pages["index"].parent.glob("finding-*.html")}
    assert findings and findings <= set(dom.links)
    assert sorted(row[0] for row in dom.table("kind")) == ["count", "probability", "verdict"]
    assert painted(shown["index"].pixels, ORANGE) == 0  # the index highlights nothing


def test_rendered_grids_keep_every_cell_of_both_boards(shown):
    dom = shown["verdict"].dom
    shrunk, original = (parse_board(text) for text in dom.textareas)
    sizes = {g.name: (g.width, len(g.cells)) for g in dom.grids}
    layouts = {name: size for name, size in sizes.items() if name.startswith("layout-")}  # the certificate's
    assert layouts and set(layouts.values()) == {(shrunk.width, shrunk.size)}
    assert sizes == {f"shrunk-{i}": (shrunk.width, shrunk.size) for i in (1, 2)} | \
        {f"original-{i}": (original.width, original.size) for i in (1, 2)} | layouts
    assert {g.name for g in dom.grids if g.bad and not g.name.startswith("layout-")} == {"shrunk-1", "shrunk-2"}


def test_each_highlighted_cell_is_painted_with_the_orange_outline(shown):
    # the legend shows only what the cells show: a count finding highlights no cell, so nothing is orange
    assert not any(g.bad for g in shown["count"].dom.grids)
    assert painted(shown["count"].pixels, ORANGE) == 0
    # where cells are highlighted, the legend's one sample and each cell's outline paint alike
    highlighted = {k: sum(len(g.bad) for g in shown[k].dom.grids) for k in ("verdict", "probability")}
    assert highlighted["verdict"] >= 3
    each = {k: painted(shown[k].pixels, ORANGE) / (n + 1) for k, n in highlighted.items() if n}
    assert each["verdict"] > 0
    assert all(v == pytest.approx(each["verdict"], rel=0.1) for v in each.values()), (highlighted, each)


def test_probability_heat_map_is_painted_in_its_colours(shown):
    styles = {c.style for g in shown["probability"].dom.grids for c in g.cells if c.style}
    assert styles, "the probability page should colour cells by probability"
    for style in styles:
        hue, saturation, lightness = map(int, re.fullmatch(r"background: hsl\((\d+), (\d+)%, (\d+)%\)", style).groups())
        rgb = colorsys.hls_to_rgb(hue / 360, lightness / 100, saturation / 100)
        colour = tuple(round(255 * v) for v in rgb)
        assert painted(shown["probability"].pixels, colour, tolerance=2) > 200, style  # most of a 26 px cell


def test_a_missing_browser_is_skipped_with_its_reason_unless_ci_requires_it(monkeypatch):
    import browser as me

    monkeypatch.setattr(me, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.setattr(me, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="is missing: .ci/run installs it"):
        me.require_chromium()
    monkeypatch.setattr(me, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="the browser tests are required here"):
        me.require_chromium()


# -- the indexes at a phone's width and a desktop's ----------------------------------------------------

# the page's scroll width, posted to the frame it is measured in (browser.framed)
MEASURE = "<script>parent.postMessage(String(document.documentElement.scrollWidth), '*')</script>"


@pytest.fixture(scope="module")
def play_run(tmp_path_factory) -> Path:
    """Two Beginner games each of exact and gibbs@seed (which decides badly), published."""
    out = tmp_path_factory.mktemp("play")
    code = main(["play", "--solvers", "exact,gibbs@seed", "--games", "2", "--seed", "4", "--out", str(out),
                 "--jobs", "1", "--no-progress", "--timeout", "10"])
    assert code in (0, 1) and (out / "index.html").is_file()
    return out


def at_width(chromium: Path, page: Path, work: Path, window: tuple[int, int]) -> tuple[int, np.ndarray, Path]:
    """The page in a frame of this size: how wide its content is (its scroll width), and the frame's pixels."""
    png = work / f"{page.parent.name}-{page.stem}-{window[0]}.png"
    width, pixels = framed(chromium, page, MEASURE, png, window)
    return int(width), pixels, png


@pytest.mark.parametrize("window", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_both_indexes_fit_the_window_without_scrolling_sideways(chromium, campaign, play_run, window,
                                                                 tmp_path_factory):
    work = tmp_path_factory.mktemp("widths")
    for index in (campaign / "index.html", play_run / "index.html"):
        width, pixels, png = at_width(chromium, index, work, window)
        assert png.stat().st_size > 0 and pixels.shape == (window[1], window[0], 3)  # the screenshot, kept
        assert width <= window[0], f"{index.parent.name}: content {width} px wide in a {window[0]} px window"
        # table headers are painted in the frame (on a phone the campaign's tables are white cards instead)
        assert painted(pixels, (0xEE, 0xEE, 0xEE)) + painted(pixels, (0xFF, 0xFF, 0xFF)) > 1000


# -- boards in the index: boxes of bounded size, apart, never pushing the links off screen ---------------

BOXES = ("<script>var b = Array.from(document.querySelectorAll('#signatures .board')).map(function (e) {"
         " var r = e.getBoundingClientRect(); return Math.round(r.width) + 'x' + Math.round(r.height) + 'x' +"
         " Math.round(r.top); });"
         " var l = Array.from(document.querySelectorAll('#signatures td.links a')).map(function (e) {"
         " return Math.round(e.getBoundingClientRect().right); });"
         " parent.postMessage(document.documentElement.scrollWidth + '|' + b.join(',') + '|' + Math.max.apply(null, l),"
         " '*')</script>")


def boxes_at(chromium: Path, page: Path, work: Path, window: tuple[int, int]) -> tuple[int, list[tuple], int]:
    """The page's scroll width, each board box's (width, height, top), and the right edge of the rightmost link."""
    posted, _ = framed(chromium, page, BOXES, work / f"boxes-{window[0]}.png", window)
    width, boxes, right = posted.split("|")
    return int(width), [tuple(int(v) for v in b.split("x")) for b in boxes.split(",")], int(right)


@pytest.mark.parametrize("window", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_index_boards_sit_in_bounded_boxes_apart_and_the_links_stay_in_view(chromium, window, tmp_path):
    from test_report import finding, summary

    from minecheck.check.findings import Kind

    wide = "1021x1\n" + "1H" * 510 + "H\n"  # an LP finding's strip, as the README's main job once drew it
    tall = "3x40\n" + "H1H\n" * 40
    found = tuple(finding(Kind.VERDICT, "dpll@seed", i) for i in range(3))
    (tmp_path / "index.html").write_text(render_index(summary(found, shrunk_boards={0: wide, 1: tall, 2: "2x1\n1H\n"})))
    width, boxes, right = boxes_at(chromium, tmp_path / "index.html", tmp_path, window)
    assert width <= window[0], f"content {width} px wide in a {window[0]} px window"
    assert len(boxes) == 3
    # 16rem x 9.5rem (a rem is 16 px) and the box's padding and border; on a phone, the window's width less a margin
    bound = 16 * 16 + 16 if window[0] > 640 else window[0] - 30
    assert all(w <= bound and h <= 9.5 * 16 + 6 for w, h, _ in boxes), boxes
    assert max(w for w, _, _ in boxes) > 200 and max(h for _, h, _ in boxes) > 120  # the big ones reach the bound
    ordered = sorted(boxes, key=lambda b: b[2])
    assert all(b[2] >= a[2] + a[1] for a, b in zip(ordered, ordered[1:])), f"boxes overlap: {boxes}"
    assert right <= window[0], f"a findings link ends at {right} px, past the {window[0]} px window"
