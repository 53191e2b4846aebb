"""Every benchmark's headline, measured in one run and printed as one table with its target beside it.

    python bench/all.py [--quick] [--only NAME ...]

Each row comes from the same code as its own benchmark (bench/*.py, where the details are),
on fewer boards with --quick.  Times are the fastest of repeats where a row says so: a shared
machine only ever adds time.  ms_toollib's rows are skipped, with a note, when it is missing
(``pip install -e ".[toollib]"``); the Java row when there is no JDK.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks, for their measuring code

from minecheck.boards.generators import generate_board, recipe  # noqa: E402
from minecheck.engine.constraints import build_constraints  # noqa: E402
from minecheck.model.answers import Mode  # noqa: E402
from minecheck.references import minisat  # noqa: E402
from minecheck.references.model import models  # noqa: E402
from minecheck.running.discovery import get_solver  # noqa: E402
from minecheck.running.registry import run_solver  # noqa: E402


@dataclass(frozen=True)
class Row:
    what: str
    measured: str
    target: str
    met: bool | None  # None: no target, or not measured
    note: str = ""


def counter_vs_enumeration(quick: bool) -> list[Row]:
    import counter as bench

    from minecheck.engine.counter import count_component

    ratios, big = [], []
    for _, comp in bench.components(quick):
        start = time.perf_counter()
        cc = count_component(comp)
        spent = time.perf_counter() - start
        if len(comp.cells) >= 100:
            big.append(spent)
        if 1000 <= cc.layouts <= 300_000:
            enumerated = bench.enumerate_layouts(comp, 2.0 if quick else 10.0)
            if enumerated is not None:
                ratios.append(enumerated[1] / spent)
    rows = [Row("exact counter / plain enumeration", f"{statistics.median(ratios):.0f}x faster (median of "
                f"{len(ratios)} components)", "never enumerates", True)]
    if big:
        rows.append(Row("exact counter, components of 100+ cells", f"max {max(big) * 1000:.0f} ms ({len(big)})",
                        "well under 1 s", max(big) < 0.5))
    return rows


def counter_vs_toollib(quick: bool) -> list[Row]:
    import toollib as bench

    if bench.ms_toollib is None:
        return [Row("exact counter vs ms_toollib", "skipped", "-", None, "ms_toollib is not installed")]
    repeats = 3
    rows = []
    for level in ("beginner", "intermediate", "expert"):
        runs = [bench.time_board(n, b, repeats) for n, b in bench.play_positions(level, 30 if quick else 200)]
        ratio = statistics.median(r.minecheck for r in runs) / statistics.median(r.toollib for r in runs)
        rows.append(Row(f"exact counter / ms_toollib, {level} (median)", f"{ratio:.2f}x", "<= 1x", ratio <= 1))
    large = [bench.time_board(n, b, repeats) for n, b in bench.large_boards(8 if quick else 100)]
    worst = max(r.minecheck / r.toollib for r in large)
    rows.append(Row("exact counter / ms_toollib, 90-134-cell components (worst)", f"{worst:.2f}x ({len(large)})",
                    "<= 2x", worst <= 2))
    differ = sum(1 for r in large if r.mismatch)
    rows.append(Row("ms_toollib's probabilities differing from exact", f"{differ} of {len(large)} boards", "-",
                    None))
    return rows


def startup(quick: bool) -> list[Row]:
    """A small check from start to end, and the listing of every solver (issue 40: within 1 s on a quiet machine)."""
    rows = []
    for argv, target in ((["check", "H1H", "--references", "exact"], 0.15), (["solvers"], 1.0)):
        command = [str(Path(sys.executable).parent / "minecheck"), *argv]
        if not Path(command[0]).exists():
            command = [sys.executable, "-m", "minecheck.launch", *argv]
        times = []
        for _ in range(5 if quick else 15):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        rows.append(Row(f"start-up: minecheck {' '.join(argv)}", f"{median:.3f} s median, {min(times):.3f} s fastest",
                        f"<= {target:g} s", median <= target))
    return rows


def minisat_global(quick: bool) -> list[Row]:
    spent, ratio = [], []
    for seed in range(8 if quick else 24):
        board = generate_board(recipe("reveal", seed, width=30, height=16, density=99 / 480,
                                      open_prob=0.08 + 0.22 * (seed % 8) / 7))
        (model,) = models(build_constraints(board), Mode.GLOBAL)
        best = []
        for _ in range(2):
            minisat.backbone_solutions.cache_clear()
            start = time.perf_counter()
            minisat.backbone(model)
            best.append(time.perf_counter() - start)
        spent.append(min(best))
        start = time.perf_counter()
        run_solver(get_solver("exact"), board, Mode.GLOBAL)
        ratio.append(min(best) / (time.perf_counter() - start))
    return [Row("minisat, global, Expert size 8-30% open", f"{statistics.median(spent):.3f} s median, "
                f"{max(spent):.3f} s max ({len(spent)})", "<= 0.1 s", max(spent) <= 0.1,
                f"{statistics.median(ratio):.1f}x the exact counter")]


def backbone(quick: bool) -> list[Row]:
    import crosscheck as bench

    rows = bench.backbone_runs(bench.positions(2 if quick else 10), 1 if quick else 2, "stuck")
    rows += bench.backbone_runs(bench.revealed(1 if quick else 3), 1 if quick else 2, "revealed")
    ratio = bench.ratio(rows, "per-cell", "batched")
    return [Row("CBC backbone, per-cell / batched", f"{ratio:.1f}x ({len(rows)} position-modes)", ">= 4x",
                ratio >= 4)]


def crosscheck_cost(quick: bool) -> list[Row]:
    import crosscheck as bench

    from minecheck.running.catalogue import REFERENCES

    ratios, to_sum = [], []
    for _, _, board in bench.positions(2 if quick else 10):
        row: dict = {}
        singles = {name: get_solver(name) for name in REFERENCES}
        for _ in range(2):
            bench._references_only(board, row)
            bench._each_alone(board, row, singles)
        ratios.append(row["references"].wall / max(s.wall for s in row["alone"].values()))
        to_sum.append(row["references"].wall / sum(s.wall for s in row["alone"].values()))
    median = statistics.median(ratios)
    return [Row("cross-check (references) / slowest reference", f"{median:.2f}x median ({len(ratios)})", "<= 2x",
                median <= 2, f"{statistics.median(to_sum):.2f}x the sum of the {len(REFERENCES)} references alone")]


def jobs(quick: bool) -> list[Row]:
    import fuzz as bench

    boards = 8 if quick else 30
    ceiling = bench.machine_ratio()
    one = bench.campaign(bench.THROUGHPUT, boards, 1)
    two = bench.campaign(bench.THROUGHPUT, boards, 2)
    ratio = one["wall"] / two["wall"]
    return [Row("campaign boards/s, jobs 2 / jobs 1", f"{ratio:.2f}x ({boards} boards)", ">= 1.7x", ratio >= 1.7,
                f"the machine gave a pure-CPU loop {ceiling:.2f}x")]


def shrinking(quick: bool) -> list[Row]:
    import fuzz as bench

    from minecheck.campaigns.campaign import run_campaign
    from minecheck.check.findings import read_findings
    from minecheck.check.shrink import shrink

    with tempfile.TemporaryDirectory() as out:
        run_campaign(bench.SHRINKING, Path(out), boards=3 if quick else 10, jobs=2)
        picked, _ = bench.pick(read_findings(Path(out)))
    from minecheck.model.budget import Budget

    calls = [shrink(f, Budget(cpu=5.0), seconds=60.0).stats.calls for f in picked[: 4 if quick else 12]]
    median = statistics.median(calls)
    return [Row("shrink calls, Expert findings (median)", f"{median:g} ({len(calls)} findings)", "<= 150",
                median <= 150)]


def persistent(quick: bool) -> list[Row]:
    if not shutil.which("javac"):
        return [Row("Java example, persistent / one JVM per board", "skipped", ">= 5x", None, "no JDK")]
    import external as bench

    count = 10 if quick else 50
    spent, _, problems = bench.measure(count, 2024)
    one_jvm_each, persistent_jvm = (count / sum(times) for times in spent.values())
    ratio = persistent_jvm / one_jvm_each
    return [Row("Java example, persistent / one JVM per board", f"{ratio:.1f}x ({count} boards)", ">= 5x",
                ratio >= 5 and not problems, f"{len(problems)} failed calls" if problems else "")]


def isolation(quick: bool) -> list[Row]:
    import isolation as bench

    from minecheck.campaigns.fuzz import Config, board_recipe
    from minecheck.model.budget import Budget
    from minecheck.running.catalogue import FIXED_VARIANTS

    subjects = [s for s in FIXED_VARIANTS if not s.startswith("simplex")]
    boards = [generate_board(board_recipe(Config(seed=11), i)) for i in range(10 if quick else 40)]
    bench.timed(boards[0], subjects, Budget(cpu=10.0))
    extra, refs = [], []
    for board in boards:
        plain = min(bench.timed(board, subjects, None) for _ in range(2))
        isolated = min(bench.timed(board, subjects, Budget(cpu=10.0)) for _ in range(2))
        extra.append(isolated[0] - plain[0])
        refs.append(plain[2])
    share = statistics.median(extra) / statistics.median(refs)
    return [Row("isolation, extra time per board / references' time", f"{share:.2f} (median)", "small", None,
                f"{1000 * statistics.median(extra):.1f} ms a board")]


HEADLINES: dict[str, Callable[[bool], list[Row]]] = {
    "counter": counter_vs_enumeration, "toollib": counter_vs_toollib, "startup": startup,
    "minisat": minisat_global, "backbone": backbone, "crosscheck": crosscheck_cost, "jobs": jobs,
    "shrink": shrinking, "persistent": persistent, "isolation": isolation,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer boards and repeats")
    parser.add_argument("--only", nargs="*", choices=sorted(HEADLINES), help="just these headlines")
    args = parser.parse_args()
    rows, started = [], time.perf_counter()
    for name, headline in HEADLINES.items():
        if args.only and name not in args.only:
            continue
        start = time.perf_counter()
        try:
            got = headline(args.quick)
        except Exception as err:  # noqa: BLE001 - one broken bench must not hide the others
            got = [Row(name, f"failed: {type(err).__name__}: {err}", "-", False)]
        rows += got
        print(f"  {name}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    width = max(len(r.what) for r in rows)
    print(f"\n{'headline':{width}}  {'measured':40}  {'target':16}  status")
    for r in rows:
        status = {True: "met", False: "NOT met", None: "-"}[r.met]
        print(f"{r.what:{width}}  {r.measured:40}  {r.target:16}  {status}" + (f"  ({r.note})" if r.note else ""))
    missed = [r for r in rows if r.met is False]
    print(f"\n{len(rows) - len(missed)} of {len(rows)} rows without a miss; {time.perf_counter() - started:.0f} s"
          + (" (--quick)" if args.quick else ""))


if __name__ == "__main__":
    main()
