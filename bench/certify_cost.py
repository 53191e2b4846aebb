"""Benchmark: what certifying costs a campaign - the README's main job with and without ``--certify``, side by side.

    python bench/certify_cost.py [--boards 40] [--seed 1] [--pairs 2]

Each pair runs ``minecheck fuzz --no-report --jobs 1`` on the same boards twice, without and with ``--certify``
(every reference answer of every board certified and checked), in turn; CPU seconds are the child process
tree's (user + system, from the kernel), so the machine's load changes them little.  Also printed: how many
findings carry a certificate and how many of those are certified, from the plain run (whose findings are
certified by default).  Target: ``--certify`` at most 2x the campaign without it.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 2.0


def run(args, out: Path, *extra: str) -> tuple[float, float]:
    """CPU and wall seconds of one campaign."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from minecheck.cli import main; main()", "fuzz", "--seed", str(args.seed),
                    "--boards", str(args.boards), "--out", str(out), "--jobs", "1", "--no-report", "-q", *extra],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="certify-cost-"))
    plain, certified = [], []
    for pair in range(args.pairs):
        plain.append(run(args, root / f"plain-{pair}"))
        certified.append(run(args, root / f"certify-{pair}", "--certify"))
    findings = [json.loads(line) for line in (root / "plain-0" / "findings.jsonl").read_text().splitlines()]
    carrying = [f for f in findings if "certificate" in f.get("extra", {})]
    ok = [f for f in carrying if f["extra"]["certificate"]["certified"] and f["extra"]["certificate"]["checked"]]
    lines = (root / "certify-0" / "certificates.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    steps = sorted(r["steps"] for r in rows)
    ratio = sorted(c[0] / p[0] for p, c in zip(plain, certified))[len(plain) // 2]
    print(f"the main job's boards ({args.boards}, seed {args.seed}, --no-report, 1 job), {args.pairs} pairs")
    print(f"  without --certify: CPU {' '.join(f'{c:.1f}' for c, _ in plain)} s, wall "
          f"{' '.join(f'{w:.1f}' for _, w in plain)} s")
    print(f"  with --certify:    CPU {' '.join(f'{c:.1f}' for c, _ in certified)} s, wall "
          f"{' '.join(f'{w:.1f}' for _, w in certified)} s")
    print(f"  --certify / without = {ratio:.2f}x CPU (median pair) -> target (<= {TARGET:g}x) "
          f"{'met' if ratio <= TARGET else 'NOT met'}")
    print(f"  findings carrying a certificate: {len(carrying)} of {len(findings)} ({len(ok)} certified and checked; "
          f"the others are crashes, timeouts, protocol and LP findings, which have no verdict to prove)")
    print(f"  --certify: {len(rows)} reference answers certified, {sum(r['certified'] for r in rows)} all as claimed, "
          f"{sum(r['checked'] for r in rows)} checked; proof steps per answer median {steps[len(steps) // 2]}, "
          f"max {steps[-1]}")
    counts = [r.get("claims", {}).get("count") for r in rows if r["certification"].get("count")]
    print(f"  counts claimed: {len(counts)}, proved {counts.count('proved')}, not proved {counts.count('unproved')}, "
          f"proved wrong {counts.count('wrong')}")


if __name__ == "__main__":
    main()
