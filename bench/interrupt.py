"""How long the command line keeps a person waiting: Ctrl-C (SIGINT) during fuzz's start-up, its boards and
its shrinking, and during ``shrink``, until the process has ended; and ``minecheck solvers`` from start to end.

    python bench/interrupt.py [--repeats N]

Target (issue 40): every Ctrl-C ends the command within 2 s, saying what it was doing; ``solvers`` within 1 s
on a quiet machine.  Each figure is the worst of the repeats (a shared machine only ever adds time), and the
load (``uptime``) is printed beside them: read the numbers against it.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MINECHECK = [sys.executable, "-m", "minecheck.launch"]  # as the installed program starts (--module changes it)
BIG = "16x16x40/" + "/".join(["HHHHHHHHHHHHHHHH"] * 5 + ["HHHH11111111HHHH", "HHHH10000001HHHH",
                                                       "HHHH10000001HHHH", "HHHH11111111HHHH"]
                               + ["HHHHHHHHHHHHHHHH"] * 7)


def _catch_sigint() -> None:
    """A program started from a background job inherits SIGINT ignored, and Python then never raises
    KeyboardInterrupt: give the command the terminal's default, as a person's Ctrl-C finds it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(argv: list[str], wait_for: str | None, after: float, folder: Path) -> tuple[float, str]:
    """Start the command, send SIGINT ``after`` seconds after ``wait_for`` (a regular expression) matches its
    stderr (or after its start), and time how long it takes to end; the seconds and the last lines it printed."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    err = folder / "stderr.txt"
    with err.open("w") as sink:
        proc = subprocess.Popen(MINECHECK + argv, stdout=subprocess.DEVNULL, stderr=sink, cwd=folder, env=env,
                                start_new_session=True, preexec_fn=_catch_sigint)
        start = time.perf_counter()
        seen = None if wait_for is not None else start
        while time.perf_counter() - start < 120:
            if proc.poll() is not None:
                return float("nan"), "ended before the signal: " + err.read_text()[-300:]
            if seen is None and re.search(wait_for, err.read_text()):
                seen = time.perf_counter()
            if seen is not None and time.perf_counter() - seen >= after:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole foreground group
        sent = time.perf_counter()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        took = time.perf_counter() - sent
    return took, " | ".join(err.read_text().strip().splitlines()[-2:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--module", default="minecheck.launch",
                        help="the module run as the program (minecheck.cli for code from before minecheck.launch)")
    args = parser.parse_args()
    MINECHECK[-1] = args.module
    cases = {
        "fuzz, start-up": (["fuzz", "--seed", "1", "--boards", "400", "--out", "run", "--jobs", "2"], None, 0.3),
        "fuzz, boards": (["fuzz", "--seed", "1", "--boards", "400", "--out", "run", "--jobs", "2"],
                         "fuzz: boards", 8.0),
        "fuzz, shrinking": (["fuzz", "--seed", "1", "--boards", "8", "--out", "run", "--jobs", "2"],
                            r"findings, \d+/[1-9]\d* shrunk", 1.0),  # once a shrink is queued, not before
        "shrink": (["shrink", BIG, "--solvers", "dpll@seed", "--shrink-time", "60"], None, 4.0),
        "check": (["check", BIG, "--solvers", "gibbs@fixed,dpll@seed", "--mode", "local"], None, 1.5),
    }
    print(f"load: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} (1, 5, 15 min) on "
          f"{os.cpu_count()} cores")
    for what, (argv, wait_for, after) in cases.items():
        worst, said = 0.0, ""
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as tmp:
                took, said = interrupted(argv, wait_for, after, Path(tmp))
            worst = max(worst, took) if took == took else worst
        print(f"Ctrl-C during {what:<16} ended in {worst:5.2f} s (worst of {args.repeats}; target 2 s): {said}")
    times = []
    for _ in range(max(3, args.repeats)):
        start = time.perf_counter()
        subprocess.run(MINECHECK + ["solvers"], stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    print(f"minecheck solvers: {min(times):.2f} s fastest, {max(times):.2f} s slowest of {len(times)} "
          "(target 1 s on a quiet machine)")


if __name__ == "__main__":
    main()
