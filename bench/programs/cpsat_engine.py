"""Protocol adapter for multi-puzzle-solver's Minesweeper (PyPI), certain cells by Google OR-tools' CP-SAT:
``give_next_guess`` asks the solver, cell by cell, whether each covered cell next to a digit can be safe and
can be a mine, with the stated total in the global mode; its safe and mine sets come back as verdicts.

The engine's board: ``' '`` covered, ``'F'`` a flag, digits opened.  Run by bench/engines.py under the
engines' own venv; one board per run, or JSON lines with MINECHECK_PERSISTENT set.  The translation is
kept literal, so what minecheck finds is the engine's own doing.
"""

import json
import os
import sys

import numpy as np
from puzzle_solver.puzzles.minesweeper.minesweeper import give_next_guess

ENGINE_CELL = {"H": " ", ".": " ", "F": "F"}


def answer(board_text, mode):
    lines = [line.strip() for line in board_text.splitlines() if line.strip() and not line.startswith("#")]
    head = lines[0].lower().split("x")
    total = int(head[2]) if len(head) == 3 and mode == "global" else None
    rows = lines[1:]
    grid = np.array([[ENGINE_CELL.get(ch, ch) for ch in row] for row in rows])
    safe, mines, _wrong_flags = give_next_guess(grid, mine_count=total, verbose=False)
    cells = [{"row": p.y, "col": p.x, "verdict": "safe"} for p in sorted(safe)]
    cells += [{"row": p.y, "col": p.x, "verdict": "mine"} for p in sorted(mines)]
    return {"schema": 1, "cells": cells}


if __name__ == "__main__":
    if os.environ.get("MINECHECK_PERSISTENT"):
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps(answer(request["board"], request["mode"])), flush=True)
    else:
        print(json.dumps(answer(sys.stdin.read(), os.environ.get("MINECHECK_MODE", "local"))))
