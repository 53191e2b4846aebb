"""The statistical test that judges a sampler's probability estimates against exact ones.

Per cell, z = (estimate - exact) / se, where se is the sampler's own standard error (batch
means, so autocorrelation is in it), floored by the standard error of independent draws at
the exact p, sqrt(p(1-p)/n) - a chain cannot do better than independent draws, and the floor
stops a cell that happened never to flip (se = 0) from being flagged on a tiny deviation.
A board is flagged when some |z| exceeds the Student-t quantile (``BATCH_DOF`` degrees of
freedom, as batch means with ``BATCH_DOF + 1`` batches) at level ALPHA_BOARD / (2 m), m the
number of cells tested: a Bonferroni bound, so a correct sampler flags a board with
probability at most about ALPHA_BOARD, whatever the number of cells.  Estimates off by less
than ``MARGIN`` are never flagged (finite-run bias that no one acts on).
Cells whose exact probability is 0 or 1 are judged exactly: a sampler that only visits
consistent layouts can never report them otherwise.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from minecheck.model.answers import SolverResult

ALPHA_BOARD = 1e-5  # family-wise false-alarm bound per board
BATCH_DOF = 19  # a sampler's standard errors come from at least 20 batch means
MARGIN = 0.005  # absolute deviations below this are not findings


def critical_z(cells_tested: int) -> float:
    """The |z| above which a cell is flagged, Bonferroni-corrected for the number of cells."""
    return _critical_z(max(1, cells_tested))


@cache
def _critical_z(cells_tested: int) -> float:
    from scipy.stats import t as student_t  # half a second to import: only where a sampler is judged

    return float(student_t.ppf(1 - ALPHA_BOARD / (2 * cells_tested), BATCH_DOF))


def probability_outliers(subject: SolverResult, exact: dict[int, Fraction]) -> list[tuple[int, float, float]]:
    """(cell, estimate, z) for every cell whose estimate is too far from the exact probability."""
    tested = [a for a in subject.cells if a.probability is not None and a.cell in exact]
    limit = critical_z(len(tested))
    out = []
    for a in tested:
        p, est = exact[a.cell], float(a.probability)
        if p in (0, 1):
            if est != p:
                out.append((a.cell, est, math.inf))
            continue
        floor = math.sqrt(float(p * (1 - p)) / subject.samples) if subject.samples else 0.0
        se = max(a.stderr or 0.0, floor)
        dev = abs(est - float(p))
        if dev <= MARGIN:
            continue
        z = dev / se if se > 0 else math.inf
        if z > limit:
            out.append((a.cell, est, z))
    return out
