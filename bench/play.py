"""Benchmark: games per second per solver on Intermediate, side by side, and what the cross-check costs.

    python bench/play.py [--quick] [--games N] [--solvers NAMES]

Every solver plays the same Intermediate games (``minecheck.play.run.play_game``, a safe 3x3 first
click, seed 2024) in one process, game by game with the solvers taken in turn, so that a change in
the machine's load hits them all alike.  For each solver: games/s (games over the time its games
took: its decisions plus their cross-check), milliseconds per decision, and the share of that time
spent in the cross-check of decisions (one exact count of the view per decision, and judging its
moves).  The numbers are wall-clock time (a solver runs in a sandbox process of its own), so the
machine's load is printed beside them: on a shared machine they are what that load allowed.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from minecheck.model.budget import Budget
from minecheck.play.run import PlayConfig, play_game

SOLVERS = ("exact", "lookahead", "dpll@fixed", "ilp@fixed", "gibbs@fixed", "mineai@seed", "mineai@fixed",
           "satdemo@seed", "satdemo@fixed")


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 games per solver")
    parser.add_argument("--games", type=int, default=20, help="games per solver (default 20)")
    parser.add_argument("--solvers", default=",".join(SOLVERS), help="comma-separated players")
    args = parser.parse_args()
    games = 3 if args.quick else args.games
    names = [n.strip() for n in args.solvers.split(",") if n.strip()]
    config = PlayConfig(2024, tuple(names), "intermediate", budget=Budget(cpu=60.0))
    config.validate()
    spent = {n: [0.0, 0.0, 0, 0] for n in names}  # play s, check s, decisions, wins
    wall0, load0 = time.perf_counter(), load()
    for index in range(games):
        for name in names:
            record = play_game(config, name, index)
            row = spent[name]
            row[0] += record.play_seconds
            row[1] += record.check_seconds
            row[2] += len(record.turns)
            row[3] += record.won
    wall = time.perf_counter() - wall0
    print(f"Intermediate, {games} games per solver, one process, {wall:.0f} s; load {load0} -> {load()} "
          f"on {os.cpu_count()} cores")
    print(f"{'solver':>14} {'games/s':>9} {'ms/decision':>12} {'decisions/game':>15} {'check share':>12} {'won':>5}")
    for name in sorted(names, key=lambda n: -(games / max(1e-9, sum(spent[n][:2])))):
        play, check, decisions, wins = spent[name]
        total = play + check
        print(f"{name:>14} {games / total:9.2f} {1000 * total / max(1, decisions):12.1f} "
              f"{decisions / games:15.1f} {100 * check / total:11.1f}% {wins:>5}")


if __name__ == "__main__":
    main()
