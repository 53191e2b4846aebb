"""The vocabulary of answers every solver gives: verdicts, modes, per-cell answers, results.

Plain values only, so that the comparison and the report never need to know how a solver
works.  Probabilities are ``Fraction`` when exact and ``float`` (with a standard error) when
estimated; the tolerance for comparing floats lives in ``TOLERANCE`` and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

TOLERANCE = 1e-6  # the one tolerance for comparing floating-point answers (LP values, probabilities)


class Verdict(StrEnum):
    SAFE = "safe"
    MINE = "mine"
    UNKNOWN = "unknown"


class Mode(StrEnum):
    """local: the digit equations only (as the articles); global: with the total mine count."""

    LOCAL = "local"
    GLOBAL = "global"


class Answers(StrEnum):
    """What a solver can answer, so the comparison knows what to compare."""

    VERDICTS = "verdicts"
    PROBABILITIES = "probabilities"
    COUNTS = "counts"
    CONSISTENCY = "consistency"
    LP = "lp"


@dataclass(frozen=True)
class CellAnswer:
    """One covered cell: its verdict and its mine probability (None where the solver is silent)."""

    cell: int
    verdict: Verdict | None = None
    probability: Fraction | float | None = None
    stderr: float | None = None  # for estimates; None when exact or absent


@dataclass(frozen=True)
class SolverResult:
    """Everything one solver said about one board in one mode."""

    solver: str
    mode: Mode
    consistent: bool | None = None
    reason: str | None = None  # why the board is inconsistent, in the problem's words
    cells: tuple[CellAnswer, ...] = ()
    layouts: int | None = None
    component_layouts: tuple[int, ...] | None = None
    lp_values: tuple[tuple[int, float], ...] | None = None  # an LP vertex, per cell: not a probability
    seconds: float = 0.0  # wall-clock, for people; budgets are in CPU time (``cpu``)
    cpu: float = 0.0  # CPU seconds of the solver's call (its process group when isolated)
    error: str | None = None  # the exception a solver raised, as "Type: message", or what stopped it
    declined: str | None = None  # why the solver did not answer at all (too big, unsupported): not a failure
    samples: int | None = None  # for samplers: draws behind each estimate (after burn-in)
    claims: frozenset[Answers] | None = None  # what this answer claims, when less than the solver declares
    partial: bool = False  # cells left out claim nothing (the protocol's rule) rather than "no answer"
    extra: tuple[tuple[str, str], ...] = field(default=())

    def answer(self, cell: int) -> CellAnswer | None:
        for a in self.cells:
            if a.cell == cell:
                return a
        return None


def verdict_of(probability: Fraction) -> Verdict:
    """The verdict an exact probability implies."""
    if probability == 0:
        return Verdict.SAFE
    if probability == 1:
        return Verdict.MINE
    return Verdict.UNKNOWN
