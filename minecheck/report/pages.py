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
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from minecheck.certify.certificates import in_order
from minecheck.check.findings import WHOLE_BOARD, Finding, Kind
from minecheck.check.numerals import kept_because
from minecheck.check.shrink import has_board
from minecheck.model.answers import CellAnswer, SolverResult, Verdict
from minecheck.model.board import COVERED, FLAG, Board, label
from minecheck.report.plots import bar_chart, stacked_bars
from minecheck.report.textview import clipped, printable, rounded

_ENV = Environment(loader=PackageLoader("minecheck.report", "templates"), autoescape=select_autoescape(["j2", "html"]),
                   trim_blocks=True, lstrip_blocks=True,
                   finalize=lambda v: v if isinstance(v, Markup) or not isinstance(v, str) else printable(v))
_ENV.filters["rounded"] = rounded  # seconds for people: two significant digits


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
    back: tuple[str, str] | None = ("index.html", "campaign index")  # (href, words) of the page's index, if any
    notes: tuple[tuple[str, str], ...] = ()  # (what, words): a decision's move on each board and why it was made
    commands: tuple[tuple[str, str], ...] = ()  # (what it shows, command): replays beside the finding's own
    features: tuple[str, ...] = ()  # what the board's recipe made, in words (the campaign says; a page cannot know)
    names: dict[str, str] = field(default_factory=dict)  # solver -> how a command line makes it again (replays)


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
    in_progress: str | None = None  # the phase of a campaign still running ("boards 40/100, shrinking 3 of 7")
    shrinking: tuple[int, int] = (0, 0)  # findings drawn shrunk: done, wanted
    not_judged: dict[str, int] = field(default_factory=dict)  # solver -> boards it was not judged on, and why not
    bugs: tuple[dict, ...] = ()  # the bugs (campaigns.bugs.Bug.to_json), first finding first
    cut_short: frozenset[int] = frozenset()  # findings whose shrink was cut short by its budget (by number)


def page_name(number: int) -> str:
    return f"finding-{number:05d}.html"


@cache
def versions() -> str:
    """The versions a page names (read once a process: importlib.metadata reads the disk each time)."""
    names = ("minecheck", "pulp", "python-sat", "numpy", "scipy")
    out = []
    for name in names:
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    return ", ".join(out)


def replay_command(f: Finding, board_text: str, names: dict[str, str] | None = None) -> str:
    """One line that replays the finding as printed, from the folder its run ran in: the board inline, its
    solver (by ``names``: how a command line makes it again, ``NAME={...}`` for a program defined inline), the
    reference it was judged by, its mode."""
    names = names or {}
    lines = [ln for ln in board_text.splitlines() if ln and not ln.startswith("#")]
    inline = "/".join(lines)
    if f.kind is Kind.DECISION:  # a move in a game: the player decides again, from its stored state
        state = shlex.quote(json.dumps(f.extra.get("state")))
        judged = " --judge optimal" if f.detail == "suboptimal" else ""
        player = shlex.quote(names.get(f.subject, f.subject))
        return f"minecheck decide {shlex.quote(inline)} --player {player} --state {state}{judged}"
    if is_general_lp(f):  # an LP, not a board: check reads it with --lp, and CBC is its one reference
        return f"minecheck check {shlex.quote(inline)} --lp --solvers {shlex.quote(f.subject)}"
    if f.kind is Kind.REFERENCE:
        solver, refs = f.reference, names.get(f.subject, f.subject)
    else:
        solver, refs = names.get(f.subject, f.subject), names.get(f.reference, f.reference)
    return (f"minecheck check {shlex.quote(inline)} --solvers {shlex.quote(solver)} --mode {f.mode.value} "
            f"--references {shlex.quote(refs)}")


# -- grids ---------------------------------------------------------------------------------------

EXACT_DIGITS = 60  # a probability whose fraction is longer is shown as a float and its length (a big board's
# off-frontier cells share one fraction of thousands of digits: printing it in each cell's title made a page
# of 200x200 cells take 50 s and 90 MB)


def exact_text(p: Fraction) -> str:
    """A probability as its exact fraction, or, past EXACT_DIGITS digits, as a float and the fraction's length
    (no str() of a long int, which is quadratic, nor a hash of the fraction, a modular inverse)."""
    digits = int(max(p.numerator.bit_length(), p.denominator.bit_length()) * 0.30103) + 1  # log10(2)
    if digits <= EXACT_DIGITS:
        return str(p)
    return f"{float(p):.17g} (exact: a fraction of about {digits} digits)"


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
            title += f" p={exact_text(p)}" if isinstance(p, Fraction) else f" p={q:.4f}"
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
    cells = [_cell_view(b, cell, panel.result, panel.bad, panel.heat) for cell in range(b.size)]
    keys = {key for c in cells for key, shown in (("safe", c["text"] == "S"), ("mine", c["text"] == "*"),
                                                   ("undetermined", c["text"] == "?"),
                                                   ("percent", c["cls"].startswith("unknown") and c["text"].isdigit()),
                                                   ("bad", "bad" in c["cls"]), ("flag", c["text"] == "F")) if shown}
    return {"caption": panel.caption, "width": b.width, "html": cells_html(cells), "name": name, "keys": keys}


def cells_html(cells) -> Markup:
    """The cells of a grid as the grid macro draws them, built in one join: a million cells through the
    template's loop took minutes (four filtered, escaped values each)."""
    parts = []
    add = parts.append
    seen: dict[str, str] = {}  # classes, styles and texts repeat: each escaped once
    for c in cells:
        cls, text, style = c["cls"], c["text"], c["style"]
        for value in (cls, text, style):
            if value not in seen:
                seen[value] = escape(printable(value))
        add(f'<div class="cell {seen[cls]}" title="{escape(printable(c["title"]))}"'
            + (f' style="{seen[style]}">' if style else ">") + f"{seen[text]}</div>")
    return Markup("".join(parts))


def _panels(f: Finding, board: Board, results: tuple[SolverResult, ...], bad: frozenset[int], where: str) -> list:
    """Each side's answers drawn on the board; the bare board only when no answer is there to draw (every
    answer panel draws the board too: a bare one beside them showed the same board three times)."""
    by_name = {r.solver: r for r in results}
    heat = f.kind in (Kind.PROBABILITY, Kind.DECISION)
    panels = [(i, Panel(f"{where}: {name}" + (" (probability %)" if heat else ""), board, by_name[name], bad, heat))
              for i, name in ((1, f.subject), (2, f.reference)) if name in by_name]
    panels = panels or [(0, Panel(f"{where}: the board", board, None, bad))]
    return [_grid_view(p, f"{where}-{i}") for i, p in panels]  # named by role: -0 the bare board, -1 the solver


def is_general_lp(f: Finding) -> bool:
    """A finding on a general LP (its ``board`` is the LP's text: a random one, or one given by hand to
    ``check --lp``), not on a board or its relaxations."""
    return not has_board(f) and f.detail != WHOLE_BOARD


def _origin(f: Finding) -> str:
    """Where the finding's board came from, in words."""
    if is_general_lp(f):
        if not f.detail.startswith("random LP"):
            return "an LP given by hand"
        return (f"a random LP ({f.detail.removeprefix('random LP ')}), drawn beside board {f.index} of the campaign"
                if f.index is not None else f"a random LP ({f.detail.removeprefix('random LP ')})")
    if f.recipe is not None:
        return f.recipe.describe()
    if f.kind is Kind.DECISION and "seed" in f.extra:
        turn = f.extra.get("turn")
        return (f"game {f.index} of play seed {f.extra['seed']} ({f.extra.get('size', '?')}, first click "
                f"{f.extra.get('first_click', '?')})" + (f", decision {turn + 1}" if isinstance(turn, int) else ""))
    return "a board given by hand"


PROVED = {"proved": "proved", "wrong": "proved WRONG", "unproved": "NOT proved"}


def claims_line(cert: dict) -> str:
    """What the certificates do with each kind of claim of the answer, in a line: "proved" only of what is."""
    ref, checker = cert["reference"], cert["checker"]
    claims = cert.get("claims")
    if claims is None:  # a summary written before claims were told apart: its count never counted as proved
        claims = {"verdicts and consistency": "wrong" if cert["wrong"] else "proved" if cert["certified"]
                  else "unproved"} | ({"count": "proved" if cert.get("count_proved") else "unproved"}
                                      if cert.get("count") else {})
    claims = {k: claims[k] for k in in_order(claims)}
    if not cert["checked"]:
        return f"{ref}'s certificates on this board do not hold: the checker ({checker}) refused one."
    if all(state == "proved" for state in claims.values()):
        return (f"{ref}'s answer on this board is certified: every claim proved ({', '.join(claims)}), and the "
                f"proofs checked again by {checker}.")
    said = ", ".join(f"{kind} {PROVED.get(state, state)}" for kind, state in claims.items())
    return (f"{ref}'s answer on this board: {said}" + (f" ({cert['declined']})" if cert.get("declined") else "")
            + f"; the proofs checked again by {checker}.")


def _certificate(f: Finding, board: Board | None) -> tuple[list[str], list]:
    """The reference's certificate, in words (one line per claim of the finding's cells) and as layouts drawn
    on the board (one per side a layout proves possible, at most three), from ``f.extra["certificate"]``."""
    cert = f.extra.get("certificate")
    if not cert or board is None:
        return [], []
    ref = cert["reference"]
    lines, panels = [claims_line(cert)] + ([cert["count"]] if cert.get("count") else []), []
    if cert.get("consistent") is False:
        lines.append(f"No layout keeps every rule: a refutation checked by {cert['checker']}"
                     + (f"; the core of rules that cannot all hold: {len(cert['core'])}" if cert.get("core") else ""))
    for entry in cert["cells"]:
        where = label(board, entry["cell"])
        for side in ("mine", "safe"):
            evidence = entry.get(side)
            if evidence is None:
                lines.append(f"{where} {side}: not settled")
            elif "refutation_steps" in evidence:
                steps = evidence["refutation_steps"]
                lines.append(f"no layout has {where} {'a mine' if side == 'mine' else 'safe'}: "
                             + (f"a proof of {steps} step{'s' * (steps != 1)}" if steps else
                                "no steps: unit propagation alone") + f", checked by {cert['checker']}")
            else:
                lines.append(f"a layout in which {where} is {'a mine' if side == 'mine' else 'safe'}"
                             + (" (drawn below)" if evidence.get("witness") is not None and len(panels) < 3 else ""))
                if evidence.get("witness") is not None and len(panels) < 3:
                    mines = set(evidence["witness"])
                    shown = SolverResult(ref, f.mode, consistent=True, cells=tuple(
                        CellAnswer(c, Verdict.MINE if c in mines else Verdict.SAFE) for c in board.covered))
                    panel = Panel(f"a layout: {where} {'a mine' if side == 'mine' else 'safe'}", board, shown)
                    panels.append(_grid_view(panel, f"layout-{len(panels) + 1}"))
    return lines, panels


def _notes(page: FindingPage) -> list[tuple[str, str]]:
    """The page's notes, and why a shrunk board stays big when its numeric edge needs the size."""
    kept = kept_because(page.finding) if page.shrunk is not None else ""
    apart = page.finding.extra.get("not_comparable", "")  # cells it named that nothing was compared with
    return [*page.notes, *([("why the board stays big", kept)] if kept else []),
            *([("not comparable", apart)] if apart else [])]


OUTLINED = {Kind.LP: "the component whose LP relaxation disagrees"}  # what an outlined cell is, by kind


def render_finding(page: FindingPage) -> str:
    f = page.finding
    sections = []
    cut_short = bool(page.stats and page.stats.get("cut_short"))
    if page.shrunk is not None:
        sections.append({"title": "Smallest board reached: its shrink was cut short" if cut_short else
                         "Smallest board that still shows it",
                         "panels": _panels(f, page.shrunk, page.shrunk_results, frozenset(f.cells), "shrunk")})
    hardly = page.shrunk is not None and page.original is not None and 4 * page.shrunk.size > 3 * page.original.size
    if page.original is not None and not hardly:
        bad = frozenset() if page.shrunk is not None else frozenset(f.cells)
        sections.append({"title": "Original board", "panels": _panels(f, page.original, page.original_results, bad,
                                                                        "original")})
    elif hardly:  # the same board again, a row or two larger: its text is below, and one drawing is enough
        sections[-1]["note"] = (f"Shrinking took the original {page.original.width}x{page.original.height} board only "
                                f"to {page.shrunk.width}x{page.shrunk.height}; its text is at the end of the page.")
    board_text = f.board
    origin = _origin(f)
    has = ", ".join(page.features)
    stats = dict(page.stats) if page.stats else None
    if stats and stats.get("successes"):
        stats["passes"] = ", ".join(f"{k} x{v}" for k, v in stats["successes"].items())
    # timings are those the campaign recorded for the board, not a rerun's: the page must not change
    timings = page.timings
    drawn = page.shrunk or page.original
    cells = ", ".join(label(drawn, c) for c in f.cells[:20]) if drawn is not None else ""
    original_text = page.finding.extra.get("original_board", "") if page.shrunk is not None else ""
    certificate, layouts = _certificate(f, drawn)
    if layouts:
        sections.append({"title": "Layouts that prove it", "panels": layouts,
                         "note": "Each keeps every digit, flag and the total; mines drawn *, the rest safe."})
    said = _said(page, f)
    legend = set().union(*(p["keys"] for sec in sections for p in sec["panels"]))  # only what the cells show
    return render_template(
        "finding.html.j2", title=f"minecheck: {f.kind.value} {f.subject}", f=f, sections=sections, cells=cells,
        said=said, legend=legend, outlined=OUTLINED.get(f.kind, "disagreement"), cut_short=cut_short,
        shrunk=page.shrunk is not None, back=page.back,
        board_text=board_text, board_rows=max(3, board_text.count("\n") + 1),
        replay=replay_command(f, board_text, page.names),
        notes=_notes(page), commands=page.commands, certificate=certificate,
        origin=origin, features=has, index=f.index if f.index is not None else "-", stats=stats, timings=timings,
        lp=is_general_lp(f),
        versions=versions(), original_text=original_text, original_rows=max(3, original_text.count("\n") + 1))


def _said(page: FindingPage, f: Finding) -> list[tuple[str, str, str]]:
    """What each side says, labelled: on the board as found, and on the shrunk board when there is one (the
    index shows the values as found; a page with one unlabelled pair read as a second finding)."""
    if page.shrunk is None:
        return [("as found", f.subject_says, f.reference_says)]
    found = f.extra.get("found_says")
    shrunk = ("as shrunk (cut short)" if page.stats and page.stats.get("cut_short") else "as shrunk",
              f.subject_says, f.reference_says)
    return [("as found", found[0], found[1]), shrunk] if found else [shrunk]


# -- index and JUnit -------------------------------------------------------------------------------

KINDS = {  # what each kind of finding means, for the index's key
    Kind.CRASH: "the solver raised, or its process died (a signal, the memory limit)",
    Kind.TIMEOUT: "the solver ran past its CPU-time budget, or sat idle",
    Kind.PROTOCOL: "a program's answer broke the protocol's schema",
    Kind.CONSISTENCY: "one side calls the board consistent, the other inconsistent",
    Kind.VERDICT: "safe, mine or unknown differ on some covered cells",
    Kind.COUNT: "the number of consistent mine layouts differs",
    Kind.PROBABILITY: "mine probabilities differ (exactly, or beyond the statistical test's bound for a sampler)",
    Kind.LP: "an LP's status or optimal value differs from CBC's (the simplex solvers)",
    Kind.REFERENCE: "two references disagree: minecheck itself is wrong somewhere",
    Kind.DECISION: "a move in a game that the exact counter shows to be bad",
}


def render_index(s: CampaignSummary, per_group_links: int = 20) -> str:
    groups: dict[tuple, list[int]] = {}
    for number, f in enumerate(s.findings):
        groups.setdefault(f.signature, []).append(number)
    rows = []
    for (kind, subject, reference, mode), numbers in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first: dict[str, int] = {}  # each shrunk board, linked to the page of the first finding shrunk to it
        for n in numbers:
            if n in s.shrunk_boards:
                first.setdefault(s.shrunk_boards[n], n)
        small = [{"text": b, "href": page_name(n), "label": n, "cut_short": n in s.cut_short}
                 for b, n in sorted(first.items(), key=lambda kv: (len(kv[0]), kv[0]))]
        rows.append({"kind": kind, "subject": subject, "reference": reference, "mode": mode, "count": len(numbers),
                     "boards": small, "links": [{"href": page_name(n), "label": n} for n in numbers[:per_group_links]],
                     "more": max(0, len(numbers) - per_group_links)})
    per_solver: dict[str, int] = {}
    for f in s.findings:
        per_solver[f.subject] = per_solver.get(f.subject, 0) + 1
    names = list(dict.fromkeys([*s.subjects, *s.references, *sorted(s.solver_seconds)]))
    solvers = [{"name": n, "role": "under test" if n in s.subjects else "reference",
                "findings": per_solver.get(n, 0), "total": s.solver_seconds.get(n),
                "not_judged": s.not_judged.get(n, 0),
                "mean": 1000 * s.solver_seconds[n] / max(1, s.boards) if n in s.solver_seconds else None}
               for n in names]
    kinds = [{"kind": k.value, "words": KINDS[k]} for k in Kind if k is not Kind.DECISION]
    all_rows = [{"href": page_name(n), "label": n, "index": f.index, "kind": f.kind.value, "subject": f.subject,
                 "mode": f.mode.value, "says": clipped(f.subject_says, 80), "ref_says": clipped(f.reference_says, 80)}
                for n, f in enumerate(s.findings)]
    plots = index_plots(s)
    bugs = [{**b, "href": page_name(b["first"])} for b in s.bugs]
    return render_template(
        "index.html.j2", bugs=bugs,
        in_progress=s.in_progress, shrinking=s.shrinking, news=s.news, plots=plots,
        cut_short=len(s.cut_short),
        title=f"minecheck campaign {s.seed}", seed=s.seed, boards=s.boards,
        findings=len(s.findings),
        seconds=s.seconds, rate=s.boards / max(s.seconds, 1e-9), subjects=", ".join(s.subjects),
        references=", ".join(s.references), generator=s.generator, groups=rows, all_findings=all_rows,
        solvers=solvers, kinds=kinds)


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
            message = f"{f.subject} vs {f.reference} ({f.mode.value}): {f.subject_says[:200]}"
            failure = ET.SubElement(case, "failure", type=f.kind.value, message=printable(message))
            failure.text = printable(f"{f.subject} says: {f.subject_says}\n{f.reference} says: {f.reference_says}"
                                     f"\n\n{f.board}")
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)
