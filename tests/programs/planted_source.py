"""A solver with a planted bug, as a solver author writes one: exact, but a cell below 0.3 is called safe.

Its source is what the tests hand to minecheck as a user's file (``SOURCE``).
"""

SOURCE = '''
from minecheck import count_board, parse_board


def solve(board_text, mode):
    """Exact, but a cell below 0.3 is called safe: the planted bug."""
    board = parse_board(board_text)
    counted = count_board(board, mode)
    if not counted.consistent:
        return {"schema": 1, "consistent": False, "reason": counted.reason, "cells": []}
    cells = []
    for cell, p in counted.probabilities:
        if p is not None:
            row, col = board.row_col(cell)
            verdict = "safe" if p < 0.3 else "mine" if p == 1 else "unknown"
            cells.append({"row": row, "col": col, "verdict": verdict})
    return {"schema": 1, "cells": cells}
'''
