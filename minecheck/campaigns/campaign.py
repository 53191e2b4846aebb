"""A campaign's run: boards checked in parallel, the first findings of each new bug shrunk as soon as they
are found (beside the boards still being checked), the report kept current, all within one time budget.

The pool runs two kinds of task: a chunk of boards (``fuzz.check_indices``) and a shrink
(``shrinking.run_job``).  A shrink waiting is started before the next board, so a finding's small board
is on disk soon after the finding itself.  Which findings are shrunk in the end does not depend on the
order workers finished in: at the end the report's own choice (``shrinking.representatives``, in board
order) is completed, and only those shrinks are drawn.

``time_budget`` bounds the whole run: boards are started until ``BOARDS_SHARE`` of it has passed, shrinks
until ``SHRINK_SHARE``, and what is left is the report's (which runs no solver).  A time budget is
wall-clock, so how many boards it holds depends on the machine; every other bound is in CPU seconds.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from minecheck.boards.recipe import Recipe
from minecheck.campaigns.fuzz import (
    BATCH,
    WAIT,
    BoardOutcome,
    BoardPart,
    Config,
    PartDone,
    Planned,
    _defaults,
    _died,
    _record,
    board_parts,
    campaign_size,
    check_indices,
    check_part,
    folder,
    merged,
    next_recipe,
    part_died,
    tasks,
)
from minecheck.campaigns.publish import Report, job_for, ordered, report_order
from minecheck.campaigns.search import LAG, near_from_json
from minecheck.campaigns.shrink_limits import PER_SIGNATURE, SHRINK_CAP
from minecheck.campaigns.shrinking import (
    ShrinkJob,
    failed_entry,
    keep,
    read_shrunk,
    representatives,
    run_job,
    shrinkable,
)
from minecheck.check.certified import CERTIFICATES, read_certificates
from minecheck.check.findings import Finding, read_findings
from minecheck.check.fingerprint import bug_key
from minecheck.check.shrinkcache import SHRUNK, finding_key
from minecheck.model.errors import BadOption
from minecheck.running.discovery import announce_jail
from minecheck.running.runfolder import Warn, holding, replace_lines
from minecheck.running.workqueue import run_tasks

BOARDS_SHARE = 0.8  # of a time budget: boards are started until then
SHRINK_SHARE = 0.95  # shrinks until then; the rest is the report's
REPORT_EVERY = 5.0  # seconds between two rewrites of the report while the campaign runs, at the least
REPORT_SHARE = 0.1  # and at least 1 / REPORT_SHARE times the last rewrite's time: the report takes at most a
# tenth of the main process, which shares the machine's cores with the workers (a page of a 5,000-cell board
# takes a tenth of a second to draw; rewriting 40 such pages every 5 s took a core's fifth from the boards)


@dataclass
class Progress:
    """What a campaign reports as it goes: its phase, boards done, findings so far, shrinks done of those wanted."""

    boards: int = 0
    findings: int = 0
    shrunk: int = 0
    shrinks: int = 0  # shrinks started or wanted so far
    phase: str = "boards"
    started: float = field(default_factory=time.perf_counter)


@dataclass(frozen=True)
class Shrinking:
    """How a campaign shrinks: how many findings per bug, each shrink's CPU cap, timeouts or not."""

    per_signature: int = PER_SIGNATURE
    cap: float = SHRINK_CAP
    timeouts: bool = False


class _Work:
    """The campaign's task source: a waiting shrink first, else the next chunk of boards; empty for now (None),
    not for ever, while boards remain or shrinks may still come."""

    def __init__(self, chunks, boards_open: Callable[[], bool]):
        self.chunks, self.boards_open = chunks, boards_open
        self.shrinks: deque[ShrinkJob] = deque()
        self.boards_done = False

    def __iter__(self):
        return self

    def __next__(self):
        if self.shrinks:
            return self.shrinks.popleft()
        if self.boards_done or not self.boards_open():
            raise StopIteration
        chunk = next(self.chunks, None)
        if chunk is None:
            self.boards_done = True
            raise StopIteration
        return None if chunk == WAIT else chunk  # a search board waits for the boards it reads


def run_campaign(config: Config, out: Path, boards: int | None = None, time_budget: float | None = None,
                 jobs: int | None = None, scheduler: str | None = None, resume: bool = False,
                 on_outcome: Callable[[BoardOutcome, Progress], None] | None = None, overwrite: bool = False,
                 warn: Warn | None = None, batch: int = BATCH, shrinking: Shrinking | None = None,
                 report: bool = False, exit_first: bool = False,
                 on_shrunk: Callable[[dict, Progress], None] | None = None,
                 on_start: Callable[[], None] | None = None) -> Progress:
    """Check boards 0, 1, 2, ... until ``boards`` are done or the ``time_budget`` (seconds, the whole run's) says
    stop (a generator with an end, ``small:N``, stops there); shrink findings as they come (``shrinking``, None:
    not at all) and keep ``report`` current; ``exit_first``: no new board once there is a finding.  Holds the
    folder's lock (``overwrite``: replace an earlier run's files; ``warn`` hears of lines resume skips);
    ``on_start`` hears once the folder is taken (a refused run never starts: it shows no progress)."""
    size = campaign_size(config)
    if boards is None and time_budget is None and size is None:
        raise BadOption("give a number of boards or a time budget")
    if size is not None:
        boards = size if boards is None else min(boards, size)
    with holding(out):
        announce_jail(config.definitions)
        run = folder(out)
        done = run.prepare(asdict(config), resume, defaults=_defaults(), overwrite=overwrite, warn=warn)
        if on_start is not None:
            on_start()
        if resume and (out / SHRUNK).exists():  # whole lines only: a kill may have torn the last
            replace_lines(out / SHRUNK, [json.dumps(e) for e in read_shrunk(out).values()])
        known = read_findings(out) if resume else []
        progress = Progress(boards=len(done), findings=len(known))
        start = time.perf_counter()
        ends = _Ends(start, time_budget)
        jobs = jobs or os.cpu_count() or 1
        todo_boards = (i for i in range(boards if boards is not None else 10**12) if i not in done)
        live = _Live(config, out, shrinking, report, progress, on_outcome, on_shrunk, ends, done)
        if resume:
            live.near_from(run.read_results())
        work = _Work(tasks(config, todo_boards, batch, live.plan),
                     lambda: ends.boards_open() and not (exit_first and progress.findings))
        live.queue_for(known, work)
        run_tasks(work, _submit(config), lambda result: live.finish(result, work), _failed(config), jobs, scheduler,
                  keep_going=ends.shrinks_open, split=_split(config))
        run.settle(_by_board, _by_board)
        _settle_certificates(out)
        if shrinking is not None:  # the report's own choice of shrinks, in board order, completed
            progress.phase = "shrinking"
            live.complete(work)
            run_tasks(work, _submit(config), lambda result: live.finish(result, work), _failed(config), jobs,
                      scheduler, keep_going=ends.shrinks_open, split=_split(config))
            live.settle()
        progress.phase = "report"
        if report:
            live.report.write(None)
        return progress


class _Ends:
    """When a campaign with a time budget stops starting boards, and shrinks (perf_counter and wall time)."""

    def __init__(self, start: float, budget: float | None):
        self.start, self.budget = start, budget
        self.wall_end = None if budget is None else time.time() + SHRINK_SHARE * budget

    def boards_open(self) -> bool:
        return self.budget is None or time.perf_counter() - self.start < BOARDS_SHARE * self.budget

    def shrinks_open(self) -> bool:
        return self.budget is None or time.perf_counter() - self.start < SHRINK_SHARE * self.budget


class _Live:
    """The campaign's state as results come in: boards recorded, shrinks queued and kept, the report rewritten."""

    def __init__(self, config: Config, out: Path, shrinking: Shrinking | None, report: bool, progress: Progress,
                 on_outcome, on_shrunk, ends: _Ends, done: set[int]):
        self.config, self.out, self.shrinking, self.progress = config, out, shrinking, progress
        self.on_outcome, self.on_shrunk, self.ends = on_outcome, on_shrunk, ends
        self.report = Report(out, shrinking.per_signature if shrinking else 0,
                             shrinking.timeouts if shrinking else False) if report else None
        self.kept = set(read_shrunk(out))
        self.queued: set[str] = set()
        self.candidates: dict[tuple, list[tuple[Finding, str]]] = {}  # bug key -> its first findings so far, in
        # report order, each with its key (made once: a probability finding on a big board is megabytes of JSON)
        self.done: set[int] = set(done)  # boards done
        self.frontier = 0  # every board before it is done
        self.rows: dict[int, dict] = {}  # board index -> its line, for the shrink budgets
        self.parts: dict[int, dict[str, BoardOutcome]] = {}  # board index -> its parts' outcomes, as they come
        self.written = 0.0
        self.report_every = REPORT_EVERY  # seconds until the next rewrite (REPORT_SHARE of the time at most)
        self.near: dict[int, tuple] = {}  # board index -> its recipe and closeness, where a subject came close

    def near_from(self, rows: list[dict]) -> None:
        """The closeness of the boards a resumed campaign had done (boards.jsonl): its search reads them again."""
        for row in rows:
            if row.get("near"):
                rec = row["recipe"]
                recipe = Recipe(rec["generator"], tuple(sorted(rec["params"].items())), rec["seed"])
                self.near[row["index"]] = (recipe, near_from_json(row["near"]))

    def done_below(self, end: int) -> bool:
        """Every board before ``end`` is done."""
        while self.frontier in self.done:
            self.frontier += 1
        return self.frontier >= end

    def plan(self, index: int) -> Planned | int | None:
        """A search slot's board once the boards it reads (those before ``index - LAG``) are done; None until then."""
        if not self.done_below(index - LAG):
            return None
        recipe = next_recipe(self.config, index, self.near)
        return Planned(index, recipe) if recipe.generator == "search" else index

    def queue_for(self, findings: list[Finding], work: _Work) -> None:
        """Queue the shrinks the report will want as soon as that is certain: a finding is its bug's
        first (in report order) once every board before its own is done, and is shrunk then.  Boards finish
        out of order (a batch of tiny boards after the big boards beside it), and a guess at the first as
        findings came cost a slow engine's shrink of a big board for every wrong one (4 of 11 shrinks)."""
        if self.shrinking is None:
            return
        for f in findings:
            if shrinkable(f, self.shrinking.timeouts):
                chosen = self.candidates.setdefault(bug_key(f), [])
                chosen.append((f, finding_key(f)))
                chosen.sort(key=lambda pair: report_order(pair[0]))
                del chosen[self.shrinking.per_signature:]
        self.done_below(0)  # the frontier moved on
        for chosen in self.candidates.values():
            for f, key in chosen:
                if f.index is None or f.index < self.frontier:  # no board before it can bring an earlier one
                    self._queue(f, work, key)

    def complete(self, work: _Work) -> None:
        """Queue what the report's own choice (board order) still lacks."""
        assert self.shrinking is not None
        findings = ordered(read_findings(self.out))
        for n in representatives(findings, self.shrinking.per_signature, self.shrinking.timeouts):
            self._queue(findings[n], work)

    def settle(self) -> None:
        """shrunk.jsonl rewritten to hold the report's own shrinks, in report order: the same file whatever order
        the workers finished in (a shrink started for a finding that came first but is not the report's is
        dropped: it was a guess)."""
        assert self.shrinking is not None
        findings = ordered(read_findings(self.out))
        kept = read_shrunk(self.out)
        wanted = [finding_key(findings[n]) for n in
                  representatives(findings, self.shrinking.per_signature, self.shrinking.timeouts)]
        replace_lines(self.out / SHRUNK, [json.dumps(kept[k]) for k in wanted if k in kept])

    def _queue(self, f: Finding, work: _Work, key: str | None = None) -> None:
        key = key or finding_key(f)
        if key in self.kept or key in self.queued:
            return
        self.queued.add(key)
        row = self.rows.get(f.index, {})
        work.shrinks.append(job_for(f, self.config.budget, row, self.shrinking.cap, self.ends.wall_end,
                                    self.config.definitions, self.config.judge_undeclared))
        self.progress.shrinks += 1

    def finish(self, result, work: _Work) -> None:
        if isinstance(result, PartDone):  # a subject's share of a board that killed its worker
            parts = self.parts.setdefault(result.part.index, {})
            parts[result.part.subject] = result.outcome
            if len(parts) == len(self.config.subjects):
                del self.parts[result.part.index]
                self.finish([merged([parts[s] for s in self.config.subjects])], work)
            return
        if isinstance(result, dict):  # a shrink's entry
            keep(self.out, result)
            self.kept.add(result["key"])
            self.progress.shrunk += 1
            if self.on_shrunk:
                self.on_shrunk(result, self.progress)
        else:
            for outcome in result:
                _record(self.out, outcome)
                if outcome.near:
                    self.near[outcome.index] = (outcome.recipe, outcome.near)
                self.rows[outcome.index] = {"solver_cpu_seconds": dict(outcome.solver_cpu)}
                self.done.add(outcome.index)
                self.progress.boards += 1
                self.progress.findings += len(outcome.findings)
                self.queue_for(list(outcome.findings), work)
                if self.on_outcome:
                    self.on_outcome(outcome, self.progress)
        if self.report is not None and time.perf_counter() - self.written >= self.report_every:
            p = self.progress
            began = time.perf_counter()
            self.report.write(f"{p.phase} {p.boards} boards, {p.findings} findings, shrinking {p.shrunk} of "
                              f"{p.shrinks}")
            self.written = time.perf_counter()
            self.report_every = max(REPORT_EVERY, (self.written - began) / REPORT_SHARE)


def _settle_certificates(out: Path) -> None:
    """certificates.jsonl in board order (then mode, reference), a line each: the same file whatever order the
    workers finished in, and after a kill and --resume."""
    rows = {(r.get("index") if r.get("index") is not None else -1, r["mode"], r["reference"]): r
            for r in read_certificates(out)}  # a board checked again after a kill wrote its lines twice: the last kept
    if rows:
        replace_lines(out / CERTIFICATES, [json.dumps(rows[k], sort_keys=True) for k in sorted(rows)])


def _submit(config: Config):
    def submit(pool, task):
        if isinstance(task, ShrinkJob):
            return pool.submit(run_job, task)
        if isinstance(task, BoardPart):
            return pool.submit(check_part, config, task)
        return pool.submit(check_indices, config, task)
    return submit


def _failed(config: Config):
    def failed(task, why: str):
        if isinstance(task, ShrinkJob):
            return failed_entry(task, why)
        if isinstance(task, BoardPart):
            return part_died(config, task, why)
        return [_died(config, index, why) for index in task]
    return failed


def _split(config: Config):
    def split(task):
        return board_parts(config, task)
    return split


def _by_board(row: dict) -> tuple[int]:
    return (row["index"] if row.get("index") is not None else -1,)


