"""Reach: how many boards of the default campaign it takes to show each defect, over many campaign seeds.

    python bench/reach.py [--quick] [--seeds N] [--cap BOARDS] [--only NAME ...] [--jobs J] [--write]

Subjects: every switchable seed defect, switched on alone as the teeth table does (``teeth.alone``: a
board counts only where the port with no defect agrees with ``exact``; a masked defect is switched on
beside its ``teeth.PARTNER`` and counts where the port with only the partner on agrees; for
``simplex@seed`` the campaign's LPs, each board's random LP and its relaxations, against CBC through
``teeth.lp_alone``; a dpll@seed subject skips boards with more than ``teeth.DPLL_MODELS`` layouts, which
the port with no defect would count one by one; the defects of ``teeth.NO_BOARD`` are not searched), and
the faulty solvers of ``bench/faults.py``, ``bench/numeric_faults.py`` and ``bench/board_faults.py`` (one planted
fault each).
For campaign seeds 1..N, boards ``board_recipe(Config(seed=s), i)`` for i = 0, 1, 2, ... are made and
checked in-process against ``exact`` alone (``check_board(board, [subject], references=())``, every
mode the board has) until the first finding, up to ``--cap`` boards.

Per subject: the boards until the first finding (board i found = i + 1 boards), median and worst over
the seeds, and the seconds: making those boards plus checking them with this subject against ``exact``
(one process; a real campaign runs every solver and reference on them, so takes longer per board).
Targets: median <= 10 boards, worst <= 50.  A board whose check takes more than BOARD_CPU CPU seconds
is skipped (``teeth.BOARD_CPU``; counted, not shown: a port with a defect on can take far longer than the
port without).  The small walk is built before the
first board is timed (about a second, once per process).  ``--write`` writes fixtures/reach.json, the
reach table of docs/reach.md and the median column of the teeth table (fixtures/teeth.json and docs/teeth.md);
with ``--only``, only those rows are measured again and the fixture's other rows are kept.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from board_faults import BOARD_FAULTS  # noqa: E402
from faults import FAULTS as OWN_FAULTS  # noqa: E402
from numeric_faults import NUMERIC_FAULTS  # noqa: E402
from position_faults import POSITION_FAULTS  # noqa: E402

from minecheck.boards.generators import features, generate_board  # noqa: E402
from minecheck.boards.recipe import Recipe  # noqa: E402
from minecheck.boards.small import small_walk  # noqa: E402
from minecheck.campaigns.fuzz import WALK, Config, board_seed, next_recipe  # noqa: E402
from minecheck.campaigns.mix import SEARCH_SLOTS  # noqa: E402
from minecheck.campaigns.search import board_closeness  # noqa: E402
from minecheck.campaigns.teeth import (  # noqa: E402
    BOARD_CPU,
    NO_BOARD,
    PARTNER,
    alone,
    from_json,
    lp_alone,
    render_table,
    table_in,
    to_json,
    too_many_models,
    with_table,
    within_cpu,
)
from minecheck.check.crosscheck import check_board  # noqa: E402
from minecheck.running.catalogue import GROUND_TRUTH  # noqa: E402
from minecheck.solvers.defects import BY_NAME, DEFECTS  # noqa: E402

FAULTS = {**OWN_FAULTS, **NUMERIC_FAULTS, **BOARD_FAULTS, **POSITION_FAULTS}  # bench/faults.py's, the numeric edges',
# issue 37's boards', issue 51's positions'
ROOT = Path(__file__).resolve().parent.parent
FIXTURE, TEETH = ROOT / "fixtures" / "reach.json", ROOT / "fixtures" / "teeth.json"
PAGE, TEETH_PAGE = ROOT / "docs" / "reach.md", ROOT / "docs" / "teeth.md"  # the pages with the two tables
START, END = "<!-- reach:start -->", "<!-- reach:end -->"
SEEDS, CAP = 10, 200
MEDIAN_TARGET, WORST_TARGET = 5, 25


@dataclass(frozen=True)
class Subject:
    name: str
    kind: str  # "seed defect" or "own fault"
    solver: str  # the port or "fault:NAME"
    what: str

    def make(self):
        if self.kind == "own fault":
            return FAULTS[self.name]()
        if self.solver == "simplex@seed":
            return None  # its LPs are checked by teeth.lp_alone
        return alone(BY_NAME[self.name])


def subjects(only: tuple[str, ...] = ()) -> list[Subject]:
    out = [Subject(d.name, "seed defect", d.solver, d.summary) for d in DEFECTS
           if d.switchable and d.name not in NO_BOARD]
    out += [Subject(name, "own fault", f"fault:{name}", cls.fault) for name, cls in FAULTS.items()]
    return [s for s in out if not only or s.name in only]


def shows(subject: Subject, made, board, seed: int) -> tuple[bool, tuple]:
    """Whether the subject shows on the board (for the simplex, on the board's LPs), and how close it came to being
    wrong there (``search.board_closeness``, read as a campaign reads it; none for the simplex's LPs)."""
    if subject.solver == "simplex@seed":
        from minecheck.check.lpcheck import random_lp, relaxations

        lps = [random_lp(seed)] + [lp for lp, _, _ in relaxations(board)]
        return any(lp_alone(lp, subject.name) is not None for lp in lps), ()
    if too_many_models(board, subject.solver):
        return False, ()  # the port with no defect would count every model one by one (teeth.DPLL_MODELS)
    checks = check_board(board, [made], references=())
    return any(c.findings for c in checks), board_closeness(checks, [made.name], GROUND_TRUTH)


def first_findings(seed: int, names: tuple[str, ...], cap: int, generator: str = "mix",
                   search: bool = True) -> dict[str, tuple[int | None, float, int, str, int | None]]:
    """Per subject: (boards until its first finding or None, seconds, boards skipped, what the board was, and the
    boards until it without the search) in campaign ``seed``.  Each board is the one a campaign with this subject
    alone makes (``fuzz.next_recipe``): its search slots read the subject's closeness on the boards before them.
    The boards before the first search slot are the same with or without it, so the run without the search goes on
    from there only where it is needed."""
    small_walk(WALK)  # built once per process (about a second), before any board is timed
    made_boards: dict[Recipe, tuple[object, float]] = {}  # (board, seconds to make it), made once for every subject

    def board(rec: Recipe):
        if rec not in made_boards:
            start = time.perf_counter()
            made_boards[rec] = (generate_board(rec), time.perf_counter() - start)
        return made_boards[rec]

    def hunt(subject: Subject, made, config: Config, start_at: int) -> tuple[int | None, float, int, str]:
        spent, skipped, near = 0.0, 0, {}
        for i in range(start_at, cap):
            rec = next_recipe(config, i, near)
            b, making = board(rec)
            start = time.perf_counter()
            done, shown = within_cpu(BOARD_CPU, partial(shows, subject, made, b, board_seed(config, i)))
            hit, close = shown if done else (False, ())
            skipped += not done
            spent += making + time.perf_counter() - start
            if close:
                near[i] = (rec, close)
            if hit:
                return i + 1, spent, skipped, " ".join([rec.generator, *features(rec)])
        return None, spent, skipped, ""

    out = {}
    first_search = SEARCH_SLOTS[0] if generator == "mix" else cap
    for subject in subjects(names):
        made = subject.make()
        named = (getattr(made, "name", subject.solver),)
        config = Config(seed=seed, generator=generator, subjects=named, search=search)
        found, spent, skipped, where = hunt(subject, made, config, 0)
        without = found
        if search and (found is None or found > first_search):
            without = hunt(subject, made, replace(config, search=False), first_search)[0]
        out[subject.name] = (found, spent, skipped, where, without)
    return out


@dataclass(frozen=True)
class Row:
    name: str
    kind: str
    solver: str
    boards: tuple[int | None, ...]  # per seed: boards until the first finding (None: not found within the cap)
    seconds: tuple[float, ...]
    cap: int
    without: tuple[int | None, ...] = ()  # per seed, the same without the campaign's search (its slots walk)

    @staticmethod
    def _order(boards) -> list[float]:
        return sorted(float("inf") if b is None else b for b in boards)

    @property
    def median(self) -> float:
        return statistics.median(self._order(self.boards))

    @property
    def worst(self) -> float:
        return max(self._order(self.boards))

    @property
    def median_without(self) -> float:
        return statistics.median(self._order(self.without or self.boards))

    @property
    def worst_without(self) -> float:
        return max(self._order(self.without or self.boards))

    @property
    def met(self) -> bool:
        return self.median <= MEDIAN_TARGET and self.worst <= WORST_TARGET

    def show(self, value: float) -> str:
        return f"not found in {self.cap}" if value == float("inf") else f"{value:g}"


def render(rows: list[Row], seeds: int, cap: int) -> str:
    lines = [f"Boards of the default campaign until the first finding, over campaign seeds 1 to {seeds} (board i "
             f"found: i + 1 boards; searched up to {cap}); seconds: making those boards and checking them with the "
             f"one subject against `exact`, in one process.  Targets: median <= {MEDIAN_TARGET}, worst <= "
             f"{WORST_TARGET}.  Regenerate with `python bench/reach.py --write`.", "",
             "| defect or fault | solver | median boards | worst boards | without search: median, worst | median s | "
             "worst s | met |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        beside = f" (beside `{PARTNER[r.name]}`)" if r.name in PARTNER else ""
        lines.append(f"| `{r.name}`{beside} | `{r.solver}` | {r.show(r.median)} | {r.show(r.worst)} | "
                     f"{r.show(r.median_without)}, {r.show(r.worst_without)} | "
                     f"{statistics.median(r.seconds):.2f} | {max(r.seconds):.2f} | {'yes' if r.met else 'NO'} |")
    return "\n".join(lines)


def stored_rows() -> tuple[list[Row], int, int]:
    """The rows, seeds and cap of fixtures/reach.json."""
    data = json.loads(FIXTURE.read_text())
    return ([Row(r["name"], r["kind"], r["solver"], tuple(r["boards"]), tuple(r["seconds"]), data["cap"],
                 tuple(r.get("without_search", r["boards"]))) for r in data["rows"]], data["seeds"], data["cap"])


def block_in(page: str) -> str:
    return table_in(page, (START, END))


def with_block(page: str, table: str) -> str:
    return with_table(page, table, (START, END))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 seeds")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--cap", type=int, default=CAP)
    parser.add_argument("--only", nargs="*", default=())
    parser.add_argument("--generator", default="mix", help="another campaign generator than the default mix")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write", action="store_true", help="write fixtures/reach.json and the tables in docs/")
    parser.add_argument("--verbose", action="store_true", help="per seed, the board that first showed each")
    parser.add_argument("--render", action="store_true", help="only print the table of fixtures/reach.json")
    parser.add_argument("--no-search", action="store_true", help="the campaign without its search (slots walk)")
    args = parser.parse_args(argv)
    if args.render:
        print(render(*stored_rows()))
        return 0
    seeds = 3 if args.quick else args.seeds
    names = tuple(args.only)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        per_seed = list(pool.map(first_findings, range(1, seeds + 1), [names] * seeds, [args.cap] * seeds,
                                  [args.generator] * seeds, [not args.no_search] * seeds))
    rows = []
    for s in subjects(names):
        found = [per_seed[k][s.name] for k in range(seeds)]
        rows.append(Row(s.name, s.kind, s.solver, tuple(f[0] for f in found), tuple(round(f[1], 3) for f in found),
                        args.cap, tuple(f[4] for f in found)))
        if args.verbose:
            print(f"{s.name}: " + "; ".join(f"{f[0]}: {f[3]}" for f in found), file=sys.stderr)
        skipped = sum(f[2] for f in found)
        if skipped:
            print(f"{s.name}: {skipped} board(s) skipped past {BOARD_CPU:g} CPU seconds", file=sys.stderr)
    table = render(rows, seeds, args.cap)
    print(table)
    print(f"\n{time.perf_counter() - started:.1f} s", file=sys.stderr)
    if args.write and names and args.generator == "mix" and not args.no_search:  # only these rows again
        stored, stored_seeds, stored_cap = stored_rows()
        if (stored_seeds, stored_cap) != (seeds, args.cap):
            print(f"--only --write needs the fixture's seeds and cap ({stored_seeds}, {stored_cap})", file=sys.stderr)
            return 2
        fresh = {r.name: r for r in rows}
        order = [s.name for s in subjects()]
        kept = {r.name: r for r in stored} | fresh
        rows = sorted(kept.values(), key=lambda r: order.index(r.name) if r.name in order else len(order))
        table = render(rows, seeds, args.cap)
    if args.write and args.generator == "mix" and not args.no_search:
        FIXTURE.write_text(json.dumps({"seeds": seeds, "cap": args.cap, "rows": [
            {"name": r.name, "kind": r.kind, "solver": r.solver, "boards": list(r.boards), "seconds": list(r.seconds),
             "without_search": list(r.without)} for r in rows]}, indent=1) + "\n")
        medians = {r.name: r.show(r.median) for r in rows}
        stored = json.loads(TEETH.read_text())
        teeth = [replace(t, median=medians.get(t.defect, t.median)) for t in from_json(TEETH.read_text())]
        TEETH.write_text(to_json(teeth, stored["seed"], stored["budget"]))
        TEETH_PAGE.write_text(with_table(TEETH_PAGE.read_text(), render_table(teeth, stored["seed"])))
        PAGE.write_text(with_block(PAGE.read_text(), table))
    return 0 if all(r.met for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

