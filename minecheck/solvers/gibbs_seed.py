"""Gibbs sampling (article 003), the seed: the article's sampler ported from its Java.

**seed** (``gibbs@seed[:SEED]``) ports the article's Java: ``MineBoard.constraints()``,
``GibbsSampler.estimate`` (greedy start, single-cell updates whose "conditional" multiplies
combination counts, 100 burn-in sweeps, 400 sampled sweeps, hit frequencies) with
``java.util.Random(SEED)`` and the variables swept in the order of the Java HashSet of "r,c"
keys (``javarand``), so it answers bit for bit what the Java answers; and ``MineAi.decide``'s
off-frontier probability ``max(0, total - flags - sum of frontier estimates) / off-frontier
cells``.  It declares the local mode only: it models the digits alone, as the article does,
and uses the board's total just for off-frontier cells (silent on them when the board states
no total).  Verdicts use the article's thresholds: >= 0.999 a mine, <= 0.001 safe.  Each
estimate carries a batch-means standard error over the sampled sweeps (the harness measuring;
the estimate itself is the article's).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import sqrt

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board, label
from minecheck.model.errors import SolverFault
from minecheck.model.solver import require_mode
from minecheck.solvers.defects import chosen, names_of
from minecheck.solvers.javarand import JavaRandom, hash_order

# -- the seed: the article's Java ------------------------------------------------------------

SEED_SAMPLES = 400  # the article's Main: new MineAi(g, 400, 100)
SEED_BURN_IN = 100
SURE_MINE = 0.999  # section 5: >= 0.999 counts as a mine
SURE_SAFE = 0.001  # and <= 0.001 as safe
SEED_BATCHES = 20  # batch means for the harness's standard errors (20 batches of 20 sweeps)
SEED_DEFECTS = names_of("gibbs@seed")  # all on by default (minecheck.solvers.defects)


@dataclass(frozen=True)
class ArticleConstraint:
    """The article's Constraint: ``required`` mines among the HIDDEN neighbours, keyed "r,c"."""

    variables: tuple[str, ...]
    required: int


@dataclass(frozen=True)
class SeedEstimate:
    """What GibbsSampler.estimate returns, in the Java HashSet's order, with batch-means errors."""

    keys: tuple[str, ...]
    probabilities: tuple[float, ...]
    stderrs: tuple[float, ...]
    total_stderr: float  # of the frontier's sampled mine total, for the off-frontier estimate


def article_key(board: Board, cell: int) -> str:
    row, col = board.row_col(cell)
    return f"{row},{col}"


class ImpossibleDigit(SolverFault, ValueError):
    """A digit no layout can meet: how the seed reports it with gibbs-impossible-digit-kept off."""


def article_constraints(board: Board, defects: frozenset[str] = SEED_DEFECTS) -> tuple[ArticleConstraint, ...]:
    """MineBoard.constraints(): one constraint per opened non-zero digit, row by row."""
    out = []
    for cell in range(board.size):
        digit = board.cells[cell]
        # DEFECT(seed) gibbs-zero-digit-ignored: a 0 gives no constraint, so its covered neighbours
        # count as off-frontier cells and get the far probability instead of 0 (board 3x1x1 "0HH":
        # both covered cells 0.5).  The fixed variant reads every digit through build_constraints.
        if digit < 0 or (digit == 0 and "gibbs-zero-digit-ignored" in defects):
            continue
        around = board.neighbours(cell)  # the article's DIRS order is row-major too
        known = sum(1 for n in around if board.is_flag(n))
        unknown = tuple(article_key(board, n) for n in around if board.is_covered(n))
        remaining = digit - known
        # DEFECT(seed) gibbs-impossible-digit-kept: a digit with no covered neighbour still owed
        # mines is kept but has no variable, so it changes nothing and the contradiction goes
        # unnoticed (``2F1/111/HHH``: the 2 lacks a mine, yet the three covered cells are answered
        # safe); too many flags make ``remaining`` negative and only zero the weights.  The fixed
        # variant reports such boards as inconsistent.
        if not 0 <= remaining <= len(unknown) and "gibbs-impossible-digit-kept" not in defects:
            raise ImpossibleDigit(f"the {digit} at {label(board, cell)} needs {remaining} mines "
                                  f"among {len(unknown)} covered cells")
        if unknown or remaining > 0:
            out.append(ArticleConstraint(unknown, remaining))
    return tuple(out)


@cache
def java_comb(n: int, k: int) -> float:
    """GibbsSampler.comb: C(n, k) as the same product of doubles, 0 outside 0..n."""
    if k < 0 or k > n:
        return 0.0
    result = 1.0
    for i in range(k):
        result = result * (n - i) / (i + 1)
    return result


def gibbs_estimate(constraints: tuple[ArticleConstraint, ...], samples: int, burn_in: int,
                   seed: int, batches: int = SEED_BATCHES) -> SeedEstimate:
    """GibbsSampler.estimate with ``new Random(seed)``: hit frequency of each variable over the sampled sweeps."""
    keys = hash_order(v for c in constraints for v in c.variables)
    if not keys:
        return SeedEstimate((), (), (), 0.0)
    index = {k: i for i, k in enumerate(keys)}
    related: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in keys]
    for c in constraints:
        for v in c.variables:
            related[index[v]].append((tuple(index[o] for o in c.variables if o != v), c.required))

    assign = [0] * len(keys)
    for c in constraints:  # greedy start: fill each constraint's shortfall in order, never unset
        need = c.required - sum(assign[index[v]] for v in c.variables)
        for v in c.variables:
            if need <= 0:
                break
            if assign[index[v]] == 0:
                assign[index[v]] = 1
                need -= 1

    rng = JavaRandom(seed)
    batches = max(1, min(batches, samples))
    batch_hits = [[0] * len(keys) for _ in range(batches)]
    batch_size = [0] * batches
    for sweep in range(burn_in + samples):
        for i, rel in enumerate(related):
            assign[i] = 1 if rng.next_double() < _conditional_one(assign, rel) else 0
        if sweep >= burn_in:
            batch = (sweep - burn_in) * batches // samples
            batch_size[batch] += 1
            row = batch_hits[batch]
            for i, x in enumerate(assign):
                row[i] += x
    collected = max(1, samples)
    hits = [sum(row[i] for row in batch_hits) for i in range(len(keys))]
    probs = tuple(h / collected for h in hits)
    stderrs = tuple(batch_stderr([row[i] for row in batch_hits], batch_size) for i in range(len(keys)))
    total = batch_stderr([sum(row) for row in batch_hits], batch_size)
    return SeedEstimate(tuple(keys), probs, stderrs, total)


def _conditional_one(assign: list[int], related: list[tuple[tuple[int, ...], int]]) -> float:
    """GibbsSampler.conditionalProbOne."""
    if not related:
        return 0.5
    # DEFECT(seed) gibbs-wrong-conditional: not the conditional of anything consistent.  With the other cells fixed a
    # digit is either satisfied or not; weighting by C(unknownOthers, required - sumOthers [- 1])
    # treats the fixed cells as still unknown, so the chain wanders through layouts that break
    # digits, counts them as samples, and its frequencies are not the posterior: ``H2H`` (both
    # cells mines) gives about 0.7 each, a lone 1 over three covered cells (``HH/H1``) about 0.2
    # instead of 1/3.  The fixed variant samples consistent layouts only.
    w1 = w0 = 1.0
    for others, required in related:
        mines = sum(assign[o] for o in others)
        w1 *= java_comb(len(others), required - mines - 1)
        w0 *= java_comb(len(others), required - mines)
    total = w1 + w0
    if total <= 0:
        return 0.0
    return w1 / total


def batch_stderr(batch_sums: list[int] | list[float], batch_sizes: list[int]) -> float:
    """Standard error of a mean from the means of consecutive batches (accounts for autocorrelation)."""
    means = [s / n for s, n in zip(batch_sums, batch_sizes) if n]
    if len(means) < 2:
        return 0.0
    mean = sum(means) / len(means)
    return sqrt(sum((m - mean) ** 2 for m in means) / (len(means) * (len(means) - 1)))


def seed_verdict(probability: float) -> Verdict:
    if probability >= SURE_MINE:
        return Verdict.MINE
    if probability <= SURE_SAFE:
        return Verdict.SAFE
    return Verdict.UNKNOWN


def far_probability(board: Board, estimate: SeedEstimate) -> float:
    """MineAi.decide's probability for hidden cells off the frontier (sums in the Java HashMap's order)."""
    prob = dict(zip(estimate.keys, estimate.probabilities))
    acc = 0.0
    for key in hash_order(estimate.keys):
        acc += prob[key]
    hidden, counted = len(board.covered), len(prob)
    # DEFECT(seed) gibbs-far-plug-in: the frontier estimates ignore the total while this uses it, and
    # the mean of (remaining - K) / off is replaced by a clamped plug-in; the fixed variant weights
    # every frontier layout with K mines by C(off, remaining - K) and averages (remaining - K) / off.
    return max(0.0, board.total_mines - len(board.flags) - acc) / (hidden - counted) if hidden > counted else 0.0


def article_decision(board: Board, prob: dict[str, float], far: float) -> str:
    """MineAi.decide's move: flag the last cell at >= 0.999 (while flags < total), else open the first lowest."""
    best, best_prob, sure_mine = None, 2.0, None
    for cell in board.covered:
        p = prob.get(article_key(board, cell), far)
        if p >= SURE_MINE and len(board.flags) < board.total_mines:
            sure_mine = cell
        if p < best_prob:
            best, best_prob = cell, p
    if sure_mine is not None:
        return f"flag {label(board, sure_mine)}"
    return "none" if best is None else f"open {label(board, best)}"


class SeedGibbs:
    """The article's sampler: frontier estimates from the digits, off-frontier ones from the total."""

    # consistency too: a digit it finds impossible makes it say so (and, by its defects, not always)
    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL})

    def __init__(self, seed: int = 0, samples: int = SEED_SAMPLES, burn_in: int = SEED_BURN_IN,
                 defects: frozenset[str] | None = None):
        """``defects``: the ones kept (None: all, as the Java); see minecheck.solvers.defects."""
        self.name = "gibbs@seed"
        self.seed, self.samples, self.burn_in = seed, samples, burn_in
        self.defects = chosen(defects, "gibbs@seed")

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        try:
            constraints = article_constraints(board, self.defects)
        except ImpossibleDigit as err:
            return SolverResult(self.name, mode, consistent=False, reason=str(err))
        est = gibbs_estimate(constraints, self.samples, self.burn_in, self.seed)
        cell_of = {article_key(board, c): c for c in board.covered}
        answers = [CellAnswer(cell_of[k], seed_verdict(p), p, e)
                   for k, p, e in zip(est.keys, est.probabilities, est.stderrs)]
        extra: tuple[tuple[str, str], ...] = ()
        if board.total_mines is not None:
            far = far_probability(board, est)
            frontier = set(est.keys)
            off = [c for c in board.covered if article_key(board, c) not in frontier]
            far_err = est.total_stderr / len(off) if off else 0.0
            answers += [CellAnswer(c, seed_verdict(far), far, far_err) for c in off]
            extra = (("decide", article_decision(board, dict(zip(est.keys, est.probabilities)), far)),)
        return SolverResult(self.name, mode, cells=tuple(sorted(answers, key=lambda a: a.cell)),
                            samples=self.samples, extra=extra)


def seed_solver(option: str | None = None) -> SeedGibbs:
    return SeedGibbs(seed=seed_option(option))


def seed_option(option: str | None) -> int:
    if option is None:
        return 0
    try:
        return int(option)
    except ValueError:
        raise ValueError(f"the Gibbs solvers take a seed as their option (gibbs@fixed:7), not {option!r}") from None
