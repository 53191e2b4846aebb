"""Stops its parent and its grandparent (a campaign's pool worker, when a guardian runs it) with SIGSTOP, then
answers ``{"schema": 1, "cells": []}`` to every request (one-shot: the request on stdin, the answer on stdout)."""

from __future__ import annotations

import json
import os
import signal
import sys


def stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGSTOP)
    except OSError:
        pass


def parent_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def main() -> None:
    parent = os.getppid()
    grandparent = parent_of(parent) if parent > 1 else 0
    stop(parent)
    if grandparent > 1:
        stop(grandparent)
    sys.stdin.read()
    print(json.dumps({"schema": 1, "cells": []}), flush=True)


if __name__ == "__main__":
    main()
