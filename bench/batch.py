"""Tiny boards in batches: boards per second of a small-sweep campaign, board by board against batched.

    python bench/batch.py [--n 6] [--boards 3000] [--jobs 2] [--rounds 1]

``run_campaign`` over the first BOARDS boards of ``small:N`` against ``exact`` and ``brute``, into a
temporary folder (no report), with ``batch=1`` (every solver called once per board and mode, each call a
round trip to its sandbox: the campaigns before batching) and ``batch=32`` (each solver gets 32 boards in
one sandboxed run, ``minecheck.running.batch``), the two alternating.  Subjects: the fixed variants
without simplex@fixed (whose LPs are checked against CBC, a program started per LP), then with it.
Target: 200 boards/s or more on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from minecheck.boards.small import small_count
from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.running.catalogue import FIXED_VARIANTS


def rate(config: Config, boards: int, jobs: int, batch: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        progress = run_campaign(config, Path(out), boards=boards, jobs=jobs, batch=batch)
        return boards / (time.perf_counter() - start), progress.findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=6)
    parser.add_argument("--boards", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--with-simplex", action="store_true", help="also the run with simplex@fixed")
    args = parser.parse_args(argv)
    boards = min(args.boards, small_count(args.n))
    sets = [tuple(s for s in FIXED_VARIANTS if s != "simplex@fixed")] + ([FIXED_VARIANTS] if args.with_simplex else [])
    print(f"small:{args.n}, boards 0..{boards - 1}, references exact and brute, {args.jobs} jobs, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for subjects in sets:
        config = Config(seed=1, subjects=subjects, references=("exact", "brute"), generator=f"small:{args.n}")
        for r in range(args.rounds):
            order = (1, 32) if r % 2 == 0 else (32, 1)
            for batch in order:
                per_second, findings = rate(config, boards, args.jobs, batch)
                print(f"  {','.join(subjects)}  batch={batch:<3} {per_second:7.1f} boards/s  ({findings} findings)",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
