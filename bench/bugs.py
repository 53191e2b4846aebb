"""Benchmark: findings, signatures and bugs for planted faults, one or two in a solver.

    python bench/bugs.py [--boards 60] [--seed 1] [--shrink 5]

Each subject is the exact counter with planted faults of ``bench/faults.py``: one fault alone, or two in one
solver (two of one kind among them, the case a signature hides: two crashes, two wrong probabilities).  Each runs on
the same boards of the
default campaign (``--boards`` of seed ``--seed``, boards past ``MAX_CELLS`` cells left out so that a run
takes minutes), against ``exact``, in this process; the first finding of each bug is shrunk (``--shrink``
CPU seconds at most), its minimal cause found (half that), and the bugs merged as a campaign merges them
(``minecheck.campaigns.bugs``).

Printed per subject: the planted faults, findings, signatures (kind, solver, reference, mode), bugs before
merging (solver and fingerprint) and after, and what each bug shows.  Targets: one bug per planted fault
(two faults: two bugs, not one and not twenty).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faults import FAULTS, Faulty  # noqa: E402

from minecheck.boards.generators import generate_board  # noqa: E402
from minecheck.campaigns.bugs import bugs, groups  # noqa: E402
from minecheck.campaigns.fuzz import Config, board_recipe  # noqa: E402
from minecheck.campaigns.publish import ordered  # noqa: E402
from minecheck.campaigns.shrinking import cause_of, shrinkable  # noqa: E402
from minecheck.check.crosscheck import check_board  # noqa: E402
from minecheck.check.fingerprint import fingerprint  # noqa: E402
from minecheck.check.shrink import shrink  # noqa: E402
from minecheck.check.shrinkcache import finding_key  # noqa: E402
from minecheck.model.boardtext import parse_board  # noqa: E402

MAX_CELLS = 400  # boards past this many cells are left out: the exact counter in-process on a 1033x5 board


def planted(*names: str) -> Faulty:
    """One solver with every named fault: a class of them all (each hook from the first that has it, each
    ``solve`` that raises running before the plain one), their ``adjust`` applied one after another."""
    classes = tuple(FAULTS[n] for n in names)
    adjusts = [c.__dict__["adjust"] for c in classes if "adjust" in c.__dict__]

    def adjust(self, board, mode, result):
        for one in adjusts:
            result = one(self, board, mode, result)
        return result

    body = {"key": "+".join(names), "fault": "; ".join(c.fault for c in classes)}
    return type("Planted", classes, {**body, **({"adjust": adjust} if adjusts else {})})()


SUBJECTS: tuple[tuple[str, ...], ...] = (
    ("crash-on-one-wide",),
    ("no-frontier-crash",),
    ("rounded-probability",),
    ("float-threshold",),
    ("last-digit-dropped",),
    ("flags-ignored",),
    ("density-off-frontier",),
    ("impossible-all-safe",),
    ("crash-on-one-wide", "no-frontier-crash"),  # two crashes: one signature (crash, solver, exact, local)
    ("rounded-probability", "density-off-frontier"),  # two wrong probabilities: one signature in the global mode
    ("float-threshold", "impossible-all-safe"),  # a verdict and a consistency fault
)


def boards(seed: int, count: int):
    config = Config(seed=seed)
    out = []
    for i in range(count):
        recipe = board_recipe(config, i)
        board = generate_board(recipe)
        if board.size <= MAX_CELLS:
            out.append((i, board, recipe))
    return out


def measure(names: tuple[str, ...], made: list, shrink_seconds: float) -> dict:
    solver = planted(*names)
    findings = []
    for i, board, recipe in made:
        for check in check_board(board, [solver], references=["exact"], recipe=recipe, index=i):
            findings.extend(check.findings)
    findings = ordered(findings)
    firsts = [numbers[0] for numbers in groups(findings).values()]
    shrunk = {}
    for n in firsts:
        if shrinkable(findings[n]):
            result = shrink(findings[n], None, seconds=shrink_seconds, solver=solver)
            small = parse_board(result.finding.board)
            (check,) = check_board(small, [solver], [result.finding.mode], ["exact"])
            shows = sorted({fingerprint(g).key for g in check.findings})  # as shrinking.run_job keeps them
            entry = {"finding": result.finding.to_json(), "stats": asdict(result.stats), "shows": shows}
            cause = cause_of(result.finding, None, shrink_seconds / 2, solver=solver,
                             start=result.shape)  # as shrinking.run_job does
            shrunk[finding_key(findings[n])] = entry | ({"cause": cause} if cause else {})
    found = bugs(findings, shrunk)
    return {"faults": names, "findings": len(findings), "signatures": len({f.signature for f in findings}),
            "before": len(firsts), "after": len(found), "bugs": found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shrink", type=float, default=5.0, help="CPU seconds a shrink may take")
    parser.add_argument("--verbose", action="store_true", help="each bug's fingerprint and small board")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    made = boards(args.seed, args.boards)
    print(f"{len(made)} boards of the default campaign, seed {args.seed} (of {args.boards}; past {MAX_CELLS} cells "
          f"left out)\n")
    print("| planted faults | findings | signatures | bugs before merging | bugs after merging | target |")
    print("|---|---|---|---|---|---|")
    rows = []
    for names in SUBJECTS:
        row = measure(names, made, args.shrink)
        rows.append(row)
        met = "yes" if row["after"] == len(names) else "NO"
        print(f"| {' + '.join(names)} | {row['findings']} | {row['signatures']} | {row['before']} | {row['after']} | "
              f"{len(names)}: {met} |", flush=True)
    if args.verbose:
        for row in rows:
            print(f"\n{' + '.join(row['faults'])}:")
            for b in row["bugs"]:
                board = (b.board or "").strip().replace("\n", "/")
                cause = (b.cause or "").strip().replace("\n", "/")
                print(f"  {b.id} {len(b.findings):3d} findings, {len(b.keys)} groups: {b.words}  [{board}] "
                      f"cause [{cause}]")
    print(f"\n{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
