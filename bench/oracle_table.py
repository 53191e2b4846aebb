"""Benchmark: the perfect-play value of small games (``minecheck.play.oracle``), with the CPU seconds each took.

    python bench/oracle_table.py [--quick]

Rows: 4x4x4 and 5x5x5 with the first click anywhere (the player's choice, possibly a mine), and with the
first click fixed at the centre (row h//2, column w//2) under the ``safe`` and ``safe-3x3`` rules.
``--quick`` leaves out 5x5x5 (a few minutes of CPU in all).
"""

from __future__ import annotations

import argparse
import time

from minecheck.play.oracle import first_click_value

CASES = [  # (width, height, mines, rule, where): where is "best" (the player's choice) or "centre"
    (4, 4, 4, "any", "best"),
    (4, 4, 4, "safe", "centre"),
    (4, 4, 4, "safe-3x3", "centre"),
    (5, 5, 5, "any", "best"),
    (5, 5, 5, "safe", "centre"),
    (5, 5, 5, "safe-3x3", "centre"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 4x4 rows")
    args = parser.parse_args()
    print("| size | first click | value | ≈ | CPU s |")
    print("| --- | --- | --- | --- | --- |")
    for width, height, mines, rule, where in CASES:
        if args.quick and width * height > 16:
            continue
        cell = None if where == "best" else (height // 2) * width + width // 2
        start = time.process_time()
        value = first_click_value(width, height, mines, rule, cell)
        seconds = time.process_time() - start
        click = f"{rule}, {'anywhere' if cell is None else 'centre'}"
        print(f"| {width}x{height}x{mines} | {click} | {value} | {float(value):.4f} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
