"""Stops the process that runs its guardian (the pool worker) with SIGSTOP, on boards with a total, then answers
nothing; the coordinator must notice the stopped worker, kill it and go on."""

import os
import sys

from _hostile import EMPTY, options

options()
board = sys.stdin.read()
if board.splitlines()[0].count("x") == 2:  # a header WxHxM: a board with a total
    with open(f"/proc/{os.getppid()}/stat") as f:  # the guardian's parent
        grandparent = int(f.read().rsplit(")", 1)[1].split()[1])
    os.kill(grandparent, 19)  # SIGSTOP
print(EMPTY)
