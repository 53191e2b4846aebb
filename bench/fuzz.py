"""Benchmark: fuzz campaigns on one core against two, side by side; and shrinking Expert findings.

    python bench/fuzz.py [--quick]

Throughput: ``run_campaign`` on the same seed and boards (the default mix) with ``jobs=1`` and
``jobs=2``, into temporary directories (no report), in rounds of one run each, the order
alternating (1 then 2, 2 then 1, ...), so that a change in the machine's load hits both.  Subjects:
the fixed variants plus ilp@seed and gibbs@seed; dpll@seed is left out, its timeouts (a fixed
wait per board) would dominate the time.  Target: jobs=2 at least 1.7x the boards/s of jobs=1.
Each run also shows the CPU time its workers got (over wall time: the cores it really had, on a
machine shared with others), the best ratio its board times allow on two workers, and, as a
yardstick measured just before each round, the ratio a pure-CPU loop gets from a pool of 2 over 1.

Shrinking: a campaign of ``play:expert`` boards with the seed variants; per board one finding
(the subjects taken in turn), shrunk by ``minecheck.check.shrink.shrink`` to a 1-minimal board.
Timeout findings are skipped (their shrink is bounded by a time budget, not by the passes), and
so are findings on general random LPs (no board).  Target: a median of at most 150 predicate calls.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.findings import Finding, Kind, read_findings
from minecheck.check.shrink import has_board, shrink
from minecheck.model.budget import Budget
from minecheck.running.catalogue import FIXED_VARIANTS, SEED_VARIANTS

THROUGHPUT = Config(seed=2024, subjects=FIXED_VARIANTS + ("ilp@seed", "gibbs@seed"))
SHRINKING = Config(seed=7, subjects=SEED_VARIANTS, generator="play:expert", budget=Budget(cpu=3.0))


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def campaign(config: Config, boards: int, jobs: int) -> dict:
    """One campaign into a fresh directory: wall time, workers' CPU time, each board's own time."""
    with tempfile.TemporaryDirectory() as out:
        before, load_before = os.times(), load()
        start = time.perf_counter()
        progress = run_campaign(config, Path(out), boards=boards, jobs=jobs)
        wall = time.perf_counter() - start
        after = os.times()  # the pool's workers have been joined: their CPU time is in children_*
        lines = [json.loads(line) for line in (Path(out) / "boards.jsonl").read_text().splitlines()]
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"jobs": jobs, "boards": progress.boards, "wall": wall, "cpu": cpu, "load": load_before,
            "board_seconds": [line["seconds"] for line in sorted(lines, key=lambda x: x["index"])]}


def best_two_worker_ratio(board_seconds: list[float], jobs: int = 2) -> float:
    """The speed-up these board times allow: boards handed out in order to the first free worker."""
    free = [0.0] * jobs
    for s in board_seconds:
        free[free.index(min(free))] += s
    return sum(board_seconds) / max(free)


def spin(n: int) -> int:
    """Pure CPU work, no I/O, next to no memory."""
    x = 0
    for i in range(n):
        x += i
    return x


def machine_ratio(chunks: int = 4, n: int = 8_000_000) -> float:
    """What the machine gives two processes over one right now: the same pure-CPU work in a pool of 1, then of 2."""
    walls = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(spin, [n] * chunks))
        walls[jobs] = time.perf_counter() - start
    return walls[1] / walls[2]


def throughput(boards: int, rounds: int) -> None:
    print(f"throughput: {boards} boards of the default mix, seed {THROUGHPUT.seed}, subjects "
          f"{','.join(THROUGHPUT.subjects)} (no dpll@seed: its timeouts would dominate)")
    print(f"  {'round':>5} {'jobs':>4} {'load':>5} {'wall':>7} {'boards/s':>9} {'CPU':>7} {'cores used':>10}")
    ratios, ceilings = [], []
    for r in range(rounds):
        ceiling = machine_ratio()
        ceilings.append(ceiling)
        runs = {}
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            run = campaign(THROUGHPUT, boards, jobs)
            runs[jobs] = run
            print(f"  {r + 1:>5} {jobs:>4} {run['load']:>5} {run['wall']:6.1f}s {run['boards'] / run['wall']:9.2f} "
                  f"{run['cpu']:6.1f}s {run['cpu'] / run['wall']:10.2f}", flush=True)
        ratio = runs[1]["wall"] / runs[2]["wall"]
        allowed = best_two_worker_ratio(runs[1]["board_seconds"])
        overhead = runs[2]["cpu"] / runs[1]["cpu"]
        ratios.append(ratio)
        print(f"  round {r + 1}: jobs=2 / jobs=1 boards/s = {ratio:.2f}x -> target (>= 1.7x) "
              f"{'met' if ratio >= 1.7 else 'NOT met'}\n"
              f"           CPU per board jobs=2 / jobs=1 = {overhead:.2f}; these boards' times allow at most "
              f"{allowed:.2f}x on two free cores, so {allowed / overhead:.2f}x projected (not measured)\n"
              f"           a pure-CPU loop in a pool of 2 against 1, just before: {ceiling:.2f}x (what the machine "
              f"gave); the campaign got {ratio / ceiling:.0%} of it")
    print(f"  ratio per round: {', '.join(f'{x:.2f}x' for x in ratios)}; median {statistics.median(ratios):.2f}x; "
          f"the pure-CPU loop's: {', '.join(f'{x:.2f}x' for x in ceilings)}")
    print("  (cores used = workers' CPU time / wall time: below 1 for jobs=1, or 2 for jobs=2, means the machine's"
          "\n   other load took the rest, and the measured ratio says more about that load than about minecheck)")


def pick(findings: list[Finding]) -> tuple[list[Finding], Counter]:
    """One shrinkable finding per board, the subjects taken in turn; and what was skipped, by why."""
    skipped: Counter = Counter()
    by_board: dict[int, list[Finding]] = {}
    for f in findings:
        if f.kind is Kind.TIMEOUT:
            skipped["timeout"] += 1
        elif not has_board(f):
            skipped["general LP, no board"] += 1
        else:
            by_board.setdefault(f.index if f.index is not None else -1, []).append(f)
    picked: list[Finding] = []
    used: Counter = Counter()
    for index in sorted(by_board):
        candidates = by_board[index]
        best = min(candidates, key=lambda f: (used[f.subject], SEED_VARIANTS.index(f.subject)))
        used[best.subject] += 1
        picked.append(best)
        skipped["same board, another finding"] += len(candidates) - 1
    return picked, skipped


def shrinking(boards: int, budget: float) -> None:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        run_campaign(SHRINKING, Path(out), boards=boards, jobs=2)
        findings = read_findings(Path(out))
    picked, skipped = pick(findings)
    print(f"\nshrinking: {boards} play:expert boards, seed {SHRINKING.seed}, subjects {','.join(SHRINKING.subjects)}: "
          f"{len(findings)} findings in {time.perf_counter() - start:.0f} s; shrinking one per board: {len(picked)}")
    print("  skipped: " + ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())))
    print(f"  {'board':>5} {'kind':12} {'subject':13} {'calls':>6} {'seconds':>8} {'cells':>11} {'covered':>11} "
          f"{'1-minimal':>9}")
    stats = []
    for f in picked:
        s = shrink(f, Budget(cpu=5.0), seconds=budget).stats
        stats.append(s)
        print(f"  {f.index:>5} {f.kind.value:12} {f.subject:13} {s.calls:>6} {s.seconds:8.2f} "
              f"{s.cells_before:>4} -> {s.cells_after:<3} {s.covered_before:>4} -> {s.covered_after:<3} "
              f"{'no (cut)' if s.cut_short else 'yes':>9}", flush=True)
    if not stats:
        print("  no findings to shrink")
        return
    calls = statistics.median(s.calls for s in stats)
    print(f"  median over {len(stats)} shrinks: {calls:g} calls, {statistics.median(s.seconds for s in stats):.2f} s, "
          f"cells {statistics.median(s.cells_before for s in stats):g} -> "
          f"{statistics.median(s.cells_after for s in stats):g}; max {max(s.calls for s in stats)} calls, "
          f"{max(s.seconds for s in stats):.1f} s; {sum(s.cut_short for s in stats)} cut short by the "
          f"{budget:g} s budget -> target (median <= 150 calls) {'met' if calls <= 150 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10 boards per campaign run (not 40), 4 Expert boards")
    args = parser.parse_args()
    start = time.perf_counter()
    throughput(boards=10 if args.quick else 40, rounds=2)
    shrinking(boards=4 if args.quick else 15, budget=60.0 if args.quick else 120.0)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
