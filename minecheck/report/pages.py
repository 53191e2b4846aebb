"""HTML reports (jinja2, autoescaped, inline CSS, no script) and JUnit XML, from plain data.

The report draws boards and answers; it never runs or knows a solver.  Every string that
comes from a solver, a board or a file name goes through jinja2's autoescaping (or
ElementTree's, for XML), so no answer can inject markup.
"""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version

from jinja2 import Environment, PackageLoader, select_autoescape

from minecheck.boards.generators import features
from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import SolverResult, Verdict
from minecheck.model.board import COVERED, FLAG, Board, label
from minecheck.report.plots import bar_chart, stacked_bars

_ENV = Environment(loader=PackageLoader("minecheck.report", "templates"), autoescape=select_autoescape(["j2", "html"]),
                   trim_blocks=True, lstrip_blocks=True)


def render_template(name: str, **data) -> str:
    """One of minecheck/report/templates, filled in (every page shares base.html.j2 and its escaping)."""
    return _ENV.get_template(name).render(**data)


@dataclass(frozen=True)
class Panel:
    """One board drawn with one solver's answers (or none), some cells highlighted."""

    caption: str
    board: Board
    result: SolverResult | None = None
    bad: frozenset[int] = frozenset()
    heat: bool = False  # colour cells by probability


@dataclass(frozen=True)
class FindingPage:
    """What a finding's page shows: the finding, its boards and answers, where it came from."""

    finding: Finding
    number: int
    original: Board | None
    shrunk: Board | None = None
    original_results: tuple[SolverResult, ...] = ()
    shrunk_results: tuple[SolverResult, ...] = ()
    stats: dict | None = None
    timings: tuple[tuple[str, float], ...] = ()  # seconds per solver, as recorded by the campaign


@dataclass(frozen=True)
class CampaignSummary:
    seed: int
    subjects: tuple[str, ...]
    references: tuple[str, ...]
    generator: str
    boards: int
    seconds: float
    solver_seconds: dict[str, float]
    findings: tuple[Finding, ...]
    shrunk_boards: dict[int, str] = field(default_factory=dict)  # finding number -> shrunk board text
    news: list[dict] | None = None  # news.json's rows when the campaign ran against a baseline


def page_name(number: int) -> str:
    return f"finding-{number:05d}.html"


def versions() -> str:
    names = ("minecheck", "pulp", "python-sat", "numpy", "scipy")
    out = []
    for name in names:
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    return ", ".join(out)


def replay_command(f: Finding, board_text: str) -> str:
    """One line that replays the finding: the board inline, its solver, its mode."""
    lines = [ln for ln in board_text.splitlines() if ln and not ln.startswith("#")]
    inline = "/".join(lines)
    if f.kind is Kind.DECISION:  # a move in a game: the player decides again, from its stored state
        state = shlex.quote(json.dumps(f.extra.get("state")))
        return f"minecheck decide {shlex.quote(inline)} --player {shlex.quote(f.subject)} --state {state}"
    solver = f.subject if f.kind is not Kind.REFERENCE else "exact"
    refs = f" --references {f.subject}" if f.kind is Kind.REFERENCE else ""
    return f"minecheck check {shlex.quote(inline)} --solvers {shlex.quote(solver)} --mode {f.mode.value}{refs}"


# -- grids ---------------------------------------------------------------------------------------

def _cell_view(board: Board, cell: int, result: SolverResult | None, bad: frozenset[int], heat: bool) -> dict:
    value = board.cells[cell]
    title = label(board, cell)
    if value >= 0:
        return {"cls": f"open d{value}", "text": str(value) if value else "", "title": title, "style": ""}
    if value == FLAG:
        return {"cls": "flag" + (" bad" if cell in bad else ""), "text": "F", "title": title + " flag", "style": ""}
    answer = result.answer(cell) if result is not None else None
    cls, text, style = "", "", ""
    if answer is not None:
        p = answer.probability
        if heat and p is not None:
            q = float(p)
            cls, text = "unknown", f"{round(100 * q)}"
            style = f"background: hsl({round(120 * (1 - q))}, 70%, 82%)"
            title += f" p={p}" if isinstance(p, Fraction) else f" p={q:.4f}"
            if answer.stderr:
                title += f" ± {answer.stderr:.4f}"
        elif answer.verdict is Verdict.SAFE:
            cls, text = "safe", "S"
        elif answer.verdict is Verdict.MINE:
            cls, text = "mine", "*"
        elif answer.verdict is Verdict.UNKNOWN:
            cls = "unknown"
            text = f"{round(100 * float(p))}" if p is not None else "?"
        if answer.verdict is not None:
            title += f" {answer.verdict.value}"
    cls = cls or ("covered" if value == COVERED else "")  # a highlighted cell is still covered
    if cell in bad:
        cls += " bad"
    return {"cls": cls.strip(), "text": text, "title": title, "style": style}


def _grid_view(panel: Panel, name: str) -> dict:
    b = panel.board
    rows = [[_cell_view(b, b.cell(r, c), panel.result, panel.bad, panel.heat) for c in range(b.width)]
            for r in range(b.height)]
    return {"caption": panel.caption, "width": b.width, "rows": rows, "name": name}


def _panels(f: Finding, board: Board, results: tuple[SolverResult, ...], bad: frozenset[int], where: str) -> list:
    by_name = {r.solver: r for r in results}
    panels = [Panel(f"{where}: the board", board, None, bad)]
    heat = f.kind in (Kind.PROBABILITY, Kind.DECISION)
    for name in (f.subject, f.reference):
        r = by_name.get(name)
        if r is not None:
            panels.append(Panel(f"{where}: {name}" + (" (probability %)" if heat else ""), board, r, bad, heat))
    return [_grid_view(p, f"{where}-{i}") for i, p in enumerate(panels)]


def render_finding(page: FindingPage) -> str:
    f = page.finding
    sections = []
    if page.shrunk is not None:
        sections.append({"title": "Smallest board that still shows it",
                         "panels": _panels(f, page.shrunk, page.shrunk_results, frozenset(f.cells), "shrunk")})
    if page.original is not None:
        bad = frozenset() if page.shrunk is not None else frozenset(f.cells)
        sections.append({"title": "Original board", "panels": _panels(f, page.original, page.original_results, bad,
                                                                        "original")})
    board_text = f.board
    origin = f.recipe.describe() if f.recipe else "a board given by hand"
    has = ", ".join(features(f.recipe)) if f.recipe else ""
    stats = dict(page.stats) if page.stats else None
    if stats and stats.get("successes"):
        stats["passes"] = ", ".join(f"{k} x{v}" for k, v in stats["successes"].items())
    # timings are those the campaign recorded for the board, not a rerun's: the page must not change
    timings = page.timings
    drawn = page.shrunk or page.original
    cells = ", ".join(label(drawn, c) for c in f.cells[:20]) if drawn is not None else ""
    original_text = page.finding.extra.get("original_board", "") if page.shrunk is not None else ""
    return render_template(
        "finding.html.j2", title=f"minecheck: {f.kind.value} {f.subject}", f=f, sections=sections, cells=cells,
        board_text=board_text, board_rows=max(3, board_text.count("\n") + 1), replay=replay_command(f, board_text),
        origin=origin, features=has, index=f.index if f.index is not None else "-", stats=stats, timings=timings,
        versions=versions(), original_text=original_text, original_rows=max(3, original_text.count("\n") + 1))


# -- index and JUnit -------------------------------------------------------------------------------

def render_index(s: CampaignSummary, per_group_links: int = 20) -> str:
    groups: dict[tuple, list[int]] = {}
    for number, f in enumerate(s.findings):
        groups.setdefault(f.signature, []).append(number)
    rows = []
    for (kind, subject, reference, mode), numbers in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        small = sorted({s.shrunk_boards[n] for n in numbers if n in s.shrunk_boards}, key=lambda b: (len(b), b))
        rows.append({"kind": kind, "subject": subject, "reference": reference, "mode": mode, "count": len(numbers),
                     "boards": small, "links": [{"href": page_name(n), "label": n} for n in numbers[:per_group_links]],
                     "more": max(0, len(numbers) - per_group_links)})
    timing = sorted(((n, t, 1000 * t / max(1, s.boards)) for n, t in s.solver_seconds.items()), key=lambda x: -x[1])
    all_rows = [{"href": page_name(n), "label": n, "index": f.index, "kind": f.kind.value, "subject": f.subject,
                 "mode": f.mode.value, "says": f.subject_says[:80], "ref_says": f.reference_says[:80]}
                for n, f in enumerate(s.findings)]
    plots = index_plots(s)
    return render_template(
        "index.html.j2",
        news=s.news, plots=plots, title=f"minecheck campaign {s.seed}", seed=s.seed, boards=s.boards,
        findings=len(s.findings),
        seconds=s.seconds, rate=s.boards / max(s.seconds, 1e-9), subjects=", ".join(s.subjects),
        references=", ".join(s.references), generator=s.generator, groups=rows, timing=timing, all_findings=all_rows)


def index_plots(s: CampaignSummary) -> dict:
    """The index's plots (inline SVG): findings per solver and kind, and time per solver."""
    per_solver: dict[str, dict[str, int]] = {}
    for f in s.findings:
        kinds = per_solver.setdefault(f.subject, {})
        kinds[f.kind.value] = kinds.get(f.kind.value, 0) + 1
    findings = sorted(per_solver.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    times = sorted(s.solver_seconds.items(), key=lambda kv: -kv[1])
    return {"findings": stacked_bars(findings, "Findings per solver and kind") if findings else "",
            "time": bar_chart(times, "Time per solver (s, whole campaign)", " s") if times else ""}


def junit_xml(boards: list[dict], findings: list[Finding]) -> str:
    """One test case per board checked; a failure per finding on it."""
    by_index: dict[int | None, list[Finding]] = {}
    for f in findings:
        by_index.setdefault(f.index, []).append(f)
    suite = ET.Element("testsuite", name="minecheck", tests=str(len(boards)),
                       failures=str(sum(1 for b in boards if by_index.get(b["index"]))),
                       time=f"{sum(b.get('seconds', 0) for b in boards):.3f}")
    for b in sorted(boards, key=lambda b: b["index"]):
        case = ET.SubElement(suite, "testcase", classname="minecheck.fuzz",
                             name=f"board {b['index']}: {b['generator']}", time=f"{b.get('seconds', 0):.4f}")
        for f in by_index.get(b["index"], []):
            failure = ET.SubElement(case, "failure", type=f.kind.value,
                                    message=f"{f.subject} vs {f.reference} ({f.mode.value}): {f.subject_says[:200]}")
            failure.text = f"{f.subject} says: {f.subject_says}\n{f.reference} says: {f.reference_says}\n\n{f.board}"
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)
