"""Measure the probability test's two sides: how often it flags the fixed Gibbs (false alarms) and the seed.

    python bench/gibbs_alarms.py [--boards N] [--jobs J]

For every board, each sampler's estimates are tested against the exact probabilities with the
campaign's test (minecheck.check.stats): a board is flagged when some cell's |z| passes the
Bonferroni-corrected Student-t bound at ALPHA_BOARD.  Zero alarms in N boards only bounds the
rate by about 3/N, so the calibration is shown too: the same test at looser levels (0.1, 0.01,
0.001) must flag the fixed sampler at no more than about those rates.  Boards: seeded reveal
and beginner/intermediate play positions, in both modes for the fixed sampler.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.stats import ALPHA_BOARD, BATCH_DOF, MARGIN
from minecheck.model.answers import Mode
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver

LEVELS = (0.1, 0.01, 0.001, ALPHA_BOARD)


def board_for(i: int):
    kind = i % 4
    if kind == 0:
        return generate_board(recipe("reveal", i, width=6, height=5, density=0.2, open_prob=0.5))
    if kind == 1:
        return generate_board(recipe("reveal", i, width=8, height=6, density=0.2, open_prob=0.4))
    return generate_board(recipe("play", i, level="beginner" if kind == 2 else "intermediate"))


def smallest_p(result, exact) -> float | None:
    """The Bonferroni-adjusted p-value of the board's worst cell (1 if nothing is off), None if no test ran."""
    from scipy.stats import t as student_t

    probs = {a.cell: a.probability for a in exact.cells if a.probability is not None}
    tested = [a for a in result.cells if a.probability is not None and a.cell in probs]
    if not tested:
        return None
    worst = 1.0
    for a in tested:
        p, est = probs[a.cell], float(a.probability)
        if p in (0, 1):
            if est != p:
                return 0.0
            continue
        dev = abs(est - float(p))
        if dev <= MARGIN:
            continue
        floor = math.sqrt(float(p * (1 - p)) / result.samples) if result.samples else 0.0
        se = max(a.stderr or 0.0, floor)
        z = dev / se if se else math.inf
        worst = min(worst, 2 * float(student_t.sf(z, BATCH_DOF)) * len(tested))
    return min(1.0, worst)


def one(i: int) -> list[tuple[str, str, float | None]]:
    board = board_for(i)
    out = []
    for mode in (Mode.LOCAL, Mode.GLOBAL):
        exact = run_solver(get_solver("exact"), board, mode)
        if not exact.consistent:
            continue
        for name in ("gibbs@fixed", "gibbs@seed"):
            solver = get_solver(f"{name}:{i}")
            if mode not in solver.modes:
                continue
            result = run_solver(solver, board, mode)
            out.append((name, mode.value, None if result.error else smallest_p(result, exact)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    tally: dict[tuple[str, str], list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(one, range(args.boards), chunksize=8):
            for name, mode, p in rows:
                if p is not None:
                    tally.setdefault((name, mode), []).append(p)
    print(f"{args.boards} boards in {time.perf_counter() - start:.0f} s; a board is flagged at level a when its "
          f"Bonferroni-adjusted p-value is below a (the campaign uses a = {ALPHA_BOARD:g})")
    print(f"{'sampler':12} {'mode':7} {'boards':>7} " + " ".join(f"{'a=' + format(a, 'g'):>12}" for a in LEVELS))
    for (name, mode), ps in sorted(tally.items()):
        cols = " ".join(f"{sum(p < a for p in ps):>5} ({sum(p < a for p in ps) / len(ps):.4f})" for a in LEVELS)
        print(f"{name:12} {mode:7} {len(ps):>7} {cols}")


if __name__ == "__main__":
    main()
