"""Protocol adapter for zig-minesolver (PyPI), an exact-probability engine compiled from Zig: the board
goes to its own binary in the engine's text (``#`` covered, ``*`` a flag, digits opened, cells apart by
spaces), ``--mines`` the stated total; its five-decimal probabilities come back as the protocol's answer.

Run by bench/engines.py under the engines' own venv (``python zig_engine.py``); one board per run, or JSON
lines with MINECHECK_PERSISTENT set.  The translation is kept literal: what the engine says is what
minecheck judges, so a finding is the engine's, not the adapter's.
"""

import json
import os
import pathlib
import subprocess
import sys

import zig_minesolver

BINARY = pathlib.Path(zig_minesolver.__file__).parent / "zig-main"
ENGINE_CELL = {"H": "#", ".": "#", "F": "*"}


def rows_of(board_text):
    lines = [line.strip() for line in board_text.splitlines() if line.strip() and not line.startswith("#")]
    head = lines[0].lower().split("x")
    total = int(head[2]) if len(head) == 3 else None
    return lines[1:], total


def answer(board_text, mode):
    rows, total = rows_of(board_text)
    engine_text = "\n".join(" ".join(ENGINE_CELL.get(ch, ch) for ch in row) for row in rows) + "\n"
    run = subprocess.run([str(BINARY), "--mines", str(total)], input=engine_text, capture_output=True, text=True)
    if run.returncode != 0:  # the engine's own words end the stderr, and its exit status is the adapter's
        sys.stderr.write(run.stderr[-4000:])
        raise SystemExit(run.returncode if run.returncode > 0 else 128 - run.returncode)
    lines = run.stdout.splitlines()
    probs = [line.split() for line in lines[lines.index("Probabilities:") + 1:]]
    cells = [{"row": r, "col": c, "probability": float(probs[r][c])}
             for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "H."]
    return {"schema": 1, "decimals": 5, "cells": cells}


if __name__ == "__main__":
    if os.environ.get("MINECHECK_PERSISTENT"):
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps(answer(request["board"], request["mode"])), flush=True)
    else:
        print(json.dumps(answer(sys.stdin.read(), os.environ.get("MINECHECK_MODE", "global"))))
