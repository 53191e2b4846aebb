"""Benchmark: minecheck's exact counter against ms_toollib's probability engine, side by side in one run.

    python bench/toollib.py [--quick] [--seed S] [--stages]

Both engines take the board as the user has it and give every covered cell's mine probability
in the global mode (the total mine count known):

* minecheck: ``count_board(board, Mode.GLOBAL)`` on a fresh ``Board`` with the constraint cache
  cleared, so reading the digits is timed too;
* ms_toollib: converting the board to its nested lists (0-8 opened, 10 covered, 11 flagged;
  ``minecheck.solvers.toollib.game_board``) plus ``cal_probability_onboard(board, total_mines)``.

The sets: stuck play positions (``recipe("play", seed, level=...)``, seeds 0-199, or 0-39 with
--quick) and stress boards (30x16, density 0.2 and 0.25, open_prob 0.1-0.3, seeds 0-99, or 0-11)
whose largest component has 90-134 cells; ``--seed S`` starts both runs of seeds at S instead of 0,
for positions the counter was never tuned on; the full run adds, beyond the targets, the first eight
``recipe("stress", seed)`` boards (one component of about 300 cells).  Each board is timed 5
times per engine (3 with --quick), alternating, and the fastest run counts.

The targets (issue 12): minecheck's median at most ms_toollib's on the stuck play positions of
each level; minecheck within 2x of ms_toollib on every board of the large-component set.  Every
board where the two engines' probabilities differ by more than 1e-9 is printed in full.

``--stages`` prints, before the table, what one call on a stuck Beginner position costs per stage of
the counter (``minecheck.engine.counter.STAGES``), in microseconds and as shares of the whole.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board
from minecheck.solvers.toollib import game_board  # the adapter's encoding: 10 covered, 11 flagged

try:
    import ms_toollib
except ImportError:  # the optional extra ``toollib``
    ms_toollib = None

AGREE = 1e-9  # the largest difference between the engines' probabilities counted as agreement
LARGE = (90, 134)  # cells in the largest component of a board of the large-component set
TARGET_MEDIAN = 1.0  # minecheck / ms_toollib, at the median of each level
TARGET_WORST = 2.0  # minecheck / ms_toollib, on every large-component board


@dataclass(frozen=True)
class Timing:
    name: str
    board: Board
    minecheck: float
    toollib: float | None
    mismatch: str | None  # what differs between the engines, None when they agree


def run_minecheck(board: Board):
    fresh = Board(board.width, board.height, board.cells, board.total_mines)
    build_constraints.cache_clear()
    start = time.perf_counter()
    count = count_board(fresh, Mode.GLOBAL)
    return time.perf_counter() - start, count


def run_toollib(board: Board):
    start = time.perf_counter()
    try:
        probs = ms_toollib.cal_probability_onboard(game_board(board), float(board.total_mines))[0]
    except RuntimeError as err:  # ms_toollib's "no solution" errors
        probs = err
    return time.perf_counter() - start, probs


def mismatch(board: Board, count, probs) -> str | None:
    """How ms_toollib's probabilities differ from the exact ones (covered cells), or None."""
    if isinstance(probs, Exception):
        return f"ms_toollib raised {type(probs).__name__}: {probs}; minecheck: consistent={count.consistent}"
    if not count.consistent:
        return f"minecheck: inconsistent ({count.reason}); ms_toollib gave probabilities"
    w, diffs = board.width, []
    for cell, p in count.probabilities:
        theirs = probs[cell // w][cell % w]
        if abs(float(p) - theirs) > AGREE:
            diffs.append(f"r{cell // w}c{cell % w}: exact {p} = {float(p):.12g}, ms_toollib {theirs:.12g}")
    if not diffs:
        return None
    return f"{len(diffs)} cells differ: " + "; ".join(diffs[:8]) + (" ..." if len(diffs) > 8 else "")


def time_board(name: str, board: Board, repeats: int) -> Timing:
    ours, theirs = [], []
    count = probs = None
    for _ in range(repeats):
        t, count = run_minecheck(board)
        ours.append(t)
        if ms_toollib is not None:
            t, probs = run_toollib(board)
            theirs.append(t)
    diff = mismatch(board, count, probs) if ms_toollib is not None else None
    return Timing(name, board, min(ours), min(theirs) if theirs else None, diff)


def play_positions(level: str, n: int, first: int = 0) -> list[tuple[str, Board]]:
    return [(f"play level={level} seed={s}", generate_board(recipe("play", s, level=level)))
            for s in range(first, first + n)]


def large_boards(seeds: int, first: int = 0) -> list[tuple[str, Board]]:
    """Stress boards (30x16) whose largest component has 90-134 cells: loose, wide components."""
    out = []
    for seed in range(first, first + seeds):
        for density in (0.2, 0.25):
            for open_prob in (0.1, 0.2, 0.3):
                rec = recipe("stress", seed, density=density, open_prob=open_prob)
                board = generate_board(rec)
                largest = max((len(c.cells) for c in build_constraints(board).components), default=0)
                if LARGE[0] <= largest <= LARGE[1]:
                    out.append((f"{rec.describe()} largest={largest}", board))
    return out


def huge_boards(seeds: int) -> list[tuple[str, Board]]:
    """Stress boards as ``recipe("stress", seed)`` makes them: one component of about 300 cells."""
    return [(f"stress seed={s}", generate_board(recipe("stress", s))) for s in range(seeds)]


def print_stages(boards: list[Board], rounds: int = 30, repeats: int = 10) -> None:
    """Per stage of the counter (``STAGES``, each fed what the stage before gave): its time on each board,
    the fastest of ``rounds`` rounds of ``repeats`` calls, then the mean and median over the boards."""
    from minecheck.engine.counter import STAGES  # only here: the run without stages times any minecheck
    per_stage: dict[str, list[float]] = {name: [] for name, _ in STAGES}
    for board in boards:
        value = Board(board.width, board.height, board.cells, board.total_mines)
        for name, stage in STAGES:
            fastest = math.inf
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(repeats):
                    stage(value)
                fastest = min(fastest, (time.perf_counter() - start) / repeats)
            per_stage[name].append(fastest)
            value = stage(value)
    total = sum(statistics.fmean(ts) for ts in per_stage.values())
    print(f"\na call on a stuck Beginner position, per stage ({len(boards)} positions; microseconds)")
    print(f"{'stage':32} {'mean':>8} {'median':>8} {'share':>6}")
    for name, ts in per_stage.items():
        mean = statistics.fmean(ts)
        print(f"{name:32} {1e6 * mean:8.1f} {1e6 * statistics.median(ts):8.1f} {mean / total:6.0%}")
    print(f"{'all':32} {1e6 * total:8.1f}")


def ms(t: float | None) -> str:
    return f"{'-':>10}" if t is None else f"{1000 * t:10.3f}"


def ratio(a: float, b: float | None) -> str:
    return f"{'-':>7}" if b is None else f"{a / b:6.2f}x"


def row(title: str, boards: int, ours: float, theirs: float | None, target: float | None = None) -> bool:
    """One line of the table; True unless a target is given and missed."""
    line = f"{title:44} {boards:>6} {ms(ours)} {ms(theirs)} {ratio(ours, theirs)}"
    if target is None or theirs is None:
        print(line)
        return True
    met = ours / theirs <= target
    print(f"{line}   <= {target:.1f}x {'met' if met else 'NOT MET'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer boards and repeats (under a minute)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed of the play positions and the "
                        "stress boards (default 0): another start gives positions the counter was not tuned on")
    parser.add_argument("--stages", action="store_true", help="first, the cost of a call per stage of the counter")
    args = parser.parse_args()
    plays, seeds, repeats = (40, 12, 3) if args.quick else (200, 100, 5)
    print(f"load average: {open('/proc/loadavg').read().strip()}" if Path("/proc/loadavg").exists() else "")
    if ms_toollib is None:
        print("note: ms_toollib is not installed (pip install ms_toollib): its columns and the targets are skipped")
    if args.stages:
        print_stages([b for _, b in play_positions("beginner", plays, args.seed)])

    levels = {lv: [time_board(n, b, repeats) for n, b in play_positions(lv, plays, args.seed)]
              for lv in ("beginner", "intermediate", "expert")}
    large = [time_board(n, b, repeats) for n, b in large_boards(seeds, args.seed)]
    huge = [] if args.quick else [time_board(n, b, 1) for n, b in huge_boards(8)]

    def theirs(rows: list[Timing], summary: Callable[[list[float]], float]) -> float | None:
        return summary([r.toollib for r in rows]) if ms_toollib is not None else None

    median = statistics.median
    print(f"\n{'set (times in ms; ratio = minecheck / ms_toollib)':44} {'boards':>6} {'minecheck':>10} "
          f"{'ms_toollib':>10} {'ratio':>7}   target")
    met = [row(f"stuck {lv} positions, median", len(rows), median([r.minecheck for r in rows]),
               theirs(rows, median), TARGET_MEDIAN) for lv, rows in levels.items()]
    if large:
        print(f"stress boards whose largest component has {LARGE[0]}-{LARGE[1]} cells:")
        if ms_toollib is not None:
            worst = max(large, key=lambda r: r.minecheck / r.toollib)
            met.append(row("  the worst ratio", 1, worst.minecheck, worst.toollib, TARGET_WORST))
            print(f"    ({worst.name})")
        row("  median", len(large), median([r.minecheck for r in large]), theirs(large, median))
        slowest = max(large, key=lambda r: r.minecheck)
        row("  the slowest for minecheck", 1, slowest.minecheck, slowest.toollib)
        print(f"    ({slowest.name})")
        row("  all, total", len(large), sum(r.minecheck for r in large), theirs(large, sum))
    if huge:
        print("beyond the targets: stress boards with one ~300-cell component (one run each)")
        for r in huge:
            row(f"  {r.name}", 1, r.minecheck, r.toollib)

    everything = [r for rows in levels.values() for r in rows] + large + huge
    differ = [r for r in everything if r.mismatch]
    if ms_toollib is not None:
        print(f"\nboards where ms_toollib's probabilities differ from the exact ones by more than {AGREE:g}: "
              f"{len(differ)} of {len(everything)}")
        for r in differ:
            print(f"\n# {r.name}\n# {r.mismatch}\n{format_board(r.board)}")
        print("\nall targets met" if all(met) else "\nsome targets NOT met")


if __name__ == "__main__":
    main()
