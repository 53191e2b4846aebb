"""Search, not only sampling (issue 51): a share of a campaign's boards are changed copies of the boards on which
a subject came closest to being wrong, in the spirit of Hypothesis's ``target()``.

*Closeness* is read from the answers the cross-check already has, never from a solver's insides: per subject and
board (where the subject has no finding), one score in (0, 1] per label, higher is closer:

* ``gap``: the largest gap between its probability and the exact one that is still within its tolerance, from 1%
  of it (below, a double's rounding: every float engine has it everywhere); not for an estimate (a sampler's gaps
  are its noise, judged by a statistical test);
* ``edge``: a verdict "unknown" on a cell whose exact probability is within 1% of 0 or 1 (nearest wins);
* ``count``: a count it got right within 8 bits of a numeric edge (2**31, 2**32, 2**53, 2**63, 2**64, 2**1023);
* ``declined``: a board it declined to answer.

How long a subject took is not a label: CPU seconds differ from one run to the next, and a board chosen for them
would make the campaign's boards differ too.

*The search state* keeps, per subject and label, the closest board so far (the highest score, the earliest board
on a tie), folded from the boards' closeness in any order: the same state from the same boards.  Board ``index``
of a search slot (``SEARCH_SLOTS``, positions of the mix's period) is planned from the closeness of the boards
before ``index - LAG`` only: a campaign starts it once those are done (they are always done by then in a run of
one job, and a run of many waits for them), so one seed gives the same boards whatever ``--jobs`` and the load.
Its target is the next (subject, label) in turn among those with a closest board; its board that board changed by
one more round (``boards.mutation``).  With no target (a subject never close) the slot keeps its mix board.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from minecheck.boards.mutation import recipe_from_json, recipe_json
from minecheck.boards.recipe import Recipe
from minecheck.model.answers import TOLERANCE, SolverResult, Verdict

LABELS = ("gap", "edge", "count", "declined")
NOISE = 0.01  # a gap below this share of the tolerance is a double's rounding (1e-16), not a step towards a bug
NEAR_CERTAIN = 0.01  # an exact probability within this of 0 or 1 is near an edge
SMALLEST = 1e-12  # an exact probability this near 0 or 1 scores 1 on ``edge``
COUNT_EDGES = (31, 32, 53, 63, 64, 1023)  # powers of two where a count's arithmetic breaks
COUNT_BITS = 8  # a count within this many bits of an edge is near it
LAG = 8  # a search board reads the closeness of the boards before its index minus LAG
MOST_CELLS = 2000  # a board past this size is no parent: each changed copy would cost what the board cost


@dataclass(frozen=True)
class Near:
    """How close one subject came to being wrong on one board, by label."""

    subject: str
    label: str
    score: float

    def to_json(self) -> list:
        return [self.subject, self.label, self.score]  # unrounded: a resumed search compares the very same scores


def closeness(subject: SolverResult, truth: SolverResult, wrong: bool) -> list[Near]:
    """The labels on which ``subject`` came close to ``truth`` (the ground truth's result) in one mode; none where
    it was ``wrong`` (a finding) or either failed."""
    if wrong or subject.failure is not None or truth.failure is not None:
        return []
    if subject.declined:
        return [Near(subject.solver, "declined", 1.0)]
    near = []
    exact = {a.cell: a.probability for a in truth.cells if a.probability is not None}
    gaps, edges = [], []
    for a in subject.cells:
        want = exact.get(a.cell)
        if want is None:
            continue
        if a.probability is not None and not isinstance(a.probability, Fraction) and subject.samples is None:
            share = abs(float(a.probability) - float(want)) / (subject.tolerance or TOLERANCE)
            if NOISE <= share and math.isfinite(share):
                gaps.append(min(1.0, share))
        distance = min(want, 1 - want)
        if a.verdict is Verdict.UNKNOWN and 0 < distance <= NEAR_CERTAIN:
            edges.append(min(1.0, math.log(1 / float(distance)) / math.log(1 / SMALLEST)))
    if gaps:
        near.append(Near(subject.solver, "gap", max(gaps)))
    if edges:
        near.append(Near(subject.solver, "edge", max(edges)))
    if subject.layouts is not None and subject.layouts == truth.layouts and truth.layouts > 1:
        bits = min(abs(math.log2(truth.layouts) - e) for e in COUNT_EDGES)
        if bits < COUNT_BITS:
            near.append(Near(subject.solver, "count", 1 - bits / COUNT_BITS))
    return near


def board_closeness(checks, subjects: Iterable[str], ground_truth: str) -> tuple[Near, ...]:
    """Each subject's best score per label over a board's checks (``crosscheck.BoardCheck``, one per mode)."""
    best: dict[tuple[str, str], float] = {}
    names = set(subjects)
    for c in checks:
        truth = c.result(ground_truth)
        if truth is None or c.board.size > MOST_CELLS:
            continue
        wrong = {f.subject for f in c.findings}
        for r in c.results:
            if r.solver in names:
                for n in closeness(r, truth, r.solver in wrong):
                    best[(n.subject, n.label)] = max(best.get((n.subject, n.label), 0.0), n.score)
    return tuple(Near(s, label, score) for (s, label), score in sorted(best.items()))


# -- the state and the plan ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Closest:
    """The closest board so far for one subject and label."""

    score: float
    index: int
    recipe: Recipe


def fold(state: dict[tuple[str, str], Closest], index: int, recipe: Recipe, near: Iterable[Near]) -> None:
    """Take one board's closeness into the state (the highest score wins, then the earliest board)."""
    for n in near:
        key = (n.subject, n.label)
        old = state.get(key)
        if old is None or (n.score, -index) > (old.score, -old.index):
            state[key] = Closest(n.score, index, recipe)


def state_before(boards: dict[int, tuple[Recipe, tuple[Near, ...]]], end: int) -> dict[tuple[str, str], Closest]:
    """The search state made of the boards before ``end`` (``boards``: index -> its recipe and closeness)."""
    state: dict[tuple[str, str], Closest] = {}
    for index in sorted(i for i in boards if i < end):
        fold(state, index, *boards[index])
    return state


def targets(state: dict[tuple[str, str], Closest], subjects: tuple[str, ...]) -> list[tuple[str, str]]:
    """The (subject, label) pairs with a closest board, subjects in the campaign's order, labels in LABELS'."""
    return [(s, label) for s in subjects for label in LABELS if (s, label) in state]


def search_recipe(state: dict[tuple[str, str], Closest], subjects: tuple[str, ...], turn: int, index: int,
                  seed: int) -> Recipe | None:
    """Search slot ``turn``'s board (board ``index``, its seed ``seed``): the closest board of the turn's target
    changed by one more round; None when no subject came close."""
    aims = targets(state, subjects)
    if not aims:
        return None
    subject, label = aims[turn % len(aims)]
    closest = state[(subject, label)]
    parent, steps = closest.recipe, ""
    if parent.generator == "search":  # a search board's own child: the same parent, one round more
        params = dict(parent.params)
        parent, steps = recipe_from_json(str(params["parent"])), str(params["steps"])
    steps = f"{steps},{seed}" if steps else str(seed)
    return Recipe("search", (("of", closest.index), ("parent", recipe_json(parent)), ("steps", steps),
                             ("target", f"{label} of {subject}")), seed)


def near_to_json(near: tuple[Near, ...]) -> list:
    return [n.to_json() for n in near]


def near_from_json(rows: list) -> tuple[Near, ...]:
    return tuple(Near(str(s), str(label), float(score)) for s, label, score in rows)
