"""The seed ports' known defects, by name: one record per ``# DEFECT(seed) NAME:`` comment in the sources.

Each seed port takes ``defects``, the names of the defects to keep; by default all of them, and
then it answers bit for bit as the article's Java.  A defect switched off makes its site do what
the fixed variant does, so one defect can be shown alone (``minecheck.campaigns.teeth``).  A few cannot be
switched off sensibly; they carry the reason, and stay on.
"""

from __future__ import annotations

from dataclasses import dataclass

from minecheck.model.errors import BadOption


@dataclass(frozen=True)
class Defect:
    """A known defect of a seed port: where it is, what it does, and why it stays on if it must."""

    name: str  # short, stable, kebab-case: the name in the source comment
    article: str  # the article's number, e.g. "000"
    solver: str  # the seed variant that shows it, e.g. "ilp@seed"
    source: str  # the file holding the DEFECT(seed) comment, relative to the repository
    summary: str  # one line: what goes wrong
    fixed_only: str = ""  # why it cannot be switched off, or "" when it can

    @property
    def switchable(self) -> bool:
        return not self.fixed_only


_ILP, _SIMPLEX = "minecheck/solvers/ilp_seed.py", "minecheck/solvers/simplex.py"
_CNF, _DPLL, _GIBBS = "minecheck/solvers/cnf.py", "minecheck/solvers/dpll_seed.py", "minecheck/solvers/gibbs_seed.py"

DEFECTS: tuple[Defect, ...] = (
    Defect("ilp-overfull-digit", "000", "ilp@seed", _ILP,
           "a digit needing more mines than it has covered neighbours is not reported"),
    Defect("ilp-stale-union-root", "000", "ilp@seed", _ILP,
           "union-find keeps a stale root, splits a digit's cells and indexes out of bounds"),
    Defect("ilp-key-aliasing", "000", "ilp@seed", _ILP,
           "cells keyed r*1000+c: on boards wider than 1000 columns cells alias"),
    Defect("ilp-fixed-bound-row", "000", "ilp@seed", _ILP,
           "a fixed variable keeps its bound row (0 = 1 when fixed to 0): every cell a mine"),
    Defect("ilp-vertex-as-probability", "000", "ilp@seed", _ILP,
           "the LP vertex is reported as the mine probability of undecided cells"),
    Defect("ilp-contradiction-called-mines", "000", "ilp@seed", _ILP,
           "digits that contradict each other go unnoticed: every cell of the component is called a mine"),
    Defect("simplex-negative-rhs", "000", "simplex@seed", _SIMPLEX,
           "a row with a negative right-hand side is called infeasible"),
    Defect("simplex-artificials-kept", "000", "simplex@seed", _SIMPLEX,
           "artificial columns stay after Phase I and can re-enter, breaking Ax = b"),
    Defect("simplex-first-row-ties", "000", "simplex@seed", _SIMPLEX,
           "ratio-test ties go to the first row, not Bland's: it can cycle"),
    Defect("simplex-unbounded-raises", "000", "simplex@seed", _SIMPLEX,
           "an unbounded LP raises instead of reporting status unbounded"),
    Defect("dpll-negated-at-least", "004", "dpll@seed", _CNF,
           "the at-least clauses of exactly-k are negated: all-safe always satisfies a digit"),
    Defect("dpll-negative-k-crash", "004", "dpll@seed", _CNF,
           "a digit two or more mines beyond its covered neighbours throws NegativeArraySizeException"),
    Defect("dpll-overflagged-digit-skipped", "004", "dpll@seed", _CNF,
           "a digit with more flags around it than it shows is skipped"),
    Defect("dpll-isolated-digit-skipped", "004", "dpll@seed", _CNF,
           "a digit with no covered neighbours is skipped even when it still needs mines"),
    Defect("dpll-no-global-mode", "004", "dpll@seed", _DPLL,
           "the total mine count is never read: local mode only",
           fixed_only="the fix is another solver (a cardinality constraint over every covered cell)"),
    Defect("dpll-impossible-cell-unlisted", "004", "dpll@seed", _DPLL,
           "a cell that can be neither safe nor a mine is listed nowhere; the board is not called impossible"),
    Defect("dpll-stack-overflow", "004", "dpll@seed", _DPLL,
           "one recursion level per model: StackOverflowError past about 4400 models"),
    Defect("dpll-partial-model-blocked", "004", "dpll@seed", _DPLL,
           "blocking a partial assignment drops its completions: models are lost"),
    Defect("dpll-no-model-half", "004", "dpll@seed", _DPLL,
           "with no model at all every cell gets 0.5 instead of the board being inconsistent"),
    Defect("gibbs-zero-digit-ignored", "003", "gibbs@seed", _GIBBS,
           "a 0 gives no constraint: its covered neighbours get the far probability"),
    Defect("gibbs-impossible-digit-kept", "003", "gibbs@seed", _GIBBS,
           "a digit no layout can meet is kept without effect: the contradiction goes unnoticed"),
    Defect("gibbs-wrong-conditional", "003", "gibbs@seed", _GIBBS,
           "the single-cell conditional treats fixed cells as unknown: frequencies are not the posterior",
           fixed_only="a single-cell chain over consistent layouts cannot move between them (H1H); "
                      "the fix is another sampler"),
    Defect("gibbs-far-plug-in", "003", "gibbs@seed", _GIBBS,
           "off-frontier cells get a clamped plug-in, not the weighted mean over frontier totals",
           fixed_only="the fix needs the frontier total of every sample (another estimator), and local "
                      "mode, the seed's only one, gives off-frontier cells no reference answer"),
)

BY_NAME: dict[str, Defect] = {d.name: d for d in DEFECTS}
assert len(BY_NAME) == len(DEFECTS), "defect names must be unique"


def names_of(*solvers: str) -> frozenset[str]:
    """Every defect of these seed variants: the default, all on."""
    return frozenset(d.name for d in DEFECTS if d.solver in solvers)


def chosen(names: frozenset[str] | None, *solvers: str) -> frozenset[str]:
    """The defects a port runs with: all of its own when None; the ones it cannot drop are always kept.

    An unknown name, or another port's, is refused: a typo must not pass for "switched off".
    """
    own = names_of(*solvers)
    if names is None:
        return own
    unknown = set(names) - own
    if unknown:
        raise BadOption(f"not defects of {', '.join(solvers)}: {', '.join(sorted(unknown))}")
    return frozenset(names) | frozenset(n for n in own if not BY_NAME[n].switchable)
