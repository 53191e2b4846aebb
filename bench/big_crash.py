"""Benchmark: a crash on a board of about 5,000 cells, from a program costing about a second a board, shrunk as a
campaign shrinks it (its budget from ``campaigns.shrinking``), to at most 20 cells.

    python bench/big_crash.py [--seed 1] [--size 72]

The program (``bench/programs/big_crash_engine.py``, persistent) crashes on a digit of 6 or more, which a random
board of that size shows a few times among its digits, and spends 0.2 CPU s on any board plus 0.8 s per 5,000
cells.
The board is the first ``reveal`` board of SIZE x SIZE cells (density 0.2, nine safe cells in ten opened, so that
exact answers it in about a second) from the seed on that shows the crash.  The finding's shrink is run as a
campaign's worker runs it (``run_job`` on ``job_for``'s job, its budget from the CPU the solvers took on the
board).  Target: at most 20 cells.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from minecheck.boards.generators import generate_board, recipe
from minecheck.campaigns.publish import job_for
from minecheck.campaigns.shrinking import SHRINK_CALLS, SHRINK_PATIENCE, run_job
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running.discovery import remember, resolve
from minecheck.running.sandbox import thread_cpu

ENGINE = Path(__file__).resolve().parent / "programs" / "big_crash_engine.py"
TARGET = 20  # cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=72, help="rows and columns of the board")
    args = parser.parse_args()
    (name,), definitions = resolve([f"big={{command = {json.dumps(sys.executable + ' ' + str(ENGINE))}}}"], True)
    remember(definitions)  # the name "big", as a campaign's workers know it
    budget = Budget()
    seed = args.seed
    while True:
        board = generate_board(recipe("reveal", seed, width=args.size, height=args.size, density=0.2, open_prob=0.9))
        if any(board.cells[d] >= 6 for d in board.digits):
            break
        seed += 1
    (check,) = check_board(board, [name], [Mode.LOCAL], ["exact"], budget=budget)
    (finding,) = [f for f in check.findings if f.kind is Kind.CRASH]
    cpu = {r.solver: r.cpu for r in check.results}
    row = {"solver_cpu_seconds": cpu}
    job = job_for(finding, budget, row, definitions=definitions)
    print(f"a crash on a {board.width}x{board.height} board ({board.size} cells, reveal seed {seed}); the program "
          f"took {cpu[name]:.2f} CPU s on it, exact {cpu['exact']:.2f}; load {os.getloadavg()[0]:.1f}")
    start, cpu_start = time.perf_counter(), thread_cpu()
    entry = run_job(job)
    wall, spent = time.perf_counter() - start, thread_cpu() - cpu_start
    st = entry["stats"]
    small = st["cells_after"]
    print(f"  shrink budget: {SHRINK_PATIENCE:g}x the last smaller board's check (first {job.cost:.2f} CPU s), "
          f"{SHRINK_CALLS} checks, {job.seconds:g} CPU s in all")
    print(f"  took {spent:.1f} CPU s, {wall:.1f} s wall, {st['calls']} calls"
          f"{', cut short: ' + st['stopped'] if st['cut_short'] else ''}")
    print(f"  {st['cells_before']} cells -> {small} cells (passes that helped: "
          f"{', '.join(f'{k} x{v}' for k, v in st['successes'].items())})")
    print(f"  shrunk to at most {TARGET} cells: {'met' if small <= TARGET else 'NOT met'}")
    print("  " + json.loads(entry["finding"])["board"].replace("\n", "\n  "))


if __name__ == "__main__":
    main()
