"""An external solver for the protocol tests: a program that answers right, or misbehaves on request.

    python protocol_program.py [--persistent] [--misbehave HOW] [--starts FILE]

It answers with minecheck's exact counter (so a right answer is easy to check), reading the
board from standard input (one board) or JSON lines (persistent).  HOW picks one way to fail:
crash, garbage, bad-verdict, off-board, probability-2, schema-2, hang, spin, spawn-spinner,
silent-exit, two-lines, mines-are-safe (a wrong answer, not a broken one), kill-worker (SIGKILL to the
process that runs its guardian, on boards with an odd total: what an out-of-memory killer or a bug in
minecheck would do to a campaign's worker).
``--starts FILE`` appends the process id to FILE when the program starts; ``--spin S`` spends S CPU
seconds before each answer.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board


def answer(text: str, mode: str, how: str | None) -> dict | str:
    board = parse_board(text)
    if board.truth is not None:
        raise SystemExit("the board carried its hidden truth: minecheck must never show it")
    if how == "crash":
        print("Exception in thread \"main\" java.lang.IllegalStateException: deliberate", file=sys.stderr)
        raise SystemExit(3)
    if how == "garbage":
        return "this is not JSON {"
    if how == "kill-worker" and board.total_mines is not None and board.total_mines % 2 == 1:
        with open(f"/proc/{os.getppid()}/stat") as f:  # the guardian's parent: the worker
            os.kill(int(f.read().rsplit(")", 1)[1].split()[1]), 9)
        time.sleep(600)
    if how == "hang":
        time.sleep(600)
    if how == "spin":
        while True:
            pass
    if how == "spawn-spinner":
        # the spinner names a word of its command line, by which the test finds it from outside the sandbox
        marker = f"spinner-{os.urandom(8).hex()}"
        subprocess.Popen([sys.executable, "-c", "import sys\n"
                          "print('spinner', sys.argv[1], file=sys.stderr, flush=True)\n"
                          "while True: pass", marker])
        time.sleep(600)
    count = count_board(board, Mode(mode))
    if not count.consistent:
        return {"schema": 1, "consistent": False, "reason": count.reason, "layouts": 0, "cells": []}
    cells = []
    for cell, p in count.probabilities:
        if p is None:
            continue
        row, col = board.row_col(cell)
        verdict = "safe" if p == 0 else "mine" if p == 1 else "unknown"
        cells.append({"row": row, "col": col, "verdict": verdict, "probability": f"{p.numerator}/{p.denominator}"})
    out = {"schema": 1, "consistent": True, "layouts": count.layouts, "cells": cells}
    if how == "mines-are-safe":  # a wrong answer, on the boards where some cell is surely a mine
        for cell in cells:
            if cell["verdict"] == "mine":
                cell["verdict"], cell["probability"] = "safe", "0/1"
    if how == "bad-verdict" and cells:
        cells[0]["verdict"] = "probably"
    if how == "off-board":
        cells.append({"row": board.height, "col": 0, "verdict": "safe"})
    if how == "probability-2" and cells:
        cells[0]["probability"] = 2.0
    if how == "schema-2":
        out["schema"] = 2
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--persistent", action="store_true")
    parser.add_argument("--misbehave", default=None)
    parser.add_argument("--starts", default=None)
    parser.add_argument("--spin", type=float, default=0.0)
    args = parser.parse_args()
    sys.set_int_max_str_digits(0)  # a count of any length, as a program in another language writes it
    if args.starts:
        with open(args.starts, "a") as f:
            f.write(f"{os.getpid()}\n")
    if not args.persistent:
        spin(args.spin)
        print(_text(answer(sys.stdin.read(), os.environ["MINECHECK_MODE"], args.misbehave)))
        return
    for line in sys.stdin:
        request = json.loads(line)
        if args.misbehave == "silent-exit":
            return
        extra = "\n{}" if args.misbehave == "two-lines" else ""  # one write: read back in one piece
        spin(args.spin)
        print(_text(answer(request["board"], request["mode"], args.misbehave)) + extra, flush=True)


def spin(seconds: float) -> None:
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def _text(out: dict | str) -> str:
    return out if isinstance(out, str) else json.dumps(out)


if __name__ == "__main__":
    main()
