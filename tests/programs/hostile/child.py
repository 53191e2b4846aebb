"""A child of a hostile program: ``child.py ROLE PIDS``; ROLE is sleep, spin or double (fork a sleeper, exit).

Its own process id goes to the PIDS file (if one is named) before it does anything else; then one
byte on its standard output tells its parent that it runs (so a test knows whom to look for).
"""

from __future__ import annotations

import os
import sys
import time

from _hostile import record


def main() -> None:
    role, pids = sys.argv[1], sys.argv[2] or None
    record(pids, os.getpid())
    if role == "double":  # the grandchild moves to a session of its own, its parent exits: an orphan
        if os.fork() == 0:
            os.setsid()
            record(pids, os.getpid())
            started()
            time.sleep(600)
        os._exit(0)  # the grandchild gives the word on the inherited standard output
    started()
    if role == "spin":
        while True:
            pass
    time.sleep(600)


def started() -> None:
    """Tell the parent (reading standard output) that this process runs; then let go of the pipe."""
    try:
        os.write(1, b"+")
    except OSError:
        pass
    os.close(1)


if __name__ == "__main__":
    main()
