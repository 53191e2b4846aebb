"""Benchmark: the Java example solver one JVM per board (``cmd:``) against persistent mode, side by side in one run.

    python bench/external.py [--quick] [--seed N]

The example (``examples/java/MineSolver.java``) is compiled into ``examples/java/build``, then run
on the same boards - the campaign's default mix for the seed, each board in every mode it allows,
as a campaign checks it - two ways: ``cmd:`` starts a JVM per call, persistent mode starts one JVM
(as a campaign does once per worker) and sends it a JSON request per line.  Only the solver calls
are timed (``run_solver`` with the campaign's limits, wall clock), not the references; the two ways
alternate board by board, so that a change in the machine's load hits both, and the persistent
JVM's start is counted in its time.  Every answer is checked to be the same both ways.
Target: persistent at least 5x the boards/s of ``cmd:``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from minecheck.boards.generators import generate_board
from minecheck.campaigns.fuzz import Config, board_recipe
from minecheck.check.crosscheck import modes_for
from minecheck.model.budget import Budget
from minecheck.running.discovery import build, get_solver, lookup
from minecheck.running.registry import run_solver

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "java"
TARGET = 5.0  # persistent boards/s over cmd: boards/s
BUDGET = Budget(cpu=30)


def compile_example() -> Path:
    """javac the example into examples/java/build; its class path."""
    if not shutil.which("javac") or not shutil.which("java"):
        sys.exit("javac and java (JDK 17) are needed to run the Java example")
    out = EXAMPLE / "build"
    done = subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(out), str(EXAMPLE / "MineSolver.java")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    return out


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def measure(count: int, seed: int) -> tuple[dict[str, list[float]], dict[str, list[tuple]], list[str]]:
    """Each way's seconds per call, its answers, and the calls that failed, on the same ``count`` boards."""
    command = "cmd:" + shlex.join(["java", "-cp", str(compile_example()), "MineSolver"])
    ways = {"cmd: (a JVM per call)": get_solver(command),
            "persistent (one JVM)": build(lookup(command, persistent=True))}
    boards = [generate_board(board_recipe(Config(seed=seed), i)) for i in range(count)]
    spent: dict[str, list[float]] = {way: [] for way in ways}
    answers: dict[str, list[tuple]] = {way: [] for way in ways}
    problems = []
    for i, board in enumerate(boards):
        order = list(ways) if i % 2 == 0 else list(reversed(ways))
        for way in order:
            for mode in modes_for(board):
                start = time.perf_counter()
                result = run_solver(ways[way], board, mode, budget=BUDGET)
                spent[way].append(time.perf_counter() - start)
                answers[way].append((result.consistent, tuple((a.cell, a.verdict) for a in result.cells)))
                if result.error:
                    problems.append(f"board {i} {mode.value} {way}: {result.error}")
    ways["persistent (one JVM)"].close()
    return spent, answers, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 boards instead of 50")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    count = 10 if args.quick else 50
    print(f"the Java example on {count} boards of the default mix (seed {args.seed}), every mode of each board; "
          f"machine load {load()} at the start")
    spent, answers, problems = measure(count, args.seed)

    print(f"  {'way':24} {'calls':>5} {'seconds':>8} {'boards/s':>9} {'first call':>11} {'median call':>12}")
    rate = {}
    for way, times in spent.items():
        rate[way] = count / sum(times)
        print(f"  {way:24} {len(times):>5} {sum(times):8.2f} {rate[way]:9.2f} {times[0] * 1000:9.0f}ms "
              f"{statistics.median(times) * 1000:10.1f}ms")
    cmd_rate, persistent_rate = rate.values()
    ratio = persistent_rate / cmd_rate
    verdict = "met" if ratio >= TARGET else "NOT met"
    print(f"  persistent / cmd: boards/s = {ratio:.1f}x -> target (>= {TARGET:g}x) {verdict}; "
          f"machine load {load()} at the end")
    same = answers["cmd: (a JVM per call)"] == answers["persistent (one JVM)"]
    print(f"  answers the same both ways: {'yes' if same else 'NO'}; failed calls: {len(problems)}")
    for line in problems[:10]:
        print("    " + line)
    if problems or not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
