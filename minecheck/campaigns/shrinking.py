"""A campaign's shrinks: which findings are shrunk, with what budget, and where each result is kept.

The first ``per_signature`` findings of each bug (solver and fingerprint, ``check.fingerprint.bug_key``), in
report order, are the ones the report draws in full; they are shrunk, each as a task of its own in the campaign's pool,
as soon as they are found, beside the boards still being checked.  Every result is appended and synced
to shrunk.jsonl the moment it arrives, keyed by the finding, so a killed campaign loses no shrink that
was done and ``--resume`` shrinks only what is left.  By default one a bug (``PER_SIGNATURE``): a
slow engine pays for each shrink in its own time (bench/slow_subject.py: 16 shrinks at two a signature,
8 at one), and a second example of the same bug says little more; ``--shrink-per-signature`` asks for more.
(Shrinking the first of each signature, (kind, solver, reference, mode), hid a second root cause of one kind.)

A shrink's budget follows what it needs, in calls and CPU seconds: it goes on while it finds a smaller board
within ``SHRINK_PATIENCE`` times the CPU of the check that found the last one (the finding's board's cost,
before the first; at least ``SHRINK_FLOOR`` seconds and ``check.shrink.PATIENCE_CALLS`` checks), up to
``SHRINK_CALLS`` checks and the ``--shrink-time`` cap in all.  Quarters and halves come first, so each call on
a big board is cheaper than the last: a slow engine's shrink of a big board goes on while each step pays
(bench/big_crash.py: a 5,184-cell board to 9 cells), one that finds nothing smaller stops after a few times
its board's cost, and a busy machine shrinks as far as a quiet one (CPU time and calls, never wall-clock).
A shrunk wrong answer is then shrunk on to its minimal cause (``check.shrink.minimal_cause``: the smallest board
on which its solver still misreads, started from the shrink's own end, with the same patience counted from a
check of the shrunk board, not of the finding's big one, half the cap and ``CAUSE_CALLS`` checks), kept in
its entry beside the small board, for merging bugs (``campaigns.bugs``).
A timeout finding is not shrunk
unless asked (``--shrink-timeouts``): every board tried would cost its whole CPU budget, and a timeout
on a smaller board says little more than the one found.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from minecheck.campaigns.shrink_limits import SHRINK_CALLS, SHRINK_PATIENCE
from minecheck.check.certified import certify_checks, with_certificate
from minecheck.check.crosscheck import BoardCheck, check_board
from minecheck.check.findings import Finding, Kind
from minecheck.check.fingerprint import bug_key, fingerprint
from minecheck.check.shrink import PATIENCE_FLOOR, cpu_seconds, has_board, has_cause, minimal_cause, shrink
from minecheck.check.shrinkcache import SHRUNK, finding_key
from minecheck.model.answers import result_to_json
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.running.discovery import remember
from minecheck.running.runfolder import append_text

SHRINK_FLOOR = PATIENCE_FLOOR  # CPU seconds a shrink may always spend on the next smaller board (tiny boards cost ms)


@dataclass(frozen=True)
class ShrinkJob:
    """One finding to shrink in a worker: everything the worker needs, as plain data."""

    finding: str  # Finding JSON
    budget: Budget  # each solver call's, as on the board
    seconds: float  # CPU seconds the shrink may take in all
    until: float | None = None  # wall-clock end of the campaign's time budget (time.time())
    definitions: tuple[str, ...] = ()  # how the worker makes solvers not built in
    judge_undeclared: bool = False  # as the campaign judged (``--judge-undeclared``)
    cost: float | None = None  # CPU seconds its solvers took on the finding's board: the patience's first unit

    @property
    def key(self) -> str:
        return finding_key(Finding.from_json(self.finding))


def shrinkable(f: Finding, timeouts: bool = False) -> bool:
    """Whether a finding is shrunk at all: it has a board to shrink, and is no timeout (unless asked)."""
    return has_board(f) and (timeouts or f.kind is not Kind.TIMEOUT)


def representatives(findings: list[Finding], per_signature: int, timeouts: bool = False) -> list[int]:
    """The numbers (report order) of the findings the report draws shrunk: the first of each bug."""
    wanted: dict[tuple, list[int]] = {}
    for n, f in enumerate(findings):
        if shrinkable(f, timeouts) and len(wanted.setdefault(bug_key(f), [])) < per_signature:
            wanted[bug_key(f)].append(n)
    return sorted(n for ns in wanted.values() for n in ns)


def run_job(job: ShrinkJob) -> dict:
    """Shrink one finding (in a worker): the entry shrunk.jsonl keeps, with the answers its page draws on the
    shrunk board, so that publishing runs no solver again."""
    remember(job.definitions)
    f = Finding.from_json(job.finding)
    result = shrink(f, job.budget, max_calls=SHRINK_CALLS, seconds=job.seconds, until=job.until,
                    judge_undeclared=job.judge_undeclared, patience=SHRINK_PATIENCE, cost=job.cost)
    before = cpu_seconds()
    check = _check(result.finding, job.budget, job.judge_undeclared)
    small_cost = cpu_seconds() - before  # a check of the shrunk board: what the cause's patience is measured by
    shown = result.finding
    certified = [] if check is None else certify_checks([replace(check, findings=(shown,))], f.index,
                                                        budget=job.budget)
    shown = with_certificate(shown, certified)  # the reference's answer on the shrunk board, certified
    entry = {"key": finding_key(f), "finding": shown.to_json(), "stats": asdict(result.stats),
             "seconds_allowed": job.seconds}
    entry["answers"] = [] if check is None else [result_to_json(r) for r in check.results]
    entry["shows"] = sorted({fingerprint(g).key for g in (check.findings if check is not None else (shown,))
                             if g.subject == f.subject})  # every bug of its solver the small board shows
    cause = cause_of(result.finding, job.budget, job.seconds / 2, job.judge_undeclared, cost=small_cost,
                     start=result.shape)
    if cause is not None:
        entry["cause"] = cause
    if certified:
        entry["certificates"] = [c.line() for c in certified]
    return entry


def cause_of(shrunk: Finding, budget: Budget | None, seconds: float, judge_undeclared: bool = False,
             solver=None, cost: float | None = None, start=None) -> dict | None:
    """A shrunk wrong answer's minimal cause (``check.shrink.minimal_cause``, with the shrink's patience): the
    board and what it shows, as shrunk.jsonl keeps it; None for a failure (a crash keeps its origin) or a cause
    cut short.  ``start``: the shrink's end (``Shrunk.shape``), so the cause starts from the small board."""
    if not has_cause(shrunk):
        return None
    cause = minimal_cause(shrunk, budget, seconds=seconds, solver=solver, judge_undeclared=judge_undeclared,
                          patience=SHRINK_PATIENCE, cost=cost, start=start)
    if cause.stats.cut_short:
        return None  # maybe not the smallest: two such are no evidence of one cause
    return {"board": cause.finding.board, "key": fingerprint(cause.finding).key}


def _check(f: Finding, budget: Budget, judge_undeclared: bool = False) -> BoardCheck | None:
    """Both sides' results on the shrunk board (one more check, in the worker)."""
    board = parse_board(f.board)
    if f.mode.value == "global" and board.total_mines is None:
        return None
    subjects, references = ([], [f.subject]) if f.kind is Kind.REFERENCE else ([f.subject], [f.reference])
    (c,) = check_board(board, subjects, [f.mode], references, budget=budget, judge_undeclared=judge_undeclared)
    return c


def failed_entry(job: ShrinkJob, why: str) -> dict:
    """A shrink whose worker failed: kept, so it is not tried again, and said on the finding's page."""
    return {"key": job.key, "failed": why}


def read_shrunk(out: Path) -> dict[str, dict]:
    """Every shrink kept in the folder, by finding key (a line torn by a kill is dropped; a later line wins)."""
    path = out / SHRUNK
    kept: dict[str, dict] = {}
    if not path.exists():
        return kept
    for line in path.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            kept[entry["key"]] = entry
    return kept


def keep(out: Path, entry: dict) -> None:
    """Append a shrink's entry to shrunk.jsonl and sync it: on disk the moment it is done."""
    append_text(out / SHRUNK, json.dumps(entry) + "\n", sync=True)
