"""Benchmark: what the bubblewrap sandbox of ``cmd:`` programs and of Python solvers costs, beside the same runs
without it.

    python bench/sandboxes.py [--calls 40] [--boards 60]

Side by side in one run, alternating call by call so that both see the same load (the fastest of the
alternations kept for the start alone; medians for the calls):

* the start alone: ``bwrap OPTIONS -- /bin/true`` against ``/bin/true``;
* a one-shot program's call (a process per board, started under its guardian): a small Python program;
* a persistent program's call (one process, a JSON line per board);
* boards per second of a small campaign of a persistent program that answers with the exact counter (the
  best of three alternations);
* a Python solver that is not minecheck's own (``tests/programs/hostile_escape.py`` attacking nothing, named by
  a table that passes it MINECHECK_ESCAPE=none: it answers with the exact counter): making it and its first
  call (its sandboxes started: in the jail, a Python of its own), a call once its sandbox runs, and boards per
  second of a campaign of it.
The sandbox is switched off for the "without" runs by MINECHECK_SANDBOX=off (as a refused one would be): a
Python solver then runs in a sandbox forked from the worker.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.running import jail, sandbox
from minecheck.running.discovery import get_solver, resolve
from minecheck.running.external import ExternalSolver, Program
from minecheck.running.registry import run_solver

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "programs" / "hostile" / "escape.py"  # --how none: answers at once, claims nothing
EXACT = ROOT / "tests" / "programs" / "protocol_program.py"  # answers with minecheck's exact counter
sys.path.insert(0, str(ROOT / "tests" / "programs"))
os.environ["MINECHECK_ESCAPE"] = "none"  # passed on by its table (env = [...]): attacks nothing, answers as exact
PYTHON_SOLVER = __import__("hostile_escape").table()
BUDGET = Budget(cpu=10.0, idle=5.0)
MODES = {"with": "", "without": "off"}


def switched(mode: str) -> None:
    os.environ[jail.SWITCH] = MODES[mode]


def start_cost(repeats: int) -> dict[str, float]:
    """Median seconds to start and wait for /bin/true, in bwrap and not."""
    bwrap = jail.bwrap_path()
    argv = {"with": [bwrap, *jail._options(os.getcwd(), BUDGET.memory_mib), "--", "/bin/true"],
            "without": ["/bin/true"]}
    times = {mode: [] for mode in argv}
    for _ in range(repeats):
        for mode, words in argv.items():
            start = time.perf_counter()
            subprocess.run(words, check=True)
            times[mode].append(time.perf_counter() - start)
    return {mode: statistics.median(t) for mode, t in times.items()}


def call_cost(calls: int, persistent: bool) -> dict[str, float]:
    """Median seconds of one call of a small program (one-shot: a process per call), with and without."""
    board = parse_board("HHH\n121")
    command = shlex.join([sys.executable, str(SMALL), "--how", "none", *(["--persistent"] if persistent else [])])
    solvers = {}
    for mode in MODES:
        switched(mode)
        solvers[mode] = ExternalSolver(mode, Program.parse(command, persistent=persistent))
        solvers[mode].solve_limited(board, Mode.LOCAL, BUDGET)  # a persistent one started outside the count
    times = {mode: [] for mode in MODES}
    for _ in range(calls):
        for mode, solver in solvers.items():
            switched(mode)
            start = time.perf_counter()
            result = solver.solve_limited(board, Mode.LOCAL, BUDGET)
            times[mode].append(time.perf_counter() - start)
            assert result.error is None, result.error
    for solver in solvers.values():
        solver.close()
    return {mode: statistics.median(t) for mode, t in times.items()}


def campaign_speed(boards: int, repeats: int = 3) -> dict[str, float]:
    """Boards per second of a campaign (one worker) of the exact-answering program, persistent: the best of
    ``repeats`` alternations (a shared machine only ever slows a run down)."""
    command = "p=cmd:" + shlex.join([sys.executable, str(EXACT), "--persistent"])
    speed = {mode: 0.0 for mode in MODES}
    for _ in range(repeats):
        for mode in MODES:
            switched(mode)
            names, definitions = resolve([command], persistent=True)
            config = Config(5, names, ("exact",), "reveal", BUDGET, definitions=definitions)
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                run_campaign(config, Path(folder) / "run", boards=boards, jobs=1)
                speed[mode] = max(speed[mode], boards / (time.perf_counter() - start))
    return speed


def python_solver_cost(calls: int) -> tuple[dict[str, float], dict[str, float]]:
    """Median seconds of making a Python solver and its first call, and of a later call, with and without."""
    board = parse_board("HHH\n121")
    first = {mode: [] for mode in MODES}
    later = {mode: [] for mode in MODES}
    for _ in range(max(3, calls // 8)):
        for mode in MODES:
            switched(mode)
            start = time.perf_counter()
            solver = get_solver(PYTHON_SOLVER)
            assert run_solver(solver, board, Mode.LOCAL, budget=BUDGET).error is None
            first[mode].append(time.perf_counter() - start)
            for _ in range(8):
                start = time.perf_counter()
                assert run_solver(solver, board, Mode.LOCAL, budget=BUDGET).error is None
                later[mode].append(time.perf_counter() - start)
            sandbox.close_all()
    return ({mode: statistics.median(t) for mode, t in first.items()},
            {mode: statistics.median(t) for mode, t in later.items()})


def python_campaign_speed(boards: int, repeats: int = 3) -> dict[str, float]:
    """Boards per second of a campaign (one worker) of the Python solver: the best of ``repeats`` alternations."""
    speed = {mode: 0.0 for mode in MODES}
    for _ in range(repeats):
        for mode in MODES:
            switched(mode)
            config = Config(5, (PYTHON_SOLVER,), ("exact",), "reveal", BUDGET)
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                run_campaign(config, Path(folder) / "run", boards=boards, jobs=1)
                speed[mode] = max(speed[mode], boards / (time.perf_counter() - start))
    return speed


def row(what: str, values: dict[str, float], unit: str, scale: float = 1.0) -> None:
    ratio = values["with"] / values["without"]
    print(f"{what:<34} {values['with'] * scale:>9.2f} {values['without'] * scale:>9.2f} {unit:<10} x{ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--boards", type=int, default=60)
    args = parser.parse_args()
    switched("with")
    if not jail.status().active:
        raise SystemExit(f"no sandbox to measure here: {jail.status().refused}")
    print(f"bwrap: {jail.bwrap_path()}; {os.cpu_count()} cores, calls {args.calls}, boards {args.boards}")
    print(f"{'':<34} {'with':>9} {'without':>9} {'':<10} ratio")
    row("start of /bin/true", start_cost(args.calls), "ms", 1000)
    row("one-shot program, per call", call_cost(args.calls, persistent=False), "ms", 1000)
    row("persistent program, per call", call_cost(args.calls, persistent=True), "ms", 1000)
    row("campaign of a persistent program", campaign_speed(args.boards), "boards/s")
    first, later = python_solver_cost(args.calls)
    row("Python solver, made + first call", first, "ms", 1000)
    row("Python solver, per call", later, "ms", 1000)
    row("campaign of a Python solver", python_campaign_speed(args.boards), "boards/s")


if __name__ == "__main__":
    main()
