"""The campaign report: what a finding page and the index show, read back from the HTML they are.

Most specifications build the report's plain data by hand (findings, boards, answers) and render
it; the rest publish a tiny real campaign (dpll@seed on three small boards) and check the files
on disk: links, replay commands, JUnit XML, determinism.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from minecheck.boards.recipe import Recipe
from minecheck.campaigns.publish import publish
from minecheck.check.findings import Finding, Kind
from minecheck.cli import main
from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.boardtext import parse_board
from minecheck.report.pages import CampaignSummary, FindingPage, junit_xml, page_name, render_finding, render_index

# -- reading a page back ---------------------------------------------------------------------------


@dataclass
class Cell:
    classes: frozenset[str]
    title: str
    style: str
    text: str = ""


@dataclass
class Grid:
    name: str
    width: int
    cells: list[Cell] = field(default_factory=list)

    @property
    def bad(self) -> set[int]:
        """The highlighted cells, as board cell indices."""
        return {i for i, c in enumerate(self.cells) if "bad" in c.classes}

    def row(self, r: int) -> list[tuple[str, str]]:
        """Row r as (classes other than 'cell' and 'bad', text) pairs."""
        return [(" ".join(sorted(c.classes - {"cell", "bad"})), c.text)
                for c in self.cells[r * self.width:(r + 1) * self.width]]


_BLOCKS = {"p", "div", "h1", "h2", "h3", "table", "tr", "td", "th", "pre", "textarea"}  # words never run across these


class Page(HTMLParser):
    """What a report page shows: its grids, tables, links, text boxes and visible text."""

    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.grids: list[Grid] = []
        self.tables: list[list[list[str]]] = []
        self.links: list[str] = []
        self.textareas: list[str] = []
        self.pres: list[str] = []
        self.headings: list[str] = []  # h1
        self._text: list[str] = []
        self._open: list[tuple[str, list, int]] = []  # (tag, list to write into, index in it)
        self._cell: Cell | None = None
        self._hidden = 0  # inside <style> or <title>
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "data-board" in a:
            width = int(re.search(r"repeat\((\d+),", a.get("style", "")).group(1))
            self.grids.append(Grid(a["data-board"], width))
        elif tag == "div" and "cell" in a.get("class", "").split() and self.grids:
            self._cell = Cell(frozenset(a["class"].split()), a.get("title", ""), a.get("style", ""))
            self.grids[-1].cells.append(self._cell)
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._capture(tag, self.tables[-1][-1])
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "textarea":
            self._capture(tag, self.textareas)
        elif tag == "pre":
            self._capture(tag, self.pres)
        elif tag == "h1":
            self._capture(tag, self.headings)
        elif tag in ("style", "title"):
            self._hidden += 1
        if tag in _BLOCKS:
            self._text.append(" ")

    def handle_endtag(self, tag):
        if tag in _BLOCKS:
            self._text.append(" ")
        if tag == "div":
            self._cell = None
        if self._open and self._open[-1][0] == tag:
            self._open.pop()
        if tag in ("style", "title"):
            self._hidden -= 1

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.text += data
        for _, into, i in self._open:
            into[i] += data
        if not self._hidden:
            self._text.append(data)

    def _capture(self, tag: str, into: list) -> None:
        into.append("")
        self._open.append((tag, into, len(into) - 1))

    @property
    def text(self) -> str:
        """The visible text with runs of white space made one space."""
        return " ".join("".join(self._text).split())

    def grid(self, name: str) -> Grid:
        (g,) = [g for g in self.grids if g.name == name]
        return g

    def table(self, first_header: str) -> list[list[str]]:
        """The rows (cell texts, stripped) of the table whose header row starts with first_header."""
        (t,) = [t for t in self.tables if t and t[0] and t[0][0].strip() == first_header]
        return [[c.strip() for c in row] for row in t[1:]]


# -- plain data -----------------------------------------------------------------------------------

S, M, U = Verdict.SAFE, Verdict.MINE, Verdict.UNKNOWN


def result(solver: str, answers: dict[int, tuple[Verdict, Fraction | float]], mode: Mode = Mode.LOCAL,
           stderr: float | None = None) -> SolverResult:
    return SolverResult(solver, mode, consistent=True,
                        cells=tuple(CellAnswer(c, v, p, stderr) for c, (v, p) in sorted(answers.items())))


ORIGINAL = "5x2\nHHHHH\n12210\n"  # the only layout: mines at r0c1 and r0c2
SHRUNK = "3x2\nHHH\n121\n"  # 1-2-1: mines at r0c0 and r0c2, r0c1 safe
RECIPE = Recipe("reveal", (("height", 2), ("width", 5)), 4242)
STATS = {"calls": 21, "seconds": 0.5, "cells_before": 10, "cells_after": 6, "covered_before": 5,
         "covered_after": 3, "successes": {"crop right": 1, "hide total": 2}, "cut_short": False}


def verdict_page(shrunk: bool = True) -> FindingPage:
    """dpll@seed calls both mines of a 1-2-1 'unknown'; exact knows them."""
    f = Finding(Kind.VERDICT, "dpll@seed", "exact", Mode.LOCAL, (0, 2), "unknown, unknown", "mine, mine",
                SHRUNK if shrunk else ORIGINAL, recipe=RECIPE, index=7,
                extra={"original_board": ORIGINAL} if shrunk else {})
    small = (result("dpll@seed", {0: (U, Fraction(1, 2)), 1: (S, Fraction(0)), 2: (U, Fraction(1, 2))}),
             result("exact", {0: (M, Fraction(1)), 1: (S, Fraction(0)), 2: (M, Fraction(1))}))
    big = (result("dpll@seed", {c: (U, Fraction(2, 5)) for c in range(5)}),
           result("exact", {0: (S, 0), 1: (M, 1), 2: (M, 1), 3: (S, 0), 4: (S, 0)}))
    if not shrunk:
        return FindingPage(f, 3, parse_board(ORIGINAL), None, big)
    return FindingPage(f, 3, parse_board(ORIGINAL), parse_board(SHRUNK), big, small, STATS)


# -- finding pages --------------------------------------------------------------------------------

def test_finding_page_draws_shrunk_and_original_boards_as_full_grids():
    page = Page(render_finding(verdict_page()))
    drawn = [(g.name, g.width, len(g.cells)) for g in page.grids]
    assert drawn == [("shrunk-1", 3, 6), ("shrunk-2", 3, 6), ("original-1", 5, 10), ("original-2", 5, 10)]
    # each side's answers drawn on the board; no bare copy of it beside them


def test_a_board_without_answers_to_draw_is_drawn_bare():
    f = Finding(Kind.CRASH, "dpll@seed", "exact", Mode.LOCAL, (), "RecursionError", "an answer", ORIGINAL)
    page = Page(render_finding(FindingPage(f, 0, parse_board(ORIGINAL))))
    assert [(g.name, len(g.cells)) for g in page.grids] == [("original-0", 10)]


def test_a_shrink_that_kept_most_of_the_board_draws_it_once_and_says_so():
    f = Finding(Kind.VERDICT, "dpll@seed", "exact", Mode.LOCAL, (0,), "safe", "unknown", "5x2\nHHHHH\n12210\n")
    big = parse_board("6x2\nHHHHHH\n122100\n")
    page = Page(render_finding(FindingPage(f, 0, big, parse_board(f.board), (), (), STATS)))
    assert [g.name for g in page.grids] == ["shrunk-0"]
    assert "Shrinking took the original 6x2 board only to 5x2" in page.text


def test_finding_page_highlights_exactly_the_findings_cells_on_the_board_they_name():
    page = Page(render_finding(verdict_page()))
    assert [g.bad for g in page.grids] == [{0, 2}, {0, 2}, set(), set()]


def test_unshrunk_finding_highlights_its_cells_on_the_original_board():
    page = Page(render_finding(verdict_page(shrunk=False)))
    assert [g.name for g in page.grids] == ["original-1", "original-2"]
    assert all(g.bad == {0, 2} for g in page.grids)


def test_finding_page_shows_each_solvers_verdict_per_cell():
    page = Page(render_finding(verdict_page()))
    assert page.grid("shrunk-1").row(0) == [("unknown", "50"), ("safe", "S"), ("unknown", "50")]
    assert page.grid("shrunk-2").row(0) == [("mine", "*"), ("safe", "S"), ("mine", "*")]
    assert page.grid("shrunk-2").row(1) == [("d1 open", "1"), ("d2 open", "2"), ("d1 open", "1")]
    assert page.grid("original-2").row(0) == [("safe", "S"), ("mine", "*"), ("mine", "*"), ("safe", "S"),
                                              ("safe", "S")]
    assert "dpll@seed says unknown, unknown; exact says mine, mine" in page.text


def test_finding_page_gives_board_texts_to_copy_and_the_one_line_replay():
    page = Page(render_finding(verdict_page()))
    assert page.textareas == [SHRUNK, ORIGINAL]
    assert page.pres == ["minecheck check 3x2/HHH/121 --solvers dpll@seed --mode local --references exact"]


def test_finding_page_names_generator_seed_board_index_and_shrink_statistics():
    text = Page(render_finding(verdict_page())).text
    assert "generator reveal height=2 width=5 seed=4242" in text
    assert "board index 7" in text
    assert "21 calls, 0.5 s, 10 → 6 cells (5 → 3 covered); passes that helped: crop right x1, hide total x2" in text


def test_verdict_finding_page_has_no_heat_map():
    assert "hsl(" not in render_finding(verdict_page())


def test_probability_finding_page_is_a_heat_map_with_the_probability_in_each_title():
    # a lone 1 in the middle: exact gives each of the 8 cells 1/8; a sampler estimates 0.2
    board = "3x3\nHHH\nH1H\nHHH\n"
    covered = [0, 1, 2, 3, 5, 6, 7, 8]
    f = Finding(Kind.PROBABILITY, "gibbs@seed", "exact", Mode.LOCAL, tuple(covered), "0.2 each", "1/8 each", board)
    sampler = result("gibbs@seed", {c: (U, 0.2) for c in covered}, stderr=0.01)
    exact = result("exact", {c: (U, Fraction(1, 8)) for c in covered})
    page = Page(render_finding(FindingPage(f, 0, parse_board(board), None, (sampler, exact))))
    for name, hue, p in (("original-1", 96, "p=0.2000 ± 0.0100"), ("original-2", 105, "p=1/8")):
        heat = [c for c in page.grid(name).cells if "open" not in c.classes]
        assert len(heat) == 8
        assert all(c.style == f"background: hsl({hue}, 70%, 82%)" for c in heat), name
        assert all(p in c.title for c in heat), name
    assert page.grid("original-2").row(0) == [("unknown", "12")] * 3  # round(12.5) == 12: banker's rounding


def test_heat_runs_from_green_for_safe_to_red_for_a_mine():
    board = "3x2\nHHH\n121\n"
    f = Finding(Kind.PROBABILITY, "dpll@seed", "exact", Mode.LOCAL, (0,), "0.5", "1", board)
    exact = result("exact", {0: (M, Fraction(1)), 1: (S, Fraction(0)), 2: (M, Fraction(1))})
    page = Page(render_finding(FindingPage(f, 0, parse_board(board), None, (exact,))))
    assert [c.style for c in page.grid("original-2").cells[:3]] == [
        "background: hsl(0, 70%, 82%)", "background: hsl(120, 70%, 82%)", "background: hsl(0, 70%, 82%)"]


# -- index and JUnit ------------------------------------------------------------------------------

def finding(kind: Kind, subject: str, index: int, mode: Mode = Mode.LOCAL) -> Finding:
    return Finding(kind, subject, "exact", mode, (0,), "unknown", "mine", SHRUNK, index=index)


def summary(findings: tuple[Finding, ...], **changes) -> CampaignSummary:
    base = dict(seed=11, subjects=("dpll@seed", "gibbs@seed"), references=("exact", "cbc"), generator="reveal",
                boards=10, seconds=4.0, solver_seconds={"exact": 0.1, "dpll@seed": 2.5}, findings=findings,
                shrunk_boards={0: SHRUNK})
    return CampaignSummary(**{**base, **changes})


THREE = (finding(Kind.VERDICT, "dpll@seed", 0), finding(Kind.PROBABILITY, "gibbs@seed", 3, Mode.GLOBAL),
         finding(Kind.VERDICT, "dpll@seed", 5))


def test_index_gives_totals_boards_findings_seconds_and_rate():
    text = Page(render_index(summary(THREE))).text
    assert "10 boards, 3 findings, 4.0 s (2.50 boards/s)" in text
    assert "Solvers under test: dpll@seed, gibbs@seed. References: exact, cbc. Generator: reveal." in text


def test_index_groups_findings_by_signature_most_frequent_first():
    rows = Page(render_index(summary(THREE))).table("kind")
    assert [row[:5] for row in rows] == [["verdict", "dpll@seed", "exact", "local", "2"],
                                         ["probability", "gibbs@seed", "exact", "global", "1"]]
    assert rows[0][5] == SHRUNK.strip() and rows[1][5] == "(no board)"
    assert rows[0][6].split() == ["#0", "#2"] and rows[1][6].split() == ["#1"]


def test_index_lists_every_solver_with_its_findings_and_time_those_without_findings_too():
    rows = Page(render_index(summary(THREE, subjects=("dpll@seed", "gibbs@seed", "ilp@fixed")))).table("solver")
    assert rows == [["dpll@seed", "under test", "2", "", "2.5", "250"],
                    ["gibbs@seed", "under test", "1", "", "–", "–"],
                    ["ilp@fixed", "under test", "none", "", "–", "–"], ["exact", "reference", "0", "", "0.1", "10"],
                    ["cbc", "reference", "0", "", "–", "–"]]


def test_index_links_each_shrunk_board_to_its_page_and_explains_kinds_and_board_text():
    page = Page(render_index(summary(THREE)))
    html = render_index(summary(THREE))
    assert f'<a class="board" href="{page_name(0)}"' in html
    assert "m a covered cell that is a mine in the hidden truth" in page.text
    assert "consistency one side calls the board consistent, the other inconsistent" in page.text
    assert "reference two references disagree: minecheck itself is wrong somewhere" in page.text


def test_index_links_every_finding_page_even_past_the_per_group_limit():
    many = tuple(finding(Kind.VERDICT, "dpll@seed", i) for i in range(25))
    page = Page(render_index(summary(many)))
    assert {page_name(n) for n in range(25)} <= set(page.links)
    assert "… and 5 more" in page.text


def test_index_says_so_when_there_are_no_findings():
    assert "No findings: every solver agreed with the references." in Page(render_index(summary(()))).text


def test_junit_has_one_testcase_per_board_and_a_failure_per_finding():
    boards = [{"index": i, "generator": f"reveal seed={i}", "seconds": 0.25} for i in range(6)]
    suite = ET.fromstring(junit_xml(boards, list(THREE)))
    cases = suite.findall("testcase")
    assert suite.get("tests") == "6" and suite.get("failures") == "3"
    assert [c.get("name") for c in cases] == [f"board {i}: reveal seed={i}" for i in range(6)]
    assert [len(c.findall("failure")) for c in cases] == [1, 0, 0, 1, 0, 1]
    assert cases[3].find("failure").get("type") == "probability"


# -- escaping ---------------------------------------------------------------------------------------

EVIL = '<script>alert(1)</script> "><img src=x onerror=alert(1)> & more'


def assert_inert(markup: str) -> None:
    """No markup from the evil text survives, yet the text itself is shown."""
    lowered = markup.lower()
    assert "<script" not in lowered and "<img" not in lowered
    assert "&amp; more" in markup
    assert EVIL in html.unescape(markup)


def test_every_text_on_a_finding_page_is_escaped():
    f = Finding(Kind.VERDICT, EVIL, "exact", Mode.LOCAL, (0,), EVIL, EVIL, EVIL, detail=EVIL,
                recipe=Recipe(EVIL, (("level", EVIL),), 1), index=0, extra={"original_board": EVIL})
    board = parse_board(SHRUNK)
    evil_result = result(EVIL, {0: (U, 0.5)})
    markup = render_finding(FindingPage(f, 0, board, board, (evil_result,), (evil_result,), STATS))
    assert_inert(markup)
    assert EVIL in Page(markup).text and Page(markup).textareas == [EVIL, EVIL]


def test_every_text_on_the_index_is_escaped():
    f = Finding(Kind.VERDICT, EVIL, EVIL, Mode.LOCAL, (0,), EVIL, EVIL, EVIL, detail=EVIL, index=0)
    assert_inert(render_index(summary((f,), subjects=(EVIL,), references=(EVIL,), generator=EVIL,
                                      solver_seconds={EVIL: 1.0}, shrunk_boards={0: EVIL})))


def test_junit_xml_stays_well_formed_around_any_text():
    f = Finding(Kind.VERDICT, EVIL, EVIL, Mode.LOCAL, (0,), EVIL, EVIL, EVIL, index=0)
    suite = ET.fromstring(junit_xml([{"index": 0, "generator": EVIL, "seconds": 0.1}], [f]))
    (case,) = suite.findall("testcase")
    assert case.get("name") == f"board 0: {EVIL}"
    assert EVIL in case.find("failure").get("message") and EVIL in case.find("failure").text


def test_published_campaign_with_hostile_names_renders_inert(tmp_path):
    """Directory, seed, generator and finding text all come from files a campaign can hold."""
    out = tmp_path / '"><img src=x onerror=alert(1)> & <b>'
    out.mkdir()
    config = {"seed": EVIL, "subjects": ["simplex@seed", EVIL], "references": [EVIL], "generator": EVIL,
              "budget": {"cpu": 1.0}}
    (out / "campaign.json").write_text(json.dumps(config))
    (out / "boards.jsonl").write_text(json.dumps({"index": 0, "generator": EVIL, "seconds": 0.1}) + "\n")
    # a finding on a random LP has no board to shrink or rerun: publish only draws it
    lp = Finding(Kind.LP, "simplex@seed", EVIL, Mode.LOCAL, (), EVIL, EVIL, EVIL, detail=EVIL, index=0)
    (out / "findings.jsonl").write_text(lp.to_json() + "\n")
    publish(out)
    assert_inert((out / "index.html").read_text())
    assert_inert((out / page_name(0)).read_text())
    assert ET.parse(out / "junit.xml").getroot().find("testcase/failure").get("type") == "lp"


# -- a real published campaign ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    """dpll@seed on three small boards: verdict, count and probability findings, shrunk and drawn."""
    out = tmp_path_factory.mktemp("campaign")
    code = main(["fuzz", "--seed", "7", "--boards", "3", "--out", str(out), "--solvers", "dpll@seed",
                 "--generator", "reveal", "--timeout", "60", "--jobs", "1", "--no-progress"])
    kinds = {json.loads(line)["kind"] for line in (out / "findings.jsonl").read_text().splitlines()}
    assert code == 1 and {"verdict", "count", "probability"} <= kinds, "the campaign should find dpll@seed's defects"
    return out


def finding_pages(out: Path) -> list[Path]:
    return sorted(out.glob("finding-*.html"))


def test_campaign_has_a_page_per_finding_and_the_index_links_them_all(campaign):
    findings = (campaign / "findings.jsonl").read_text().splitlines()
    pages = finding_pages(campaign)
    assert [p.name for p in pages] == [page_name(n) for n in range(len(findings))]
    assert {p.name for p in pages} <= set(Page((campaign / "index.html").read_text()).links)


def test_every_link_in_the_report_points_at_a_file_on_disk(campaign):
    for path in [campaign / "index.html", *finding_pages(campaign)]:
        links = Page(path.read_text()).links
        assert links, path.name
        assert [href for href in links if not (campaign / href).is_file()] == [], path.name


def test_pages_load_nothing_from_outside(campaign):
    for path in [campaign / "index.html", *finding_pages(campaign)]:
        markup = path.read_text()
        for needle in ("http://", "https://", "src=", "<link", "<script", "@import", "url("):
            assert needle not in markup, f"{path.name} has {needle}"


def test_shrunk_pages_highlight_cells_and_probability_pages_draw_heat(campaign):
    by_kind: dict[str, list[Page]] = {}
    for path in finding_pages(campaign):
        page = Page(path.read_text())
        by_kind.setdefault(page.headings[0].split()[0], []).append(page)  # "KIND SOLVER vs REFERENCE"
    assert any(g.bad for p in by_kind["verdict"] for g in p.grids)
    assert any("background: hsl(" in c.style for p in by_kind["probability"] for g in p.grids for c in g.cells)


def test_replay_command_on_each_page_reproduces_its_finding(campaign, capsys):
    for path in finding_pages(campaign):
        page = Page(path.read_text())
        kind, subject = page.headings[0].split()[:2]
        (command,) = page.pres
        argv = shlex.split(command)
        assert argv[:2] == ["minecheck", "check"]
        capsys.readouterr()
        code = main(argv[1:] + ["--json"])
        replayed = json.loads(capsys.readouterr().out)["findings"]
        assert code == 1, f"{path.name}: {command} found nothing"
        found = {(f["kind"], f["subject"], frozenset(f["cells"])) for f in replayed}
        assert (kind, subject, frozenset(page.grids[0].bad)) in found, f"{path.name}: {command}"


def test_campaign_junit_has_a_testcase_per_board_and_a_failure_per_finding(campaign):
    suite = ET.parse(campaign / "junit.xml").getroot()
    boards = (campaign / "boards.jsonl").read_text().splitlines()
    findings = (campaign / "findings.jsonl").read_text().splitlines()
    assert len(suite.findall("testcase")) == len(boards) == 3
    assert len(suite.findall("testcase/failure")) == len(findings)


def without_timing(index: str) -> str:
    return re.sub(r"<h2>Time per solver</h2>.*?</table>", "", index, flags=re.S)


def test_publishing_again_gives_identical_pages(campaign, tmp_path):
    again = tmp_path / "again"
    shutil.copytree(campaign, again)
    publish(again)
    for path in finding_pages(campaign):
        assert (again / path.name).read_bytes() == path.read_bytes(), path.name
    assert without_timing((again / "index.html").read_text()) == without_timing((campaign / "index.html").read_text())


def test_finding_page_says_what_a_swarm_or_small_board_has():
    """The page says what the campaign says its board has (the report never builds a board to find out)."""
    from dataclasses import replace as changed

    from minecheck.boards.generators import features
    from minecheck.boards.small import small_label, small_recipe
    from minecheck.boards.swarm import swarm_features

    swarm = Recipe("swarm", (), 99)
    page = verdict_page()
    text = Page(render_finding(changed(page, features=features(swarm)))).text
    assert "the board has " + ", ".join(swarm_features(swarm)) in text
    text = Page(render_finding(changed(page, features=features(small_recipe(4, 900))))).text
    assert f"the board has board 900 of small:4, {small_label(4, 900)}" in text
    assert "the board has" not in Page(render_finding(page)).text  # a reveal board: nothing to say


# -- one finding, one set of values, each labelled; text cut with a mark (issue 40) -----------------------

def test_a_shrunk_findings_page_labels_its_values_as_found_and_as_shrunk():
    page = verdict_page()
    found = Finding(**{**page.finding.__dict__, "subject_says": "unknown x5", "reference_says": "safe, mine, mine",
                       "extra": {**page.finding.extra, "found_says": ["unknown x5", "safe, mine, mine"]}})
    text = Page(render_finding(FindingPage(found, 3, page.original, page.shrunk, page.original_results,
                                           page.shrunk_results, page.stats))).text
    assert "as found: dpll@seed says unknown x5; exact says safe, mine, mine" in text
    assert "as shrunk: dpll@seed says unknown x5; exact says safe, mine, mine" in text


def test_a_shrink_cut_short_is_marked_on_the_page_and_counted_apart_on_the_index():
    page = verdict_page()
    cut = FindingPage(page.finding, 3, page.original, page.shrunk, page.original_results, page.shrunk_results,
                      {**page.stats, "cut_short": True})
    text = Page(render_finding(cut)).text
    assert "Smallest board reached: its shrink was cut short" in text and "as shrunk (cut short)" in text
    index = Page(render_index(summary(THREE, shrinking=(1, 2), cut_short=frozenset({0})))).text
    assert "0 of the 2 findings drawn in full are shrunk, and 1 more were cut short" in index
    assert "shrink cut short" in index


def test_the_legend_names_only_what_the_cells_show_each_label_beside_its_swatch():
    page = Page(render_finding(verdict_page()))
    legend = re.search(r'<p class="legend">(.*?)</p>', render_finding(verdict_page()), re.S).group(1)
    keys = re.findall(r'<span class="key"><span class="cell ([a-z ]+)">([^<]*)</span> ([^<]+)</span>', legend)
    assert keys and all(words.strip() for _, _, words in keys)
    shown = {text for g in page.grids for row in range(len(g.cells) // g.width) for _, text in g.row(row)}
    assert "%" not in {swatch for _, swatch, _ in keys}
    assert ("?" in shown) == any(swatch == "?" for _, swatch, _ in keys)


def test_a_report_without_findings_says_so_in_a_sentence_and_draws_no_findings_table():
    markup = render_index(summary((), shrunk_boards={}))
    assert 'id="all-findings"' not in markup
    assert "No findings: every solver agreed with the references on every board." in Page(markup).text


def test_long_answers_are_cut_at_a_word_with_what_is_left_told():
    long = "needs 2 more mines but has only 1 covered neighbour left, " * 3
    f = Finding(Kind.CRASH, "dpll@seed", "exact", Mode.LOCAL, (0,), long, "mine, " * 40, SHRUNK, index=0)
    (row,) = Page(render_index(summary((f,)))).table("#")
    says, ref_says = row[-2], row[-1]
    for cut, whole in ((says, long), (ref_says, "mine, " * 40)):
        head, more = re.fullmatch(r"(.*) \.\.\. (\d+) more characters", cut).groups()
        assert whole.startswith(head) and whole[len(head)] in " ," and not head.endswith(",")
        assert int(more) == len(whole) - len(head)
