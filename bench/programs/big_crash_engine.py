"""An engine that crashes on any digit of 6 or more, as a real engine's table of weights ends at 5, and costs about
a second of CPU on a board of 5,000 cells: 0.2 s on any board (its set-up) and 0.8 s per 5,000 cells.  What
``bench/big_crash.py`` shrinks.

    MINECHECK_PERSISTENT=1 python big_crash_engine.py      # a JSON request per line

Elsewhere it claims nothing (no cells: the protocol's "a cell left out claims nothing"); it imports nothing of
minecheck, so that starting it again after a crash costs a Python start, as a real engine's would.
"""

from __future__ import annotations

import json
import sys
import time

SETUP_SECONDS = 0.2  # CPU seconds any board costs, however small
SECONDS_PER_CELL = 0.8 / 5000  # and per cell
WEIGHTS = (1, 8, 28, 56, 70, 56)  # C(8, k) up to k = 5: the planted fault, a table one row short of a 6


def answer(text: str) -> str:
    """The engine's answer to one board: spin for its set-up and its cells, then crash on a digit past the table."""
    header, *rows = text.strip().split("\n")
    start = time.process_time()
    while time.process_time() - start < SETUP_SECONDS + SECONDS_PER_CELL * sum(len(r) for r in rows):
        pass
    for row in rows:
        for char in row:
            if char.isdigit():
                WEIGHTS[int(char)]  # IndexError on 6, 7, 8: the crash
    return json.dumps({"schema": 1, "cells": []})


def main() -> None:
    for line in sys.stdin:
        print(answer(json.loads(line)["board"]), flush=True)


if __name__ == "__main__":
    main()
