"""A solver that lies where local mode cannot check it: exact on every cell a digit touches, and a mine on each
cell no digit touches (with probability 1), which nothing without the total can make certain.

    minecheck check H1HHH --solvers liar:solve --mode local --references exact    # run from tests/programs
"""

from minecheck import count_board, parse_board


def solve(board_text, mode):
    board = parse_board(board_text)
    counted = count_board(board, mode)
    if not counted.consistent:
        return {"schema": 1, "consistent": False, "reason": counted.reason, "cells": []}
    cells = []
    for cell, p in counted.probabilities:
        row, col = board.row_col(cell)
        if p is not None:
            verdict = "safe" if p == 0 else "mine" if p == 1 else "unknown"
            cells.append({"row": row, "col": col, "verdict": verdict, "probability": f"{p.numerator}/{p.denominator}"})
    for cell in board.covered:
        if mode == "local" and not any(board.is_digit(n) for n in board.neighbours(cell)):
            row, col = board.row_col(cell)
            cells.append({"row": row, "col": col, "verdict": "mine", "probability": 1})
    return {"schema": 1, "cells": cells}
