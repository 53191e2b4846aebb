"""Benchmark: the cross-check of a board - its throughput, CBC's batched backbone, its cost beside its references.

    python bench/crosscheck.py [--quick] [--timeout SECONDS]

On stuck Intermediate and Expert positions (``recipe('play', seed, level=...)``), in one run:

(a) the full cross-check (``check_board`` with every subject, references exact, cbc, minisat, both
    modes): boards/s, and where the time goes per solver (``SolverResult.seconds`` summed), the
    simplex relaxations (simplex variants and CBC's LP calls) and the rest (comparisons).  Each
    solver run is capped (``--timeout``) so that dpll@seed cannot dominate; the capped runs are counted.
(b) the CBC backbone per position, three ways: batched (``cbc``: layouts from an in-process SAT
    search, each checked, answer the "yes"es; one CBC call proves the questions they leave "no"),
    CBC-only (the same with no SAT layouts: CBC finds every layout, maximising the questions each
    call flips) and per-cell (``cbc:per-cell``: one call per open question, reusing every layout
    CBC found).  On the stuck positions nothing is determined, so batched rarely needs CBC at
    all; the revealed boards (each level's size and density, half the safe cells open) have
    hundreds of determined cells, so there CBC has "no"s to prove.  Both modes; the order rotated
    per position and repeated; a position's time is the least of its repeats (the least
    disturbed).  Target: batched at least 4x faster than per-cell.  Then the ratio by how many
    CBC calls batched made, and where a call's time goes (model building, MPS writing, the CBC
    process, reading the solution).
(c) the cross-check against its slowest reference: ``check_board`` with no subjects (the
    references and their comparisons, both modes) against the slowest single reference run
    alone on the same board (both modes).  Target: at most 2x.  Also the full check of (a)
    against the same slowest reference, for scale.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import time
import types
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import pulp
from pulp.apis import coin_api

import minecheck.check.crosscheck as crosscheck
import minecheck.check.lpcheck as lpcheck
import minecheck.references.cbc as cbc
import minecheck.references.minisat as minisat
from minecheck.boards.generators import LEVELS as LEVELS_SIZE
from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.engine.constraints import build_constraints
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.references.model import models
from minecheck.running.catalogue import REFERENCES
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver

SUBJECTS = ("ilp@seed", "ilp@fixed", "dpll@seed", "dpll@fixed", "gibbs@seed", "gibbs@fixed",
            "simplex@seed", "simplex@fixed")
LEVELS = ("intermediate", "expert")
MODES = (Mode.LOCAL, Mode.GLOBAL)


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


class Stopwatch:
    """Time spent inside chosen functions, summed by name; the functions are wrapped while it is on."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def reset(self) -> None:
        self.spent.clear()
        self.calls.clear()

    @contextmanager
    def on(self, *targets: tuple[object, str, str]):
        """targets: (owner, attribute, name); each attribute is replaced by a timed wrapper, then restored."""
        saved = []
        for owner, attribute, name in targets:
            original = getattr(owner, attribute)
            saved.append((owner, attribute, original))
            setattr(owner, attribute, self._timed(original, name))
        try:
            yield self
        finally:
            for owner, attribute, original in reversed(saved):
                setattr(owner, attribute, original)

    def _timed(self, original, name: str):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.spent[name] += time.perf_counter() - start
                self.calls[name] += 1
        return timed


class TimedPopen(subprocess.Popen):
    """CBC's process from its start to its end (PuLP starts it, then waits for it)."""

    watch: Stopwatch | None = None

    def __init__(self, *args, **kwargs):
        self.started = time.perf_counter()
        super().__init__(*args, **kwargs)

    def wait(self, timeout=None):
        code = super().wait(timeout)
        if self.watch is not None:
            self.watch.spent["process"] += time.perf_counter() - self.started
            self.watch.calls["process"] += 1
        return code


class CbcOnly:
    """``cbc`` with no SAT layouts: CBC finds every layout itself - what the batching alone is worth."""

    def __init__(self) -> None:
        self.inner = get_solver("cbc")
        self.name, self.answers, self.modes = "cbc (CBC only)", self.inner.answers, self.inner.modes

    def solve(self, board: Board, mode: Mode):
        saved, cbc.WITNESS_LIMIT = cbc.WITNESS_LIMIT, -1
        try:
            return self.inner.solve(board, mode)
        finally:
            cbc.WITNESS_LIMIT = saved


def backbones() -> dict[str, object]:
    return {"batched": get_solver("cbc"), "CBC-only": CbcOnly(), "per-cell": get_solver("cbc:per-cell")}


# -- clocks ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Spent:
    """Wall time, and CPU time of this process plus the processes it waited for (CBC), of one call.

    On a machine shared with other work, wall time counts the waits for a core; CPU time does not.
    """

    wall: float
    cpu: float


def cpu_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cold() -> None:
    """Forget what earlier runs cached (the constraint system, the SAT search): every timed run
    starts as a campaign's new board does."""
    build_constraints.cache_clear()
    minisat.backbone_solutions.cache_clear()


def clocked(call, *args, **kwargs):
    """call(*args, **kwargs), started cold, and what it spent."""
    cold()
    wall, cpu = time.perf_counter(), cpu_now()
    out = call(*args, **kwargs)
    return out, Spent(time.perf_counter() - wall, cpu_now() - cpu)


def least(old: Spent | None, new: Spent) -> Spent:
    """The least of repeats, wall and CPU each: the least disturbed run."""
    return new if old is None else Spent(min(old.wall, new.wall), min(old.cpu, new.cpu))


def ratio(rows: list[dict], slow: str, fast: str, clock: str = "wall") -> float:
    """The median over rows of slow's time / fast's time on the same position."""
    return median([getattr(r["time"][slow], clock) / getattr(r["time"][fast], clock) for r in rows])


# -- (a) and (c): the cross-check and its references, board by board ----------------------------

def _full(board: Board, row: dict, timeout: float, watch: Stopwatch) -> None:
    watch.reset()
    checks, row["full"] = clocked(check_board, board, SUBJECTS, budget=Budget(cpu=timeout))
    row["relaxations"] = watch.spent["relaxations"]
    row["relaxations: CBC LP"] = watch.spent["relaxations: CBC LP"]
    row["results"] = [r for c in checks for r in c.results]


def _references_only(board: Board, row: dict) -> None:
    row["references"] = least(row.get("references"), clocked(check_board, board, [])[1])


def _each_alone(board: Board, row: dict, singles: dict) -> None:
    alone = row.setdefault("alone", {})
    for name, s in singles.items():
        alone[name] = least(alone.get(name), clocked(lambda s=s: [run_solver(s, board, m) for m in MODES])[1])


def crosscheck_runs(boards, timeout: float, repeats: int) -> list[dict]:
    """Per board, in a rotated order: the full check once; the references-only check and each reference alone,
    ``repeats`` times each."""
    watch = Stopwatch()
    singles = {name: get_solver(name) for name in REFERENCES}
    rows = []
    targets = ((crosscheck, "check_relaxations", "relaxations"), (lpcheck, "cbc_lp", "relaxations: CBC LP"))
    with watch.on(*targets):
        for k, (level, seed, board) in enumerate(boards):
            row: dict = {"level": level, "seed": seed}
            steps = [partial(_full, board, row, timeout, watch)]
            steps += [partial(_references_only, board, row), partial(_each_alone, board, row, singles)] * repeats
            turn = k % len(steps)
            for step in steps[turn:] + steps[:turn]:
                step()
            rows.append(row)
            print(f"  {level} seed={seed}: full {row['full'].wall:.2f} s, "
                  f"references {1000 * row['references'].wall:.0f} ms", flush=True)
    return rows


def report_throughput(rows: list[dict], timeout: float) -> None:
    print(f"\n(a) full cross-check: {len(SUBJECTS)} subjects + {', '.join(REFERENCES)}, both modes, "
          f"each solver run capped at {timeout:g} s")
    for level in (*LEVELS, "all"):
        mine = [r for r in rows if level in ("all", r["level"])]
        wall, cpu = sum(r["full"].wall for r in mine), sum(r["full"].cpu for r in mine)
        print(f"  {level:13} {len(mine):>3} boards in {wall:6.1f} s: {len(mine) / wall:.2f} boards/s, "
              f"median {median([r['full'].wall for r in mine]):.2f} s per board "
              f"(CPU {cpu:.1f} s: {len(mine) / cpu:.2f} boards per CPU-second)")
    spent: dict[str, float] = defaultdict(float)
    capped: dict[str, int] = defaultdict(int)
    raised: dict[str, int] = defaultdict(int)
    for r in rows:
        for res in r["results"]:
            spent[res.solver] += res.seconds
            if res.error and res.error.startswith("Timeout"):
                capped[res.solver] += 1
            elif res.error:
                raised[res.solver] += 1
    total = sum(r["full"].wall for r in rows)
    wasted = sum(res.seconds for r in rows for res in r["results"] if res.error and res.error.startswith("Timeout"))
    print(f"  without the {sum(capped.values())} runs that hit the cap ({wasted:.1f} s): "
          f"{len(rows) / (total - wasted):.2f} boards/s")
    relax = sum(r["relaxations"] for r in rows)
    relax_cbc = sum(r["relaxations: CBC LP"] for r in rows)
    parts = sorted(spent.items(), key=lambda kv: -kv[1])
    parts += [("simplex relaxations: CBC LP", relax_cbc), ("simplex relaxations: simplex", relax - relax_cbc),
              ("comparisons, other", total - sum(spent.values()) - relax)]
    print(f"  {'where the (wall) time went':30} {'seconds':>8} {'share':>6} {'capped':>7} {'raised':>7}")
    for name, s in parts:
        print(f"  {name:30} {s:8.1f} {100 * s / total:5.1f}% {capped.get(name, ''):>7} {raised.get(name, ''):>7}")


def report_against_references(rows: list[dict], repeats: int) -> None:
    print(f"\n(c) the cross-check against its slowest reference alone (both modes each, same board; least of "
          f"{repeats} repeats)")
    print(f"  {'board':20} {'slowest':>7} {'alone':>8} {'refs+cmp':>9} {'ratio':>6} {'CPU ratio':>9} "
          f"{'full check':>10} {'ratio':>6} {'CPU ratio':>9}")
    ratios: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        name, slowest = max(r["alone"].items(), key=lambda kv: kv[1].wall)
        cpu_slowest = max(s.cpu for s in r["alone"].values())
        got = {"wall": r["references"].wall / slowest.wall, "cpu": r["references"].cpu / cpu_slowest,
               "full wall": r["full"].wall / slowest.wall, "full cpu": r["full"].cpu / cpu_slowest}
        for key, x in got.items():
            ratios[key].append(x)
        print(f"  {r['level'] + ' seed=' + str(r['seed']):20} {name:>7} {1000 * slowest.wall:6.0f}ms "
              f"{1000 * r['references'].wall:7.0f}ms {got['wall']:5.2f}x {got['cpu']:8.2f}x "
              f"{r['full'].wall:9.2f}s {got['full wall']:5.1f}x {got['full cpu']:8.1f}x")
    for clock in ("wall", "cpu"):
        xs = ratios[clock]
        within = sum(1 for x in xs if x <= 2)
        print(f"  references + comparisons / slowest reference ({clock}): median {median(xs):.2f}x, max "
              f"{max(xs):.2f}x, {within}/{len(xs)} boards within 2x -> target (<= 2x) "
              f"{'met' if median(xs) <= 2 else 'NOT met'}")
    uncapped = [(r["full"].wall - sum(x.seconds for x in r["results"] if x.error and x.error.startswith("Timeout")))
                / max(r["alone"].values(), key=lambda x: x.wall).wall for r in rows]
    print(f"  full check with all {len(SUBJECTS)} subjects / slowest reference: median "
          f"{median(ratios['full wall']):.1f}x wall, {median(ratios['full cpu']):.1f}x CPU; without the time of "
          f"runs that hit the cap {median(uncapped):.1f}x wall (for scale; no target)")


# -- (b): the backbone, batched against per-cell --------------------------------------------------

def backbone_runs(boards, repeats: int, kind: str) -> list[dict]:
    """Per position and mode: each variant `repeats` times in a rotated order; the least time kept."""
    variants = backbones()
    names = list(variants)
    watch = Stopwatch()
    TimedPopen.watch = watch
    targets = ((pulp.LpProblem, "solve", "solve"), (pulp.LpProblem, "writeMPS", "write MPS"),
               (coin_api.COIN_CMD, "readsol_MPS", "read solution"))
    shim = types.SimpleNamespace(**{**vars(subprocess), "Popen": TimedPopen})
    rows = []
    original_subprocess = coin_api.subprocess
    coin_api.subprocess = shim
    try:
        with watch.on(*targets):
            for k, (level, seed, board) in enumerate(boards):
                for mode in MODES:
                    row: dict = {"kind": kind, "level": level, "seed": seed, "mode": mode, "time": {}, "parts": {}}
                    answers = {}
                    for rep in range(repeats):
                        turn = (k + rep) % len(names)
                        for name in names[turn:] + names[:turn]:
                            watch.reset()
                            res, spent = clocked(run_solver, variants[name], board, mode)
                            if res.error:
                                raise RuntimeError(f"{name} failed on {level} seed={seed}: {res.error}")
                            old = row["time"].get(name)
                            if old is None or spent.wall < old.wall:
                                row["parts"][name] = (dict(watch.spent), dict(watch.calls), spent.wall)
                            row["time"][name] = least(old, spent)
                            answers[name] = [(a.cell, a.verdict) for a in res.cells]
                    row["agree"] = len({tuple(a) for a in answers.values()}) == 1
                    all_models = models(build_constraints(board), mode)
                    row["questions"] = sum(len(m.cells) + bool(m.off_cells) for m in all_models) + len(all_models)
                    rows.append(row)
            print(f"  {len(rows)} position-modes", flush=True)
    finally:
        coin_api.subprocess = original_subprocess
        TimedPopen.watch = None
    return rows


def bare_process_start(times: int = 20) -> float:
    """The CBC binary started and stopped with no model: the floor of any CBC call."""
    path = cbc._cbc().path
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        subprocess.run([path, "-quit"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        spent.append(time.perf_counter() - start)
    return median(spent)


VARIANTS = ("batched", "CBC-only", "per-cell")
PAIRS = (("per-cell", "batched"), ("per-cell", "CBC-only"))
KINDS = ("stuck", "revealed")


def calls(row: dict, name: str) -> int:
    """CBC calls the variant made on this position (in its least disturbed repeat)."""
    return row["parts"][name][1].get("solve", 0)


def report_backbones(rows: list[dict], repeats: int) -> None:
    print(f"\n(b) CBC backbone per position (least of {repeats} interleaved repeat(s)); a ratio is the median over"
          "\n    positions of the per-position ratio, by wall time and by CPU time (this process + CBC's);"
          "\n    calls: median (max) CBC calls per position")
    print(f"  {'kind':8} {'level':12} {'mode':6} {'n':>3} " + " ".join(f"{n:>16}" for n in VARIANTS) + " "
          + " ".join(f"{a + '/' + b:>19}" for a, b in PAIRS))
    print(f"  {'':33}" + " ".join(f"{'wall':>8} {'calls':>7}" for _ in VARIANTS) + " "
          + " ".join(f"{'wall':>9} {'CPU':>9}" for _ in PAIRS))
    groups = [(k, lv, m) for k in KINDS for lv in LEVELS for m in MODES]
    groups += [(k, "all", m) for k in KINDS for m in MODES] + [(k, "all", None) for k in (*KINDS, "all")]
    for kind, level, mode in groups:
        mine = [r for r in rows if kind in ("all", r["kind"]) and level in ("all", r["level"])
                and mode in (None, r["mode"])]
        if not mine:
            continue
        print(f"  {kind:8} {level:12} {mode.value if mode else 'both':6} {len(mine):>3} "
              + " ".join(f"{1000 * median([r['time'][n].wall for r in mine]):6.1f}ms "
                         f"{median([calls(r, n) for r in mine]):>3g}({max(calls(r, n) for r in mine):>3})"
                         for n in VARIANTS) + " "
              + " ".join(f"{ratio(mine, a, b):8.2f}x {ratio(mine, a, b, 'cpu'):8.2f}x" for a, b in PAIRS))
    disagree = [r for r in rows if not r["agree"]]
    print(f"  verdicts of all {len(VARIANTS)} variants agree on {len(rows) - len(disagree)}/{len(rows)} position-modes")
    for kind in KINDS:
        for mode in MODES:
            mine = [r for r in rows if r["mode"] == mode and r["kind"] == kind]
            wall, cpu = ratio(mine, "per-cell", "batched"), ratio(mine, "per-cell", "batched", "cpu")
            print(f"  {kind} {mode.value}: per-cell / batched median {wall:.2f}x wall, {cpu:.2f}x CPU -> "
                  f"target (>= 4x) {'met' if min(wall, cpu) >= 4 else 'NOT met'}")


def report_by_calls(rows: list[dict]) -> None:
    """per-cell / batched by how many CBC calls batched made: 0 when checked SAT layouts answered everything."""
    print("\n    per-cell / batched by the CBC calls batched made (0: every question had a checked SAT layout,"
          "\n    nothing was left to prove; 1: CBC proved every remaining question \"no\" in one call)")
    for low, high in ((0, 0), (1, 1), (2, 10**6)):
        mine = [r for r in rows if low <= calls(r, "batched") <= high]
        if mine:
            kinds = ", ".join(f"{k} {sum(r['kind'] == k for r in mine)}" for k in KINDS)
            wall, cpu = ratio(mine, "per-cell", "batched"), ratio(mine, "per-cell", "batched", "cpu")
            print(f"  {low}{'+' if high > 1 else ' '} calls: {len(mine):>3} position-modes ({kinds}), "
                  f"per-cell / batched {wall:.2f}x wall, {cpu:.2f}x CPU")


def report_naive(rows: list[dict]) -> None:
    """An estimate, not a measurement: per-cell without reusing the solutions it finds."""
    per_call = median([r["time"]["per-cell"].wall / max(1, calls(r, "per-cell")) for r in rows])
    naive = [r["questions"] * per_call / r["time"]["batched"].wall for r in rows]
    print(f"\n    for scale, ESTIMATED (not measured): a per-cell backbone that reused no solution would make one call"
          f"\n    per model plus one per cell (median {median([r['questions'] for r in rows]):g} calls per position)"
          f"; at per-cell's median {1000 * per_call:.1f} ms/call\n    it would be {median(naive):.1f}x slower than "
          f"batched (median over positions)")


def report_breakdown(rows: list[dict]) -> None:
    """Per variant: CBC calls per position and where a position's time goes, summed over all positions."""
    print(f"\n    where the backbone's time goes (all positions, both modes; the CBC binary started and stopped"
          f"\n    with no model: {1000 * bare_process_start():.1f} ms wall)")
    print(f"  {'variant':11} {'calls/position':>15} {'ms/call':>8} {'CPU ms/call':>11} {'CBC process':>12} "
          f"{'write MPS':>10} {'read sol':>9} {'PuLP other':>11} {'own Python':>11}")
    for name in VARIANTS:
        parts = [r["parts"][name] for r in rows]
        made = [p[1].get("solve", 0) for p in parts]
        per_call = median([p[2] / max(1, c) for p, c in zip(parts, made) if c])
        cpu_per_call = median([r["time"][name].cpu / c for r, c in zip(rows, made) if c])
        total = sum(p[2] for p in parts)
        part: dict[str, float] = defaultdict(float)
        for p in parts:
            for key, s in p[0].items():
                part[key] += s
        shares = (part["process"], part["write MPS"], part["read solution"],  # nested: solve holds the other three
                  part["solve"] - part["process"] - part["write MPS"] - part["read solution"], total - part["solve"])
        print(f"  {name:11} {median(made):>7.0f} (max {max(made):>3}) {1000 * per_call:7.1f} "
              f"{1000 * cpu_per_call:11.1f} "
              + " ".join(f"{100 * s / total:>{w}.0f}%" for s, w in zip(shares, (11, 9, 8, 10, 11))))
    print("  (ms/call: median over positions with a call; shares: of the summed wall time.  CBC process = from"
          "\n   its start to its end, as PuLP waits for it; PuLP other = temp files, checks; own Python = minecheck"
          "\n   building the PuLP models, reading and checking the answers, and for batched the SAT search)")


def positions(count: int) -> list[tuple[str, int, Board]]:
    """Stuck positions: games played by sound deduction until nothing is determined (in either mode)."""
    return [(level, seed, generate_board(recipe("play", seed, level=level)))
            for level in LEVELS for seed in range(count)]


def revealed(count: int) -> list[tuple[str, int, Board]]:
    """Boards of each level's size and mine density with every safe cell opened with probability 1/2:
    large frontiers with many determined cells, so CBC has "no"s to prove."""
    boards = []
    for level in LEVELS:
        width, height, mines = LEVELS_SIZE[level]
        boards += [(level, seed, generate_board(recipe("reveal", seed, width=width, height=height,
                                                       density=mines / (width * height), open_prob=0.5)))
                   for seed in range(count)]
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4 positions per level (not 20), a 1 s cap, 1 repeat")
    parser.add_argument("--timeout", type=float, help="cap per solver run in (a), seconds (default 2, quick 1)")
    parser.add_argument("--backbone-only", action="store_true", help="only part (b), the CBC backbones")
    args = parser.parse_args()
    timeout = args.timeout or (1.0 if args.quick else 2.0)
    repeats = 2 if args.quick else 3
    start = time.perf_counter()
    boards = positions(4 if args.quick else 20)
    opened = revealed(1 if args.quick else 4)
    warm = generate_board(recipe("play", 0, level="beginner"))
    check_board(warm, SUBJECTS, budget=Budget(cpu=5.0))  # imports and first calls, untimed
    print(f"{len(boards)} stuck positions and {len(opened)} revealed boards ({', '.join(LEVELS)})\n\n(b) backbones:")
    backbone = backbone_runs(boards, repeats, "stuck") + backbone_runs(opened, repeats, "revealed")
    if args.backbone_only:
        report_backbones(backbone, repeats)
        report_by_calls(backbone)
        return
    print("(a), (c) cross-checks:")
    checks = crosscheck_runs(boards, timeout, repeats)
    report_throughput(checks, timeout)
    report_backbones(backbone, repeats)
    report_by_calls(backbone)
    report_naive(backbone)
    report_breakdown(backbone)
    report_against_references(checks, repeats)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
