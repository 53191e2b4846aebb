"""A child of a hostile program: ``child.py ROLE PIDS``; ROLE is sleep, spin or double (fork a sleeper, exit).

Its own process id goes to the PIDS file (if one is named) before it does anything else.
"""

from __future__ import annotations

import os
import sys
import time

from _hostile import record


def main() -> None:
    role, pids = sys.argv[1], sys.argv[2] or None
    record(pids, os.getpid())
    if role == "spin":
        while True:
            pass
    if role == "double":  # the grandchild moves to a session of its own, its parent exits: an orphan
        if os.fork() == 0:
            os.setsid()
            record(pids, os.getpid())
            time.sleep(600)
        os._exit(0)
    time.sleep(600)


if __name__ == "__main__":
    main()
