"""Turn a campaign directory into its report: shrink findings, rerun their solvers, write the pages.

Findings are numbered in a deterministic order (board index, then kind, solver, mode, cells),
so the same campaign gives the same report whatever order the workers finished in.  The first
``per_signature`` findings of each signature (kind, solver, reference, mode) are shrunk and
drawn in full; shrinks are cached in shrunk.jsonl so that publishing again is cheap.
"""

from __future__ import annotations

import json
from concurrent.futures import Executor
from dataclasses import asdict, replace
from pathlib import Path

from minecheck.boards.generators import features
from minecheck.campaigns.attribution import explained_by
from minecheck.campaigns.baseline import Baseline, news
from minecheck.campaigns.fuzz import stored_budget
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Finding, Kind, read_findings
from minecheck.check.shrink import has_board, shrink
from minecheck.check.shrinkcache import finding_key, shrink_cached
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.model.errors import BoardFormatError
from minecheck.report.pages import CampaignSummary, FindingPage, junit_xml, page_name, render_finding, render_index
from minecheck.running.runfolder import write_text


def ordered(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.index if f.index is not None else -1, f.kind.value, f.subject,
                                           f.mode.value, f.cells, f.subject_says))

SHRINK_BUDGET = 120.0  # at most this many seconds per finding: a timeout finding makes every call slow


def shrink_seconds(budget: Budget) -> float:
    """CPU seconds to spend shrinking one finding: ten solver budgets, at least 20 s, at most SHRINK_BUDGET."""
    return min(SHRINK_BUDGET, max(20.0, 10 * (budget.cpu or SHRINK_BUDGET)))


def _shrink_one(f: Finding, budget: Budget) -> dict:
    """Shrink one finding; a plain dict so it crosses process boundaries and lands in shrunk.jsonl."""
    result = shrink(f, budget, seconds=shrink_seconds(budget))
    return {"key": finding_key(f), "finding": result.finding.to_json(), "stats": asdict(result.stats)}


def shrink_representatives(out: Path, findings: list[Finding], per_signature: int, budget: Budget,
                           pool: Executor | None = None) -> dict[int, dict]:
    """Shrunk results for the first findings of each signature, by finding number (cached on disk)."""
    wanted: dict[tuple, list[int]] = {}
    for n, f in enumerate(findings):
        if has_board(f) and len(wanted.setdefault(f.signature, [])) < per_signature:
            wanted[f.signature].append(n)
    return shrink_cached(out, findings, [n for ns in wanted.values() for n in ns], _shrink_one, budget, pool)


def _board_or_none(text: str):
    """The board a finding's text holds, or None (a general LP's text is no board)."""
    try:
        return parse_board(text)
    except BoardFormatError:
        return None


def _results(f: Finding, board_text: str, budget: Budget):
    subjects = [] if f.kind is Kind.REFERENCE else [f.subject]
    references = [f.subject] if f.kind is Kind.REFERENCE else []
    board = parse_board(board_text)
    if f.mode.value == "global" and board.total_mines is None:
        return board, ()
    (c,) = check_board(board, subjects, [f.mode], references, budget=budget)
    return board, c.results


def shrunk_boards(out: Path, per_signature: int = 2, pool: Executor | None = None) -> tuple[list[Finding], dict]:
    """A campaign's findings in report order, and the shrunk board of each one shrunk to the end (by
    number): a shrink its budget cut short ends on a board that depends on where it started (say a
    dpll@seed stack overflow, a few seconds a call), so it is no signature and is judged by its group."""
    findings = ordered(read_findings(out))
    shrunk = shrink_representatives(out, findings, per_signature, stored_budget(out), pool)
    return findings, {n: Finding.from_json(entry["finding"]).board for n, entry in shrunk.items()
                      if not entry["stats"].get("cut_short")}


def write_news(out: Path, per_signature: int, pool: Executor | None, known: Baseline) -> dict:
    """The signatures a baseline does not know and no known defect explains (the news), by signature.

    news.json lists every unknown signature, the news first; one that a seed port's named defect
    reproduces on its shrunk board says which (``explained_by``) and is no news: a known defect on
    a board not seen before.
    """
    findings, boards = shrunk_boards(out, per_signature, pool)
    found = news(findings, boards, known)
    why = {s: explained_by(findings[numbers[0]], boards[numbers[0]]) if numbers[0] in boards else None
           for s, numbers in found.items()}
    rows = [{"kind": s.kind, "subject": s.subject, "mode": s.mode, "board": s.board, "says": s.says,
             "explained_by": why[s], "findings": numbers, "pages": [page_name(n) for n in numbers[:20]]}
            for s, numbers in sorted(found.items(), key=lambda kv: (why[kv[0]] is not None, kv[0]))]
    write_text(out / "news.json", json.dumps(rows, indent=2) + "\n")
    return {s: numbers for s, numbers in found.items() if why[s] is None}


def publish(out: Path, per_signature: int = 2, pool: Executor | None = None) -> Path:
    """Write index.html, one page per finding, and junit.xml into the campaign directory."""
    config = json.loads((out / "campaign.json").read_text())
    boards = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines() if line.strip()] \
        if (out / "boards.jsonl").exists() else []
    findings = ordered(read_findings(out))
    budget = stored_budget(out)
    shrunk = shrink_representatives(out, findings, per_signature, budget, pool)
    small_texts = {}
    recorded = {b["index"]: tuple(sorted(b.get("solver_seconds", {}).items())) for b in boards}
    for n, f in enumerate(findings):
        timings = recorded.get(f.index, ())
        page = FindingPage(f, n, None, timings=timings)
        if n in shrunk:
            small = Finding.from_json(shrunk[n]["finding"])
            small = Finding(**{**small.__dict__, "extra": {"original_board": f.board}})
            original, original_results = _results(f, f.board, budget)
            board, results = _results(small, small.board, budget)
            page = FindingPage(small, n, original, board, original_results, results, shrunk[n]["stats"], timings)
            small_texts[n] = small.board
        elif (drawn := _board_or_none(f.board)) is not None:
            page = FindingPage(f, n, drawn, timings=timings)
        page = replace(page, features=features(f.recipe) if f.recipe else ())
        write_text(out / page_name(n), render_finding(page))
    wall = json.loads((out / "summary.json").read_text())["seconds"] if (out / "summary.json").exists() \
        else sum(b.get("seconds", 0) for b in boards)
    solver_seconds: dict[str, float] = {}
    for b in boards:
        for name, t in b.get("solver_seconds", {}).items():
            solver_seconds[name] = solver_seconds.get(name, 0.0) + t
    news_rows = json.loads((out / "news.json").read_text()) if (out / "news.json").exists() else None
    summary = CampaignSummary(config["seed"], tuple(config["subjects"]), tuple(config["references"]),
                              config["generator"], len(boards), wall, solver_seconds, tuple(findings), small_texts,
                              news_rows)
    write_text(out / "index.html", render_index(summary))
    write_text(out / "junit.xml", junit_xml(boards, findings))
    return out / "index.html"
