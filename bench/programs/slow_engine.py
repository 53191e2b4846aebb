"""A slow engine with a planted fault, as real engines are: what ``bench/slow_subject.py`` runs.

    MINECHECK_MODE=local python slow_engine.py FACTOR < board      # one board per run
    MINECHECK_PERSISTENT=1 python slow_engine.py FACTOR              # a JSON request per line

It answers with minecheck's exact counter, but reads each digit without its flags (the mines still
owed are the digit itself: the fault ``flags-ignored`` of bench/faults.py, shown by ``3x1/F1H``), then
spins on the CPU until it has spent FACTOR times the counter's own CPU time on that board: slow in
proportion, as a real engine's search is, so a small board costs little and a big one much.  The spin
stops at SPIN_CAP CPU seconds, well inside minecheck's 10 s budget: the counter's own time varies with the
machine's load, and a board near the budget would time out on one run and not on the next (the default
mix's wide numeric board costs the counter about 0.03 s, 300 times that is the budget itself).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for faults.py

from faults import FAULTS  # noqa: E402

from minecheck.model.answers import Mode  # noqa: E402
from minecheck.model.boardtext import parse_board  # noqa: E402


def answer(text: str, mode: str) -> dict:
    """The faulty exact answer as a protocol object."""
    board = parse_board(text)
    result = FAULTS["flags-ignored"]().solve(board, Mode(mode))
    if not result.consistent:
        return {"schema": 1, "consistent": False, "reason": result.reason or "no layout", "cells": []}
    cells = []
    for a in result.cells:
        row, col = board.row_col(a.cell)
        cell = {"row": row, "col": col}
        if a.verdict is not None:
            cell["verdict"] = a.verdict.value
        if a.probability is not None:
            cell["probability"] = f"{a.probability.numerator}/{a.probability.denominator}"
        cells.append(cell)
    out = {"schema": 1, "consistent": True, "cells": cells}
    if result.layouts is not None:
        out["layouts"] = result.layouts
    return out


SPIN_CAP = 6.0  # CPU seconds: the most one answer spins, so the subject's findings do not depend on load


def slowly(text: str, mode: str, factor: float) -> str:
    """The answer, after FACTOR times the CPU it took."""
    start = time.process_time()
    out = answer(text, mode)
    until = start + min(factor * (time.process_time() - start), SPIN_CAP)
    while time.process_time() < until:
        pass
    return json.dumps(out)


def main() -> None:
    factor = float(sys.argv[1])
    if os.environ.get("MINECHECK_PERSISTENT") != "1":
        print(slowly(sys.stdin.read(), os.environ.get("MINECHECK_MODE", "local"), factor))
        return
    for line in sys.stdin:
        request = json.loads(line)
        print(slowly(request["board"], request["mode"], factor), flush=True)


if __name__ == "__main__":
    main()
