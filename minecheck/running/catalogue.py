"""The one catalogue of the solvers minecheck ships: each entry's name, roles, variant, target and answers.

Discovery makes built-in solvers from it, the cross-check reads its ground truth and default references,
the LP check its LP solvers and their reference, attribution the seed ports and what each carries, and
the command line its defaults and listings.  Adding a built-in solver or reference is one entry here
(and its module); nothing else lists names.  Solvers that others write are found by discovery (a
pyproject table, an entry point, an import path, ``cmd:``) and never need an entry.

A solver still declares its own ``answers`` and ``modes`` (the Solver contract, which solvers below this
layer cannot read from here); tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from minecheck.model.answers import Answers, Mode


class Role(StrEnum):
    SUBJECT = "subject"  # a solver under test (the campaign's default subjects are the seed and fixed variants)
    REFERENCE = "reference"  # run beside the subjects; compared with the ground truth too
    GROUND_TRUTH = "ground truth"  # what every answer is compared with
    LP = "lp"  # checked on LP relaxations and random LPs against the LP reference, not through the Solver contract
    LP_REFERENCE = "lp reference"  # what LP values are compared with


class Variant(StrEnum):
    SEED = "seed"  # the article's code, defects and all
    FIXED = "fixed"  # the same algorithm with its defects corrected


V, P, C, K, L = Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY, Answers.LP
LOCAL, BOTH = frozenset({Mode.LOCAL}), frozenset(Mode)


@dataclass(frozen=True)
class Entry:
    """One solver minecheck ships."""

    name: str
    target: str  # "module:attribute" that makes it (a Solver, a factory taking the :option, or an LP function)
    roles: frozenset[Role]
    answers: frozenset[Answers]
    modes: frozenset[Mode] = BOTH
    variant: Variant | None = None
    article: str | None = None  # the seed document it ports (../shared/seeds)
    carries: tuple[str, ...] = ()  # other entries whose named defects it carries (ilp@seed runs the seed simplex)
    default: bool = False  # among the defaults of its role (the campaign's subjects, check's references)


CATALOGUE: tuple[Entry, ...] = (
    Entry("exact", "minecheck.solvers.exact:ExactSolver", frozenset({Role.GROUND_TRUTH, Role.REFERENCE}),
          frozenset({V, P, C, K}), default=True),
    Entry("cbc", "minecheck.references.cbc:make", frozenset({Role.REFERENCE, Role.LP_REFERENCE}), frozenset({V, K}),
          default=True),
    Entry("minisat", "minecheck.references.minisat:make", frozenset({Role.REFERENCE}), frozenset({V, K}),
          default=True),
    Entry("brute", "minecheck.references.brute:make", frozenset({Role.REFERENCE}), frozenset({V, P, C, K}),
          default=True),
    Entry("ganak", "minecheck.references.ganak:make", frozenset({Role.REFERENCE}), frozenset({V, P, C, K})),
    # a second counter (pyganak, the "ganak" extra), over the certificates' own reading of the board: on request
    Entry("ilp@seed", "minecheck.solvers.ilp_seed:seed_solver", frozenset({Role.SUBJECT}), frozenset({V, P, K, L}),
          LOCAL, Variant.SEED, "000", ("simplex@seed",), default=True),
    Entry("dpll@seed", "minecheck.solvers.dpll_seed:seed_solver", frozenset({Role.SUBJECT}), frozenset({V, P, C, K}),
          LOCAL, Variant.SEED, "004", default=True),
    Entry("gibbs@seed", "minecheck.solvers.gibbs_seed:seed_solver", frozenset({Role.SUBJECT}), frozenset({V, P, K}),
          LOCAL, Variant.SEED, "003", default=True),
    Entry("simplex@seed", "minecheck.solvers.simplex:solve_seed", frozenset({Role.SUBJECT, Role.LP}), frozenset({L}),
          LOCAL, Variant.SEED, "000", default=True),
    Entry("ilp@fixed", "minecheck.solvers.ilp_fixed:fixed_solver", frozenset({Role.SUBJECT}), frozenset({V, K, L}),
          BOTH, Variant.FIXED, "000", default=True),
    Entry("dpll@fixed", "minecheck.solvers.dpll_fixed:fixed_solver", frozenset({Role.SUBJECT}),
          frozenset({V, P, C, K}), BOTH, Variant.FIXED, "004", default=True),
    Entry("gibbs@fixed", "minecheck.solvers.gibbs_fixed:fixed_solver", frozenset({Role.SUBJECT}),
          frozenset({V, P, K}), BOTH, Variant.FIXED, "003", default=True),
    Entry("simplex@fixed", "minecheck.solvers.simplex:solve_fixed", frozenset({Role.SUBJECT, Role.LP}),
          frozenset({L}), LOCAL, Variant.FIXED, "000", default=True),
    Entry("ms_toollib", "minecheck.solvers.toollib:make", frozenset({Role.SUBJECT}), frozenset({V, P, K}),
          frozenset({Mode.GLOBAL})),  # a third-party engine (Rust, on PyPI), under test through its adapter
)
BY_NAME: dict[str, Entry] = {e.name: e for e in CATALOGUE}


def entry(name: str) -> Entry | None:
    """The catalogue's entry for a name (an option after ':' ignored), or None for a solver it does not ship."""
    return BY_NAME.get(name.partition(":")[0])


def names(role: Role | None = None, variant: Variant | None = None, default: bool | None = None) -> tuple[str, ...]:
    """The names of the entries with that role, variant and default-ness (None: any), in catalogue order."""
    return tuple(e.name for e in CATALOGUE if (role is None or role in e.roles)
                 and (variant is None or e.variant is variant) and (default is None or e.default is default))


def has_role(name: str, role: Role) -> bool:
    found = entry(name)
    return found is not None and role in found.roles


def is_lp_solver(name: str) -> bool:
    """Whether the name is an LP solver: checked on LPs against the LP reference, never run as a Solver."""
    return has_role(name, Role.LP)


(GROUND_TRUTH,) = names(Role.GROUND_TRUTH)
(LP_REFERENCE,) = names(Role.LP_REFERENCE)
REFERENCES = names(Role.REFERENCE, default=True)  # run beside the subjects on every check, the ground truth first
SUBJECTS = names(Role.SUBJECT, default=True)  # a campaign's default subjects: every seed and fixed variant
SEED_VARIANTS = names(Role.SUBJECT, Variant.SEED)
FIXED_VARIANTS = names(Role.SUBJECT, Variant.FIXED)
LP_SOLVERS = names(Role.LP)
