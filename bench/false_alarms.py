"""False alarms: the fixed solvers and the references on many boards must give no finding (issue 27).

    python bench/false_alarms.py [--mix 10000] [--numeric 2000] [--seed 1] [--jobs J] [--time-budget S] [--out DIR]

Runs two campaigns, ``minecheck fuzz`` with the fixed variants as subjects (ilp@fixed, dpll@fixed,
gibbs@fixed, simplex@fixed) beside the default references: ``--mix`` boards of the default mix and
``--numeric`` boards of ``--generator numeric``.  Prints, per campaign, the boards checked and the findings
by (kind, solver, reference, mode); the target is none.  ``--time-budget`` bounds each campaign (the
boards checked by then are counted) for a shared machine; ``--resume`` continues campaigns in --out.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import time
from pathlib import Path

FIXED = "ilp@fixed,dpll@fixed,gibbs@fixed,simplex@fixed"


def campaign(generator: str, boards: int, args: argparse.Namespace) -> tuple[int, collections.Counter, float]:
    """(boards checked, findings by signature, seconds) of one campaign."""
    out = Path(args.out) / generator
    command = [sys.executable, "-m", "minecheck.cli", "fuzz", "--seed", str(args.seed), "--generator", generator,
               "--boards", str(boards), "--jobs", str(args.jobs), "--solvers", FIXED, "--out", str(out),
               "--no-report", "-q"] + (["--resume"] if args.resume else ["--overwrite"])
    if args.time_budget:
        command[command.index("--boards"):command.index("--boards") + 2] = ["--time-budget", str(args.time_budget)]
    start = time.perf_counter()
    subprocess.run(command, check=False)
    checked = sum(1 for _ in (out / "boards.jsonl").open()) if (out / "boards.jsonl").exists() else 0
    found: collections.Counter = collections.Counter()
    if (out / "findings.jsonl").exists():
        for line in (out / "findings.jsonl").open():
            f = json.loads(line)
            found[(f["kind"], f["subject"], f["reference"], f["mode"])] += 1
    return checked, found, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mix", type=int, default=10000)
    parser.add_argument("--numeric", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-budget", type=float, default=0.0, help="seconds per campaign (0: no bound)")
    parser.add_argument("--out", default=".minecheck/false-alarms")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)
    clean = True
    for generator, boards in (("mix", args.mix), ("numeric", args.numeric)):
        if not boards:
            continue
        checked, found, seconds = campaign(generator, boards, args)
        print(f"{generator}: {checked} boards, {sum(found.values())} findings, {seconds:.0f} s")
        for signature, n in sorted(found.items()):
            print(f"  {n} x {' '.join(signature)}")
        clean = clean and not found
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
