"""Proof of teeth: each seed defect alone, its first board in a fixed-seed campaign, shrunk (minecheck.campaigns.teeth).

    python bench/teeth.py                 # print the table (and the JSON rows as they come)
    python bench/teeth.py --write         # also write fixtures/teeth.json and the table in docs/teeth.md
    python bench/teeth.py --only NAME ... # just these defects (printed, never written)
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

from minecheck.campaigns.teeth import BUDGET, SEED, all_teeth, from_json, render_table, to_json, with_table

ROOT = Path(__file__).resolve().parent.parent
FIXTURE, README = ROOT / "fixtures" / "teeth.json", ROOT / "docs" / "teeth.md"  # README: the page with the table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--only", nargs="*", default=())
    parser.add_argument("--write", action="store_true", help="write fixtures/teeth.json and the table in docs/teeth.md")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    teeth = []
    for tooth in all_teeth(args.seed, args.budget, tuple(args.only)):
        print(f"{time.perf_counter() - start:7.1f}s {asdict(tooth)}", file=sys.stderr, flush=True)
        teeth.append(tooth)
    if FIXTURE.exists():  # the median column comes from bench/reach.py: kept
        medians = {t.defect: t.median for t in from_json(FIXTURE.read_text())}
        teeth = [replace(t, median=medians.get(t.defect, "")) for t in teeth]
    table = render_table(teeth, args.seed)
    print(table)
    if args.write and not args.only:
        FIXTURE.write_text(to_json(teeth, args.seed, args.budget))
        README.write_text(with_table(README.read_text(), table))
    print(f"{time.perf_counter() - start:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
