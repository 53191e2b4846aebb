"""A campaign's report, from its folder alone: index.html, a page per finding, junit.xml.

Everything a page draws is on disk already - the findings, the answers kept for their boards
(answers.jsonl), each shrink with the answers on its shrunk board (shrunk.jsonl) - so publishing runs no
solver: it is cheap enough to be redone while the campaign runs (``Report.write``, which rewrites only
the pages that changed, and marks the index as in progress) and once more at its end.

Findings are numbered in a deterministic order (board index, then kind, solver, mode, cells), so the
same campaign gives the same report whatever order the workers finished in.  The first
``per_signature`` findings of each bug are drawn shrunk (``shrinking.representatives``), and the index
leads with the bugs (``campaigns.bugs``).
"""

from __future__ import annotations

import json
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path

from minecheck.boards.generators import features
from minecheck.campaigns.attribution import explained_by
from minecheck.campaigns.baseline import Baseline, bug_news, exception
from minecheck.campaigns.bugs import bugs
from minecheck.campaigns.fuzz import ANSWERS, stored_budget, stored_judging
from minecheck.campaigns.shrink_limits import PER_SIGNATURE, SHRINK_CAP
from minecheck.campaigns.shrinking import (
    ShrinkJob,
    keep,
    read_shrunk,
    representatives,
    run_job,
)
from minecheck.check.findings import Finding, Kind, read_findings
from minecheck.check.shrinkcache import finding_key
from minecheck.model.answers import SolverResult, result_from_json
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BoardFormatError
from minecheck.report.pages import CampaignSummary, FindingPage, junit_xml, page_name, render_finding, render_index
from minecheck.report.textview import rounded
from minecheck.running.discovery import replay_names
from minecheck.running.runfolder import summary_seconds, write_text


def report_order(f: Finding) -> tuple:
    """Where a finding stands in the report: by board, then kind, solver, mode, cells and answer."""
    return (f.index if f.index is not None else -1, f.kind.value, f.subject, f.mode.value, f.cells, f.subject_says)


def ordered(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=report_order)


def read_answers(out: Path) -> dict[int, list[dict]]:
    """The answers kept for each board with findings, by board index (a torn last line is dropped)."""
    kept: dict[int, list[dict]] = {}
    path = out / ANSWERS
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            try:
                row = json.loads(line)
                kept[int(row["index"])] = row["results"]
            except (ValueError, KeyError, TypeError):
                continue
    return kept


def _not_judged(boards: list[dict]) -> dict[str, int]:
    """Boards each solver was not judged on (an impossible board, and no consistency answer declared)."""
    counts: dict[str, int] = {}
    for b in boards:
        for name in b.get("not_judged", {}):
            counts[name] = counts.get(name, 0) + 1
    return counts


def _board_or_none(text: str):
    """The board a finding's text holds, or None (a general LP's text is no board)."""
    try:
        return parse_board(text)
    except BoardFormatError:
        return None


def _drawn(results: list[dict], f: Finding) -> tuple[SolverResult, ...]:
    """The kept results a finding's page draws: its solver's and its reference's, in its mode."""
    wanted = {f.subject, f.reference}
    return tuple(result_from_json(r) for r in results if r["mode"] == f.mode.value and r["solver"] in wanted)


@dataclass
class Report:
    """A campaign's report as it is written, and rewritten while the campaign runs: what each page last showed,
    so that only changed pages are written again."""

    out: Path
    per_signature: int = PER_SIGNATURE
    timeouts: bool = False  # timeout findings are drawn shrunk too (--shrink-timeouts)
    shown: dict[int, str] = field(default_factory=dict)  # page number -> what it showed (finding and shrink keys)
    names: dict[str, str] = field(default_factory=dict)  # solver -> how a replay names it (campaign.json's definitions)

    def write(self, in_progress: str | None = None, pages: bool = True) -> Path:
        """Write index.html, the pages that changed and junit.xml from what the folder holds now;
        ``in_progress``: the phase the campaign is in, said at the top of the index (None: the run ended);
        ``pages=False``: the index and junit.xml only (the pages are written and depend on nothing newer)."""
        out = self.out
        config = json.loads((out / "campaign.json").read_text())
        self.names = replay_names(config.get("definitions", ()))
        boards = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines() if line.strip()] \
            if (out / "boards.jsonl").exists() else []
        findings = ordered(read_findings(out))
        shrunk = read_shrunk(out)
        answers = read_answers(out)
        drawn_shrunk = set(representatives(findings, self.per_signature, self.timeouts))
        cpu = {b["index"]: tuple(sorted(b.get("solver_cpu_seconds", {}).items())) for b in boards}
        small_texts: dict[int, str] = {}
        cut_short: set[int] = set()  # findings whose shrink its budget cut short: counted apart, marked
        for n, f in enumerate(findings):
            entry = shrunk.get(finding_key(f)) if n in drawn_shrunk else None
            if entry is not None and "finding" in entry:
                small_texts[n] = Finding.from_json(entry["finding"]).board
                if entry["stats"].get("cut_short"):
                    cut_short.add(n)
            if not pages:
                continue
            waiting = n in drawn_shrunk and entry is None and in_progress is not None  # "not yet" on its page
            state = json.dumps([f.to_json(), entry is not None and json.dumps(entry, sort_keys=True),
                                n in drawn_shrunk, waiting], sort_keys=True)
            if self.shown.get(n) == state and (out / page_name(n)).exists():
                continue
            page = self._page(n, f, entry, n in drawn_shrunk, answers.get(f.index, []), cpu.get(f.index, ()),
                              in_progress is not None)
            write_text(out / page_name(n), render_finding(page))
            self.shown[n] = state
        for n in [n for n in self.shown if n >= len(findings)]:  # numbers that moved on: pages of this run only
            (out / page_name(n)).unlink(missing_ok=True)
            del self.shown[n]
        wall = summary_seconds(out)
        wall = sum(b.get("seconds", 0) for b in boards) if wall is None else wall
        solver_seconds: dict[str, float] = {}
        for b in boards:
            for name, t in b.get("solver_cpu_seconds", {}).items():
                solver_seconds[name] = solver_seconds.get(name, 0.0) + t
        news_rows = json.loads((out / "news.json").read_text()) if (out / "news.json").exists() else None
        summary = CampaignSummary(config["seed"], tuple(config["subjects"]), tuple(config["references"]),
                                  config["generator"], len(boards), wall, solver_seconds, tuple(findings),
                                  small_texts, news_rows, in_progress,
                                  shrinking=(sum(1 for n in drawn_shrunk if n in small_texts), len(drawn_shrunk)),
                                  not_judged=_not_judged(boards),
                                  bugs=tuple(b.to_json() for b in bugs(findings, shrunk)),
                                  cut_short=frozenset(cut_short))
        write_text(out / "index.html", render_index(summary))
        write_text(out / "junit.xml", junit_xml(boards, findings))
        return out / "index.html"

    def _page(self, n: int, f: Finding, entry: dict | None, drawn_shrunk: bool, results: list[dict],
              timings: tuple, running: bool) -> FindingPage:
        original = _board_or_none(f.board)
        notes = []
        if entry is not None and "finding" in entry:
            small = Finding.from_json(entry["finding"])
            small = replace(small, extra={**small.extra, "original_board": f.board,
                                          "found_says": [f.subject_says, f.reference_says]})
            shrunk_results = tuple(result_from_json(r) for r in entry.get("answers", ()))
            stats = entry["stats"]
            if stats.get("cut_short"):
                notes.append(("shrinking", f"cut short after {stats['calls']} checks: "
                                           f"{stats.get('stopped') or 'its budget ran out'} (a cap of "
                                           f"{rounded(entry.get('seconds_allowed', 0))} CPU seconds); this is the "
                                           "smallest board reached"))
            page = FindingPage(small, n, original, parse_board(small.board), _drawn(results, f), shrunk_results,
                               stats, timings, notes=tuple(notes))
        else:
            if entry is not None and "failed" in entry:
                notes.append(("shrinking", f"failed: {entry['failed']}"))
            elif drawn_shrunk and running:
                notes.append(("shrinking", "not yet: the campaign is still running"))
            elif drawn_shrunk:
                notes.append(("shrinking", "not done: the campaign's time budget ran out first"))
            elif f.kind is Kind.TIMEOUT and f.board and original is not None:
                notes.append(("shrinking", "not shrunk: every board tried would take the solver's whole CPU budget "
                                           "(--shrink-timeouts shrinks timeouts, after the other findings)"))
            page = FindingPage(f, n, original, None, _drawn(results, f), timings=timings, notes=tuple(notes))
        return replace(page, features=features(f.recipe) if f.recipe else (), names=self.names)


def publish(out: Path, per_signature: int = PER_SIGNATURE, pool: Executor | None = None,
            timeouts: bool = False) -> Path:
    """The whole report of a campaign that has ended: its missing shrinks done first (in ``pool``)."""
    findings = ordered(read_findings(out))
    shrink_representatives(out, findings, per_signature, pool, timeouts)
    return Report(out, per_signature, timeouts).write()


def shrink_representatives(out: Path, findings: list[Finding], per_signature: int, pool: Executor | None = None,
                           timeouts: bool = False, cap: float | None = None) -> dict[int, dict]:
    """The shrunk entries of the findings the report draws shrunk, by number; those missing are shrunk (in
    ``pool``) and kept in shrunk.jsonl as each arrives."""
    budget = stored_budget(out)
    boards = {b["index"]: b for b in _board_rows(out)}
    kept = read_shrunk(out)
    wanted = representatives(findings, per_signature, timeouts)
    judging = stored_judging(out)
    jobs = [job_for(findings[n], budget, boards.get(findings[n].index, {}), cap, judge_undeclared=judging)
            for n in wanted if finding_key(findings[n]) not in kept]
    results = pool.map(run_job, jobs) if pool is not None else map(run_job, jobs)
    for entry in results:
        keep(out, entry)
        kept[entry["key"]] = entry
    return {n: kept[finding_key(findings[n])] for n in wanted if finding_key(findings[n]) in kept}


def job_for(f: Finding, budget, board_row: dict, cap: float | None = None, until: float | None = None,
            definitions: tuple[str, ...] = (), judge_undeclared: bool = False) -> ShrinkJob:
    """A finding's shrink job, budgeted by what its solvers took on its board (boards.jsonl)."""
    cpu = board_row.get("solver_cpu_seconds", {})
    cost = cpu.get(f.subject, 0.0) + cpu.get(f.reference, 0.0)
    return ShrinkJob(f.to_json(), budget, SHRINK_CAP if cap is None else cap, until, definitions, judge_undeclared,
                     cost)


def _board_rows(out: Path) -> list[dict]:
    path = out / "boards.jsonl"
    rows = []
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return rows


def shrunk_boards(out: Path, per_signature: int = PER_SIGNATURE,
                  pool: Executor | None = None) -> tuple[list[Finding], dict]:
    """A campaign's findings in report order, and the shrunk board of each one shrunk to the end (by
    number): a shrink its budget cut short ends on a board that depends on where it started (say a
    dpll@seed stack overflow, a few seconds a call), so it is no signature and is judged by its group."""
    findings = ordered(read_findings(out))
    shrunk = shrink_representatives(out, findings, per_signature, pool)
    return findings, {n: Finding.from_json(entry["finding"]).board for n, entry in shrunk.items()
                      if "finding" in entry and not entry["stats"].get("cut_short")}


def write_news(out: Path, per_signature: int, pool: Executor | None, known: Baseline) -> list[dict]:
    """The bugs a baseline does not know and no known defect explains (the news): news.json's rows of those.

    news.json lists every unknown bug, the news first; one that a seed port's named defect reproduces on its
    shrunk board says which (``explained_by``) and is no news: a known defect on a board not seen before.
    """
    findings, boards = shrunk_boards(out, per_signature, pool)
    found = bug_news(bugs(findings, read_shrunk(out)), findings, boards, known)
    why = {b.id: explained_by(findings[b.first], boards[b.first]) if b.first in boards else None for b in found}
    rows = [{"bug": b.id, "kind": b.fingerprint.kind, "subject": b.subject, "mode": findings[b.first].mode.value,
             "fingerprint": b.words, "board": boards.get(b.first),
             "says": exception(findings[b.first].subject_says) if findings[b.first].kind is Kind.CRASH else None,
             "explained_by": why[b.id], "findings": list(b.findings), "pages": [page_name(n) for n in b.findings[:20]]}
            for b in sorted(found, key=lambda b: (why[b.id] is not None, b.first))]
    write_text(out / "news.json", json.dumps(rows, indent=2) + "\n")
    return [row for row in rows if row["explained_by"] is None]
