"""What checking a run folder's files costs a campaign: RunFolder.record (the per-board append, now with a
running SHA-256 and .minecheck-digests written) and the resume check, against main's, side by side.

    python bench/runfolder_record.py [--records N] [--main PATH]

Runs the same script body under this tree and under ``--main`` (another checkout), alternating, and prints
the fastest of three per tree and their ratio: a shared machine only ever adds time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BODY = r"""
import json, sys, tempfile, time
from pathlib import Path
from minecheck.campaigns.fuzz import folder
from minecheck.running.runfolder import holding
n = int(sys.argv[1])
finding = json.dumps({"kind": "verdict", "subject": "s", "reference": "exact", "mode": "local", "cells": [1, 2],
                      "subject_says": "safe", "reference_says": "mine", "board": "3x3\n" + "HHH\n" * 3,
                      "detail": "", "recipe": None, "index": 0, "extra": {"x": "y" * 2000}})
with tempfile.TemporaryDirectory() as d:
    out = Path(d) / "c"
    with holding(out):
        run = folder(out)
        run.prepare({"seed": 1}, False)
        began = time.perf_counter()
        for i in range(n):
            run.record({"index": i, "seconds": 0.1, "findings": 1}, [finding.replace('"index": 0', f'"index": {i}')])
        record = time.perf_counter() - began
        run.settle(lambda r: (r["index"],), lambda r: (r["index"],))
    began = time.perf_counter()
    with holding(out):
        folder(out).prepare({"seed": 1}, True)
    resume = time.perf_counter() - began
print(json.dumps({"record_ms": 1000 * record / n, "resume_s": resume}))
"""


def measure(tree: Path, records: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(BODY)
    try:
        out = subprocess.run([sys.executable, f.name, str(records)], env=env, capture_output=True, text=True,
                             check=True, cwd=tree)
    finally:
        os.unlink(f.name)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--main", type=Path, default=Path("/work/main"))
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict]] = {"main": [], "this": []}
    for _ in range(3):
        runs["main"].append(measure(args.main, args.records))
        runs["this"].append(measure(here, args.records))
    best = {k: {m: min(r[m] for r in v) for m in ("record_ms", "resume_s")} for k, v in runs.items()}
    print(f"load {os.getloadavg()[0]:.1f}; {args.records} records of one finding each, fastest of 3 per tree")
    for m in ("record_ms", "resume_s"):
        ratio = best['this'][m] / best['main'][m]
        print(f"{m:10} main {best['main'][m]:.3f}  this {best['this'][m]:.3f}  ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
