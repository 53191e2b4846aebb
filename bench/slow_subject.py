"""Benchmark: a campaign with a slow external subject, boards to report, and what a kill during shrinking keeps.

    python bench/slow_subject.py [--boards 100] [--seed 1] [--factor 300] [--code PATH]

The subject (``bench/programs/slow_engine.py``) is the exact counter with a planted fault (flags ignored),
spinning on the CPU until it has spent ``--factor`` times the counter's own time: a real engine's cost.  The
default campaign (default mix and references, 2 jobs) runs three times on the same seed, in one run:

1. boards alone (``--no-report``: no shrinking, no report);
2. the whole run (shrinking and report), watched from outside: when each finding and each shrunk board
   reached disk, when the last board was on disk, when the run ended;
3. the whole run killed with SIGKILL once a few shrinks are on disk and shrinking goes on, then ``--resume``:
   every shrink on disk at the kill must be in the final shrunk.jsonl byte for byte (done, not redone),
   unless the report's own choice dropped it (it was an eager guess, said so).

Targets: whole run at most 1.3 times the boards alone; the first shrunk board on disk within 30 s of its
finding; no shrink lost to the kill.  ``--code PATH`` runs another checkout (for the "before" figures).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE / "programs" / "slow_engine.py"
RATIO_TARGET = 1.3
FIRST_TARGET = 30.0


def command(args, out: Path, *extra: str) -> list[str]:
    """The fuzz command line: the default campaign with the slow subject."""
    program = shlex.join([sys.executable, str(ENGINE), str(args.factor)])
    subject = f"slow={{command = {json.dumps(program)}, persistent = true}}"  # one process per worker
    return [sys.executable, "-c", "from minecheck.cli import main; main()", "fuzz", "--seed", str(args.seed),
            "--boards", str(args.boards), "--jobs", "2", "--solvers", subject, "--out", str(out), "-q", *extra]


def environment(args) -> dict:
    env = dict(os.environ)
    if args.code:
        env["PYTHONPATH"] = str(Path(args.code).resolve())
    return env


def lines(path: Path) -> list[str]:
    try:
        return [line for line in path.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


class Watch:
    """A run of the campaign, polled every 0.1 s: when each finding, shrunk board and board line reached disk."""

    def __init__(self, args, out: Path, *extra: str):
        self.out, self.started = out, time.perf_counter()
        self.process = subprocess.Popen(command(args, out, *extra), env=environment(args), start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.finding_at: dict[str, float] = {}  # finding's first line -> seconds
        self.shrunk_at: dict[str, float] = {}  # shrunk entry's key -> seconds
        self.boards_at: float | None = None
        self.boards = args.boards

    def poll(self) -> None:
        now = time.perf_counter() - self.started
        for line in lines(self.out / "findings.jsonl"):
            self.finding_at.setdefault(line, now)
        for line in lines(self.out / "shrunk.jsonl"):
            try:
                self.shrunk_at.setdefault(json.loads(line)["key"], now)
            except (ValueError, KeyError):
                pass  # a line being written
        if self.boards_at is None and len(lines(self.out / "boards.jsonl")) >= self.boards:
            self.boards_at = now

    def wait(self, until=lambda watch: False) -> float:
        """Poll until the run ends (its seconds) or ``until(self)`` holds (None then)."""
        while self.process.poll() is None:
            self.poll()
            if until(self):
                return None
            time.sleep(0.1)
        self.poll()
        if self.process.returncode not in (0, 1):
            sys.exit(f"the campaign failed (exit {self.process.returncode}): {self.process.stderr.read()[-2000:]}")
        return time.perf_counter() - self.started

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def first_shrink_delay(watch: Watch) -> tuple[float, float] | None:
    """Seconds from the first shrunk board's finding reaching disk to the shrunk board reaching disk, and when."""
    from minecheck.check.findings import Finding
    from minecheck.check.shrinkcache import finding_key

    found = {}
    for line, at in watch.finding_at.items():
        try:
            found[finding_key(Finding.from_json(line))] = at
        except ValueError:
            pass  # a line polled while it was being written: its whole self is there too
    if not watch.shrunk_at:
        return None
    key, at = min(watch.shrunk_at.items(), key=lambda item: item[1])
    return at - found.get(key, 0.0), at


def subject_cost(out: Path) -> tuple[float, float]:
    """The slow subject's and exact's CPU seconds over the run's boards (boards.jsonl)."""
    slow = exact = 0.0
    for line in lines(out / "boards.jsonl"):
        cpu = json.loads(line).get("solver_cpu_seconds", {})
        slow += cpu.get("slow", 0.0)
        exact += cpu.get("exact", 0.0)
    return slow, exact


def shrunk_sizes(out: Path) -> str:
    """Each shrink's cells before and after, in the order they reached disk (``*``: cut short by its budget)."""
    shown = []
    for line in lines(out / "shrunk.jsonl"):
        stats = json.loads(line).get("stats")
        if stats:
            cut = "*" if stats.get("cut_short") else ""
            shown.append(f"{stats['cells_before']}->{stats['cells_after']}{cut}")
    return ", ".join(shown) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--factor", type=float, default=300.0, help="the subject's CPU over exact's")
    parser.add_argument("--code", help="a checkout to run instead of the installed minecheck")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="slow-subject-"))
    print(f"the default campaign, {args.boards} boards (seed {args.seed}, 2 jobs), subject: exact with flags "
          f"ignored, {args.factor:g}x its CPU; load {os.getloadavg()[0]:.1f}")

    alone = Watch(args, root / "alone", "--no-report")
    alone_s = alone.wait()
    slow, exact = subject_cost(root / "alone")
    print(f"  boards alone (--no-report):     {alone_s:7.1f} s   ({len(alone.finding_at)} findings; subject "
          f"{slow:.1f} CPU s, exact {exact:.2f} CPU s)")

    whole = Watch(args, root / "whole")
    whole_s = whole.wait()
    ratio = whole_s / alone_s
    shrinks = len(lines(root / "whole" / "shrunk.jsonl"))
    after = whole_s - (whole.boards_at or whole_s)
    print(f"  whole run (shrinking + report): {whole_s:7.1f} s   (boards on disk at {whole.boards_at or 0:.1f} s, "
          f"then {after:.1f} s to the end; {shrinks} shrunk boards)")
    print(f"  shrunk sizes (cells before -> after, cut short *): {shrunk_sizes(root / 'whole')}")
    print(f"  whole / boards alone = {ratio:.2f}x -> target (<= {RATIO_TARGET}x) "
          f"{'met' if ratio <= RATIO_TARGET else 'NOT met'}")
    first = first_shrink_delay(whole)
    if first is None:
        print("  no shrunk board reached disk")
    else:
        delay, at = first
        print(f"  first shrunk board on disk at {at:.1f} s, {delay:.1f} s after its finding -> target "
              f"(<= {FIRST_TARGET:g} s) {'met' if delay <= FIRST_TARGET else 'NOT met'}")

    killed = Watch(args, root / "killed")
    wanted = max(2, shrinks // 3)
    if killed.wait(lambda w: len(w.shrunk_at) >= wanted) is not None:
        print("  the run ended before the kill")
    else:
        killed.kill()
        before = {json.loads(line)["key"]: line for line in lines(root / "killed" / "shrunk.jsonl")
                  if line.endswith("}")}
        at = time.perf_counter() - killed.started
        resumed = Watch(args, root / "killed", "--resume")
        resumed.wait()
        final = {json.loads(line)["key"]: line for line in lines(root / "killed" / "shrunk.jsonl")}
        kept = sum(1 for k, line in before.items() if final.get(k) == line)
        redone = sum(1 for k, line in before.items() if k in final and final[k] != line)
        dropped = sum(1 for k in before if k not in final)
        print(f"  SIGKILL at {at:.1f} s with {len(before)} shrunk boards on disk; after --resume: {kept} kept byte "
              f"for byte, {redone} redone, {dropped} dropped as not the report's choice -> "
              f"{'no shrink lost' if redone == 0 and kept + dropped == len(before) else 'SHRINKS LOST'}")
        same = lines(root / "killed" / "findings.jsonl") == lines(root / "whole" / "findings.jsonl")
        print(f"  findings after the kill and --resume the same as the whole run's: {'yes' if same else 'NO'}")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
