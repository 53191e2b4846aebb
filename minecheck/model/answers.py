"""The vocabulary of answers every solver gives: verdicts, modes, per-cell answers, results.

Plain values only, so that the comparison and the report never need to know how a solver
works.  Probabilities are ``Fraction`` when exact and ``float`` (with a standard error) when
estimated; the tolerance for comparing floats lives in ``TOLERANCE`` and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cached_property

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


class FailureKind(StrEnum):
    """How a run failed, which is also the kind of finding it makes."""

    CRASH = "crash"  # it raised, died, or went over its memory limit
    TIMEOUT = "timeout"  # it ran out of its CPU-time budget, or sat idle
    PROTOCOL = "protocol"  # an external program's answer broke the protocol's schema


@dataclass(frozen=True)
class Failure:
    """Why a run gave no answer: its kind, the budget that stopped it (if one did), the message people
    read (naming the budget, never a measured time, so findings are the same on every run), and the
    last lines the program wrote to its standard error."""

    kind: FailureKind
    message: str
    budget: str | None = None  # "cpu", "idle", "memory", "output": the limit that stopped the run
    stderr: str = ""

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class CellAnswer:
    """One covered cell: its verdict and its mine probability (None where the solver is silent)."""

    cell: int
    verdict: Verdict | None = None
    probability: Fraction | float | None = None
    stderr: float | None = None  # for estimates; None when exact or absent


UNDECLARED = "undeclared"  # a result's extra: the protocol's complaint about an answer its solver does not declare
# (the rest of the answer read without it: compare.undeclared_complaint)


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
    failure: Failure | None = None  # the exception a solver raised, or what stopped it
    declined: str | None = None  # why the solver did not answer at all (too big, unsupported): not a failure
    samples: int | None = None  # for samplers: draws behind each estimate (after burn-in)
    claims: frozenset[Answers] | None = None  # what this answer claims, when less than the solver declares
    partial: bool = False  # cells left out claim nothing (the protocol's rule) rather than "no answer"
    tolerance: float | None = None  # the precision of its probabilities, as the solver declares it (None: exact)
    extra: tuple[tuple[str, str], ...] = field(default=())

    @property
    def error(self) -> str | None:
        """The failure's message, for people (None when the run answered)."""
        return None if self.failure is None else self.failure.message

    def answer(self, cell: int) -> CellAnswer | None:
        return self._by_cell.get(cell)

    @cached_property
    def _by_cell(self) -> dict[int, CellAnswer]:
        """The answers by cell, made on the first look-up: a report drawing every cell of a big board looks
        up each one (a scan per look-up made a 300x300 page quadratic)."""
        return {a.cell: a for a in self.cells}


def verdict_of(probability: Fraction) -> Verdict:
    """The verdict an exact probability implies."""
    if probability == 0:
        return Verdict.SAFE
    if probability == 1:
        return Verdict.MINE
    return Verdict.UNKNOWN


def result_to_json(result: SolverResult) -> dict:
    """A result as plain JSON, exact: probabilities as "p/q" strings or floats, counts as decimal strings, so
    that a run's answers are kept on disk and drawn again without running a solver."""
    def probability(p):
        return None if p is None else (f"{p.numerator}/{p.denominator}" if isinstance(p, Fraction) else p)

    failure = result.failure
    return {
        "solver": result.solver, "mode": result.mode.value, "consistent": result.consistent, "reason": result.reason,
        "cells": [[a.cell, a.verdict.value if a.verdict else None, probability(a.probability), a.stderr]
                  for a in result.cells],
        "layouts": None if result.layouts is None else str(result.layouts),
        "component_layouts": None if result.component_layouts is None else [str(n) for n in result.component_layouts],
        "lp_values": None if result.lp_values is None else [list(v) for v in result.lp_values],
        "seconds": result.seconds, "cpu": result.cpu,
        "failure": None if failure is None else [failure.kind.value, failure.message, failure.budget, failure.stderr],
        "declined": result.declined, "samples": result.samples,
        "claims": None if result.claims is None else sorted(a.value for a in result.claims),
        "partial": result.partial, "extra": [list(e) for e in result.extra], "tolerance": result.tolerance,
    }


def result_from_json(data: dict) -> SolverResult:
    """The result ``result_to_json`` wrote."""
    def probability(p):
        return Fraction(p) if isinstance(p, str) else p

    failure = data.get("failure")
    return SolverResult(
        data["solver"], Mode(data["mode"]), data.get("consistent"), data.get("reason"),
        tuple(CellAnswer(c, Verdict(v) if v else None, probability(p), e) for c, v, p, e in data.get("cells", ())),
        None if data.get("layouts") is None else int(data["layouts"]),
        None if data.get("component_layouts") is None else tuple(int(n) for n in data["component_layouts"]),
        None if data.get("lp_values") is None else tuple((int(c), float(v)) for c, v in data["lp_values"]),
        data.get("seconds", 0.0), data.get("cpu", 0.0),
        None if failure is None else Failure(FailureKind(failure[0]), failure[1], failure[2], failure[3]),
        data.get("declined"), data.get("samples"),
        None if data.get("claims") is None else frozenset(Answers(a) for a in data["claims"]),
        data.get("partial", False), data.get("tolerance"), tuple(tuple(e) for e in data.get("extra", ())))
