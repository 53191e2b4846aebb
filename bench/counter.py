"""Benchmark: the exact counter against plain layout-by-layout enumeration, side by side in one run.

    python bench/counter.py [--quick]

Prints, per component, both times and the speed-up; then the counter's median time on stuck
Expert positions and its time on the largest stress components (up to 150+ cells).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import Component, build_constraints
from minecheck.engine.counter import count_board, count_component


def enumerate_layouts(comp: Component, budget: float) -> tuple[int, float] | None:
    """Plain backtracking: visit every consistent layout one by one (the baseline to beat)."""
    cells = list(comp.cells)
    eqs = [(set(eq.cells), eq.mines) for eq in comp.equations]
    of_cell = {c: [i for i, (cs, _) in enumerate(eqs) if c in cs] for c in cells}
    left = [len(cs) for cs, _ in eqs]
    owed = [m for _, m in eqs]
    mines_per_cell = dict.fromkeys(cells, 0)
    chosen: list[int] = []
    found = 0
    deadline = time.perf_counter() + budget

    def go(i: int) -> bool:
        nonlocal found
        if i == len(cells):
            found += 1
            for c in chosen:
                mines_per_cell[c] += 1
            return time.perf_counter() < deadline or found % 4096 != 0
        c = cells[i]
        for mine in (0, 1):
            ok = True
            for e in of_cell[c]:
                left[e] -= 1
                owed[e] -= mine
                if owed[e] < 0 or owed[e] > left[e]:
                    ok = False
            if ok:
                if mine:
                    chosen.append(c)
                if not go(i + 1):
                    return False
                if mine:
                    chosen.pop()
            for e in of_cell[c]:
                left[e] += 1
                owed[e] += mine
        return True

    start = time.perf_counter()
    sys.setrecursionlimit(10000)
    completed = go(0)
    return (found, time.perf_counter() - start) if completed else None


def components(quick: bool) -> list[tuple[str, Component]]:
    """Components from realistic and stress boards, spanning small to large."""
    picked = []
    for seed in range(4 if quick else 12):
        for level in ("intermediate", "expert"):
            sys_ = build_constraints(generate_board(recipe("play", seed, level=level)))
            if sys_.components:
                picked.append((f"play {level} seed={seed}", max(sys_.components, key=lambda c: len(c.cells))))
    for seed in range(3 if quick else 8):
        for open_prob in (0.1, 0.2, 0.3):
            sys_ = build_constraints(generate_board(recipe("stress", seed, open_prob=open_prob)))
            for comp in sys_.components:
                if 20 <= len(comp.cells) <= 160:
                    picked.append((f"stress p={open_prob} seed={seed}", comp))
    return picked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer boards, shorter enumeration budget")
    args = parser.parse_args()
    budget = 5.0 if args.quick else 20.0

    print(f"{'component':34} {'cells':>5} {'layouts':>12} {'enumerate':>11} {'counter':>9} {'speed-up':>9}")
    rows, largest = [], []
    for name, comp in sorted(components(args.quick), key=lambda x: len(x[1].cells)):
        t0 = time.perf_counter()
        cc = count_component(comp)
        t_count = time.perf_counter() - t0
        largest.append((len(comp.cells), t_count))
        # plain enumeration visits every layout: past a few million it is hours, so it is estimated
        enum = enumerate_layouts(comp, budget) if cc.layouts <= 5_000_000 else None
        if enum is not None:
            assert enum[0] == cc.layouts, f"enumeration found {enum[0]} layouts, the counter {cc.layouts}"
        rows.append((name, comp, cc.layouts, None if enum is None else enum[1], t_count))
    measured = [t / n for _, _, n, t, _ in rows if t is not None and n >= 1000]
    per_layout = min(measured) if measured else 1e-6  # the cheapest cost per layout seen: a lower bound
    ratios = []
    for name, comp, layouts, t_enum, t_count in rows:
        shown = f"{t_enum:>10.3f}s" if t_enum is not None else f"~{layouts * per_layout:>9.3g}s"
        t_enum = t_enum if t_enum is not None else layouts * per_layout
        if layouts >= 1000:
            ratios.append(t_enum / t_count)
        print(f"{name:34} {len(comp.cells):>5} {layouts:>12.4g} {shown} {t_count:>8.4f}s {t_enum / t_count:>8.1f}x")
    print(f"\n(~ = estimated at {per_layout * 1e6:.1f} us per layout, the cheapest rate measured above)")
    print(f"speed-up over plain enumeration on components with >= 1000 layouts: median "
          f"{statistics.median(ratios):.0f}x, min {min(ratios):.1f}x over {len(ratios)} components")

    times = []
    for seed in range(10 if args.quick else 40):
        board = generate_board(recipe("play", seed, level="expert"))
        t0 = time.perf_counter()
        count_board(board)
        times.append(time.perf_counter() - t0)
    print(f"stuck Expert positions ({len(times)}): median {1000 * statistics.median(times):.2f} ms, "
          f"max {1000 * max(times):.2f} ms per board (global mode, all components)")
    big = [t for n, t in largest if n >= 100]
    if big:
        print(f"components of 100-160 cells ({len(big)}): median {statistics.median(big):.3f} s, "
              f"max {max(big):.3f} s")


if __name__ == "__main__":
    main()
