"""What the hostile programs share: their options, the answer that claims nothing, and the children they start.

Each program is standalone (the system's python3 runs it, without minecheck installed): it misbehaves
in one way and otherwise answers ``{"schema": 1, "cells": []}``, which claims nothing, so the only
finding a check can make is the misbehaviour itself.  ``--pids FILE`` appends the id of every
process a program starts (itself included) to FILE, one a line, for the tests to check that none
is left behind.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

EMPTY = json.dumps({"schema": 1, "cells": []})
CHILD = Path(__file__).resolve().parent / "child.py"


def options(*extra: tuple[str, dict]) -> argparse.Namespace:
    """The common --pids FILE and --persistent options, with a program's own."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--pids", default=None)
    parser.add_argument("--persistent", action="store_true")
    for name, how in extra:
        parser.add_argument(name, **how)
    args = parser.parse_args()
    record(args.pids, os.getpid())
    return args


def record(pids: str | None, pid: int) -> None:
    """Append a process id to the pids file (in one write, so that processes writing at once do not mix): the
    number /proc gives it, which for a program in a PID namespace of its own is the one the test sees too."""
    if pids:
        if pid == os.getpid():
            try:
                pid = int(os.readlink("/proc/self"))
            except (OSError, ValueError):
                pass
        with open(pids, "a") as f:
            f.write(f"{pid}\n")


def start_child(role: str, pids: str | None, new_session: bool = False) -> subprocess.Popen:
    """A child doing ``role`` (child.py), once it runs (its word read), its standard streams detached so
    that the answer can end without it."""
    child = subprocess.Popen([sys.executable, str(CHILD), role, pids or ""], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=new_session)
    child.stdout.read(1)
    child.stdout.close()
    return child


def answer_each_request(args: argparse.Namespace) -> None:
    """A board on standard input (one-shot) or a JSON request per line (persistent): the empty answer to each."""
    if not args.persistent:
        sys.stdin.read()
        print(EMPTY, flush=True)
        return
    for _ in sys.stdin:
        print(EMPTY, flush=True)
