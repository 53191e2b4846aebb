"""Benchmark: what isolating every solver call costs per board, beside what the references cost.

    python bench/isolation.py [--quick]

The same boards (the campaign's default mix) are cross-checked with every solver run in-process
(no limits) and isolated in a sandbox (CPU budget, memory limit, idle stop), alternating board
by board so that both see the same load, each REPEATS times keeping the fastest (a shared
machine only ever adds time).  Printed: the median seconds per board of each, the extra cost per
board and per solver call, and that cost as a share of the references' own time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from minecheck.boards.generators import generate_board
from minecheck.campaigns.fuzz import Config, board_recipe
from minecheck.check.crosscheck import check_board
from minecheck.engine.constraints import build_constraints
from minecheck.model.budget import Budget
from minecheck.references import minisat
from minecheck.running.catalogue import FIXED_VARIANTS, REFERENCES

REPEATS = 3


def timed(board, subjects, limits) -> tuple[float, int, float]:
    """Seconds for one cross-check, the number of solver calls, and the references' own seconds in it."""
    build_constraints.cache_clear()
    minisat.backbone_solutions.cache_clear()
    start = time.perf_counter()
    checks = check_board(board, subjects, references=REFERENCES, budget=limits)
    spent = time.perf_counter() - start
    calls = sum(len(c.results) for c in checks)
    refs = sum(r.seconds for c in checks for r in c.results if r.solver in REFERENCES)
    return spent, calls, refs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="20 boards instead of 60")
    args = parser.parse_args()
    n = 20 if args.quick else 60
    config = Config(seed=11)
    boards = [generate_board(board_recipe(config, i)) for i in range(n)]
    subjects = [s for s in FIXED_VARIANTS if not s.startswith("simplex")]
    limits = Budget(cpu=10.0)
    timed(boards[0], subjects, limits)  # the sandbox forks once per solver on a worker's first board
    plain, isolated, calls, refs = [], [], [], []
    for board in boards:
        runs = [(timed(board, subjects, None), timed(board, subjects, limits)) for _ in range(REPEATS)]
        plain.append(min(a[0] for a, _ in runs))
        refs.append(min(a[2] for a, _ in runs))
        isolated.append(min(b[0] for _, b in runs))
        calls.append(runs[0][1][1])
    extra = [b - a for a, b in zip(plain, isolated)]
    print(f"{n} boards of the default mix; subjects {', '.join(subjects)}; references {', '.join(REFERENCES)}")
    print(f"{'':28}{'median':>10}{'mean':>10}")
    print(f"{'in-process, s/board':28}{statistics.median(plain):>10.4f}{statistics.mean(plain):>10.4f}")
    print(f"{'isolated, s/board':28}{statistics.median(isolated):>10.4f}{statistics.mean(isolated):>10.4f}")
    print(f"{'extra, s/board':28}{statistics.median(extra):>10.4f}{statistics.mean(extra):>10.4f}")
    print(f"{'references alone, s/board':28}{statistics.median(refs):>10.4f}{statistics.mean(refs):>10.4f}")
    per_call = sum(extra) / sum(calls)
    print(f"extra per solver call: {1000 * per_call:.2f} ms over {sum(calls)} calls")
    print(f"isolation / references' time (means): {statistics.mean(extra) / statistics.mean(refs):.2f}x; "
          f"isolated / in-process (means): {statistics.mean(isolated) / statistics.mean(plain):.2f}x")


if __name__ == "__main__":
    main()
