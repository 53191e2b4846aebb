"""One finding's page, written on its own (not in a campaign's folder): the page ``minecheck shrink`` and
``assert_agree`` leave behind, with both sides' answers on the original board and on the shrunk one."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Finding, Kind, file_name
from minecheck.check.shrink import Shrunk
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver
from minecheck.report.pages import FindingPage, render_finding
from minecheck.running.runfolder import write_text

PAGES = Path(".minecheck") / "findings"  # where such pages go, from the working directory
PAGES_VARIABLE = "MINECHECK_PAGES"


def write_page(finding: Finding, shrunk: Shrunk | None, board: Board, checks, rerun: Solver | None,
               references: Sequence[str | Solver], budget: Budget, folder: Path,
               names: dict[str, str] | None = None) -> Path:
    """The finding's HTML page (the original board, the shrunk one, both sides' answers on each); ``names``: how
    its replay line names the solvers (``discovery.replay_names``)."""
    original_results = next((c.results for c in checks if c.mode is finding.mode), ())
    shown, small, small_results, stats = finding, None, (), None
    if shrunk is not None:
        shown = replace(shrunk.finding, extra={**shrunk.finding.extra, "original_board": finding.board,
                                               "found_says": [finding.subject_says, finding.reference_says]})
        small, stats = shrunk.board, asdict(shrunk.stats)
        who = rerun if rerun is not None else finding.subject
        subjects, refs = ([], [who]) if finding.kind is Kind.REFERENCE else ([who], references)
        (again,) = check_board(small, subjects, [finding.mode], refs, budget=budget)
        small_results = again.results
    page = FindingPage(shown, 0, board, small, original_results, small_results, stats, back=None,  # no index here
                       names=names or {})
    folder.mkdir(parents=True, exist_ok=True)
    path = (folder / file_name(shown)).with_suffix(".html")
    write_text(path, render_finding(page))
    return path.resolve()


def pages_folder(pages: Path | str | None) -> Path:
    """Where finding pages go: ``pages``, else $MINECHECK_PAGES, else .minecheck/findings."""
    return Path(pages or os.environ.get(PAGES_VARIABLE) or PAGES)
