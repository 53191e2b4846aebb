"""Benchmark: each hand-written solver's time per stuck position beside the exact counter's, in one run.

    python bench/solvers.py [--quick] [--timeout SECONDS]

On stuck Intermediate and Expert positions (``recipe('play', seed, level=...)``) every solver
runs on every position, in the local mode and, where it supports it, the global mode; the order
of the solvers is rotated from one position to the next, so that no solver always runs first or
last.  Each run is capped by ``run_solver(..., Budget(cpu=...))``: a run that hits the cap or raises
is a defect of the solver (expected of the seed variants), counted, and left out of its medians.
Medians are over the positions each solver answered; the exact counter's median is over the
same positions, and the ratio is taken position by position (solver time / exact time).
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from dataclasses import dataclass

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver

SOLVERS = ("exact", "ilp@seed", "ilp@fixed", "dpll@seed", "dpll@fixed", "gibbs@seed", "gibbs@fixed")
LEVELS = ("intermediate", "expert")


@dataclass(frozen=True)
class Run:
    level: str
    seed: int
    mode: Mode
    result: SolverResult
    covered: int  # covered cells of the position

    @property
    def outcome(self) -> str:
        """answered, capped (hit the timeout), raised (any other error) or declined."""
        if self.result.declined:
            return "declined"
        if self.result.error:
            return "capped" if self.result.error.startswith("Timeout") else "raised"
        return "answered"


def positions(quick: bool) -> list[tuple[str, int, Board]]:
    count = 6 if quick else 25
    return [(level, seed, generate_board(recipe("play", seed, level=level)))
            for level in LEVELS for seed in range(count)]


def warm_up(solvers: dict) -> None:
    """One untimed run of each solver on a small board: imports and first-call costs stay out of the numbers."""
    board = generate_board(recipe("play", 0, level="beginner"))
    for solver in solvers.values():
        for mode in solver.modes:
            run_solver(solver, board, mode, Budget(cpu=5.0))


def measure(boards: list[tuple[str, int, Board]], timeout: float) -> list[Run]:
    solvers = {name: get_solver(name) for name in SOLVERS}
    warm_up(solvers)
    runs = []
    for k, (level, seed, board) in enumerate(boards):
        order = SOLVERS[k % len(SOLVERS):] + SOLVERS[:k % len(SOLVERS)]
        for mode in (Mode.LOCAL, Mode.GLOBAL):
            for name in order:
                if mode in solvers[name].modes:
                    runs.append(Run(level, seed, mode, run_solver(solvers[name], board, mode, Budget(cpu=timeout)),
                                    len(board.covered)))
        print(f"  {level} seed={seed}: {len(board.covered)} covered cells", flush=True)
    return runs


def table(runs: list[Run]) -> None:
    exact = {(r.level, r.seed, r.mode): r.result.seconds for r in runs if r.result.solver == "exact"}
    print(f"\n{'level':13} {'mode':7} {'solver':12} {'answered':>9} {'capped':>7} {'raised':>7} "
          f"{'cells':>5} {'median':>10} {'exact':>9} {'ratio':>8} {'ratio range':>17}")
    for level in LEVELS:
        for mode in (Mode.LOCAL, Mode.GLOBAL):
            for name in SOLVERS:
                mine = [r for r in runs if r.level == level and r.mode == mode and r.result.solver == name]
                if not mine:
                    continue
                tally = {k: sum(1 for r in mine if r.outcome == k) for k in ("answered", "capped", "raised")}
                answered = [r for r in mine if r.outcome == "answered"]
                if not answered:
                    print(f"{level:13} {mode.value:7} {name:12} {0:>4}/{len(mine):<4} {tally['capped']:>7} "
                          f"{tally['raised']:>7} {'-':>5} {'-':>10} {'-':>9} {'-':>8}")
                    continue
                t = [r.result.seconds for r in answered]
                base = [exact[(r.level, r.seed, r.mode)] for r in answered]
                ratios = [a / b for a, b in zip(t, base)]
                cells = statistics.median(r.covered for r in answered)
                print(f"{level:13} {mode.value:7} {name:12} {len(answered):>4}/{len(mine):<4} {tally['capped']:>7} "
                      f"{tally['raised']:>7} {cells:>5g} {1000 * statistics.median(t):>8.1f}ms "
                      f"{1000 * statistics.median(base):>7.2f}ms {statistics.median(ratios):>7.1f}x "
                      f"{min(ratios):>8.1f}x-{max(ratios):.1f}x")
    print("\ncells = median covered cells of the positions answered; median = the solver's median time over them;"
          "\nexact = the exact counter's median on those same positions; ratio = median over those positions of"
          "\n(solver time / exact time), same run.  A solver that fails on the larger positions is timed on the"
          "\nsmaller ones only: compare its cells column with exact's.")


def defects(runs: list[Run]) -> None:
    """Which errors the capped and raising runs ended with (first words of each message)."""
    seen: dict[tuple[str, str], int] = {}
    for r in runs:
        if r.outcome in ("capped", "raised"):
            what = (r.result.error or "").split(" (at ")[0]
            if r.outcome == "raised":
                what = re.sub(r"\d+", "N", what)[:70]  # one line per kind of error, not per index
            key = (r.result.solver, what)
            seen[key] = seen.get(key, 0) + 1
    if seen:
        print("\nruns left out (capped or raised):")
        for (name, what), n in sorted(seen.items()):
            print(f"  {name:12} {n:>3}x  {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="6 positions per level instead of 25, a 2 s cap")
    parser.add_argument("--timeout", type=float, help="cap per solver run in seconds (default 5, quick 2)")
    args = parser.parse_args()
    timeout = args.timeout or (2.0 if args.quick else 5.0)
    start = time.perf_counter()
    boards = positions(args.quick)
    print(f"{len(boards)} stuck positions ({', '.join(LEVELS)}), every solver capped at {timeout:g} s per run")
    runs = measure(boards, timeout)
    table(runs)
    defects(runs)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
