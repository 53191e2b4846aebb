"""Compare one solver's answers with one reference's: pure functions from two results to differences.

Rules, in order: a declined answer is skipped; an error is a crash (or timeout); an
inconsistent board must be inconsistent for the subject too, if it declares that it judges
consistency (one that does not is not judged on such a board at all, whatever it does there:
``not_judged``); then
verdicts, counts and probabilities, each only if the subject declares that it answers them; an answer it does
not declare is not judged even when it breaks the protocol (``not_judged_in_part``), unless
``--judge-undeclared``.
Probabilities are judged at the precision the subject declares (``SolverResult.tolerance``:
"decimals" or "tolerance" in the protocol), else exactly when they are fractions and within
``TOLERANCE`` when they are floats; estimates (with a standard error and no declared precision)
are judged by the statistical test in ``minecheck.check.stats``.

Every cell a subject names is compared or said to be not comparable (``not_comparable``): in the local mode a
cell no digit touches (``loose``) has no answer from the reference, yet nothing can make it certain, so a safe
or mine verdict there is a ``verdict`` finding; its probability has nothing to be compared with.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from minecheck.check.findings import Difference, Kind
from minecheck.check.numerals import count_reading, probability_reading, show_pair, verdict_reading
from minecheck.check.stats import probability_outliers
from minecheck.model.answers import TOLERANCE, UNDECLARED, Answers, CellAnswer, SolverResult, Verdict


def not_judged(subject: SolverResult, declared: frozenset[Answers], reference: SolverResult,
               judge_undeclared: bool = False) -> str | None:
    """Why the subject is not judged on this board at all, or None: an impossible board, and a subject that
    declares no consistency answer, whatever it did there (answered, crashed, hung, broke the protocol, said
    "consistent"): what it never claimed to judge is neither a finding nor agreement.  With
    ``judge_undeclared`` (``--judge-undeclared``) only a silent answer is let off, as before: a failure there
    is a finding."""
    if (reference.consistent is not False or subject.declined or Answers.CONSISTENCY in declared
            or subject.consistent is False):
        return None
    why = "the board is impossible, and it does not judge consistency"
    if not judge_undeclared:
        return f"{why} (it failed there: {subject.failure.kind})" if subject.failure is not None else why
    return why if subject.failure is None and subject.consistent is None else None


def undeclared_complaint(subject: SolverResult) -> str | None:
    """The protocol's complaint about an answer the subject does not declare (``protocol.decode_declared``: the
    rest of its answer was read without it), or None."""
    return dict(subject.extra).get(UNDECLARED)


def not_judged_in_part(subject: SolverResult, judge_undeclared: bool = False) -> str | None:
    """Why an answer the subject gave is not judged though the rest is: it broke the protocol in an answer the
    subject does not declare (a probability of 2.0 from a solver of verdicts), whatever the board.  With
    ``judge_undeclared`` it is judged: a protocol finding, as any broken answer."""
    complaint = undeclared_complaint(subject)
    if complaint is None or judge_undeclared:
        return None
    return f"an answer it does not declare broke the protocol, not judged ({complaint})"


LOOSE_PROBABILITY = "no digit touches it, and the local mode has no total: it has no probability to compare with"
UNANSWERED = "the reference gives no answer there"


def not_comparable(subject: SolverResult, declared: frozenset[Answers], reference: SolverResult,
                   loose: frozenset[int] = frozenset()) -> list[tuple[tuple[int, ...], str]]:
    """The cells the subject names that are compared with nothing, grouped by why: a probability on a cell no
    digit touches (local mode), or any answer on a cell the reference does not answer."""
    if (subject.failure or subject.declined or reference.error or reference.declined
            or reference.consistent is False or subject.consistent is False):
        return []
    answered = {a.cell for a in reference.cells}
    why: dict[str, list[int]] = {}
    for a in subject.cells:
        if a.cell in answered or (a.verdict is None and a.probability is None):
            continue
        if a.cell not in loose:
            why.setdefault(UNANSWERED, []).append(a.cell)
        elif a.probability is not None and Answers.PROBABILITIES in declared:
            why.setdefault(LOOSE_PROBABILITY, []).append(a.cell)
    return [(tuple(sorted(cells)), reason) for reason, cells in why.items()]


def compare(subject: SolverResult, declared: frozenset[Answers], reference: SolverResult,
            judge_undeclared: bool = False, loose: frozenset[int] = frozenset()) -> list[Difference]:
    """Every way the subject's answers differ from the reference's on the same board and mode; ``loose``: the
    covered cells no digit touches, in the local mode (where no answer can make them certain)."""
    if subject.declined or reference.declined or reference.error:
        return []
    if not_judged(subject, declared, reference, judge_undeclared):
        return []
    if subject.failure is not None:
        failure = subject.failure
        said = f"its standard error ended with:\n{failure.stderr}" if failure.stderr else ""
        return [Difference(Kind(failure.kind.value), (), failure.message, "an answer", said)]
    if judge_undeclared and undeclared_complaint(subject) is not None:  # judged as the broken answer it is
        return [Difference(Kind.PROTOCOL, (), undeclared_complaint(subject), "an answer")]
    if subject.claims is not None:
        declared = declared & subject.claims
    return [replace(d, detail=_with_reading(d.detail, subject))
            for d in _differences(subject, declared, reference, loose)]


def _differences(subject: SolverResult, declared: frozenset[Answers], reference: SolverResult,
                 loose: frozenset[int] = frozenset()) -> list[Difference]:
    if reference.consistent is False:
        return _on_inconsistent(subject, declared, reference)
    if subject.consistent is False:
        return [Difference(Kind.CONSISTENCY, (), f"inconsistent: {subject.reason}", "consistent")]
    diffs = []
    if Answers.VERDICTS in declared and Answers.VERDICTS in _answered(reference):
        diffs += _verdicts(subject, reference, loose)
    if Answers.COUNTS in declared and reference.layouts is not None:
        diffs += _counts(subject, reference)
    if Answers.PROBABILITIES in declared and Answers.PROBABILITIES in _answered(reference):
        diffs += _probabilities(subject, reference)
    return diffs


def _with_reading(detail: str, subject: SolverResult) -> str:
    """A difference's detail, with the subject's own word on a rule it reads otherwise, if it gave one."""
    reading = dict(subject.extra).get("reading", "")
    return f"{detail}\n{reading}".strip() if reading else detail


def _answered(result: SolverResult) -> set[Answers]:
    out = set()
    if any(a.verdict is not None for a in result.cells):
        out.add(Answers.VERDICTS)
    if any(a.probability is not None for a in result.cells):
        out.add(Answers.PROBABILITIES)
    return out


def _on_inconsistent(subject: SolverResult, declared: frozenset[Answers], ref: SolverResult) -> list[Difference]:
    if subject.consistent is False:
        return []
    if subject.consistent is True:
        return [Difference(Kind.CONSISTENCY, (), "consistent", f"inconsistent: {ref.reason}")]
    if subject.cells or subject.layouts:
        decided = tuple(a.cell for a in subject.cells if a.verdict in (Verdict.SAFE, Verdict.MINE))
        return [Difference(Kind.CONSISTENCY, decided, f"answered {len(subject.cells)} cells as if consistent",
                           f"inconsistent: {ref.reason}")]
    if Answers.CONSISTENCY in declared:
        return [Difference(Kind.CONSISTENCY, (), "consistent", f"inconsistent: {ref.reason}")]
    return []


def _estimated(result: SolverResult) -> bool:
    return any(a.stderr is not None for a in result.cells)


def _verdicts(subject: SolverResult, reference: SolverResult, loose: frozenset[int] = frozenset()) -> list[Difference]:
    """Cell-by-cell verdicts; a sampler only has to match the cells the reference decides.  A cell no digit
    touches (``loose``, local mode) the reference leaves out, and is undetermined whatever the board."""
    mine = {a.cell: a.verdict for a in subject.cells if a.verdict is not None}
    estimated = _estimated(subject)
    answered = {a.cell for a in reference.cells}
    untouched = [CellAnswer(c, Verdict.UNKNOWN) for c in sorted(loose) if c in mine and c not in answered]
    bad, says, truth = [], [], []
    for a in (*reference.cells, *untouched):
        if a.verdict is None:
            continue
        got = mine.get(a.cell)
        if got == a.verdict:
            continue
        if got is None and (a.verdict is Verdict.UNKNOWN or subject.partial):
            continue  # silence claims nothing: on an undetermined cell, or anywhere under the protocol
        if estimated and a.verdict is Verdict.UNKNOWN:
            continue  # a sampler's safe/mine on an undetermined cell is judged by its probability
        bad.append(a.cell)
        says.append(got.value if got else "no answer")
        truth.append(a.verdict.value)
    if not bad:
        return []
    exact = {a.cell: a.probability for a in reference.cells if a.probability is not None}
    near = verdict_reading([Fraction(exact[c]) for c in bad if c in exact and isinstance(exact[c], Fraction)])
    if any(c not in answered for c in bad):
        untouched_bad = sum(c not in answered for c in bad)
        near = "; ".join(filter(None, (near, f"no digit touches {untouched_bad} of these cells, and the local mode "
                                             "has no total: nothing can make them certain")))
    return [Difference(Kind.VERDICT, tuple(bad), ", ".join(says), ", ".join(truth), near)]


def _counts(subject: SolverResult, reference: SolverResult) -> list[Difference]:
    diffs = []
    if subject.layouts != reference.layouts:
        diffs.append(Difference(Kind.COUNT, (), f"{subject.layouts} layouts", f"{reference.layouts} layouts",
                                count_reading(subject.layouts, reference.layouts)))
    elif (subject.component_layouts is not None and reference.component_layouts is not None
          and sorted(subject.component_layouts) != sorted(reference.component_layouts)):
        diffs.append(Difference(Kind.COUNT, (), f"components {sorted(subject.component_layouts)}",
                                f"components {sorted(reference.component_layouts)}"))
    return diffs


def _probabilities(subject: SolverResult, reference: SolverResult) -> list[Difference]:
    exact = {a.cell: a.probability for a in reference.cells if a.probability is not None}
    if _estimated(subject) and subject.tolerance is None:
        outliers = probability_outliers(subject, exact)
        if not outliers:
            return []
        cells = tuple(c for c, _, _ in outliers)
        return [Difference(Kind.PROBABILITY, cells,
                           ", ".join(f"{float(est):.4f}" for _, est, _ in outliers),
                           ", ".join(f"{float(exact[c]):.4f}" for c in cells),
                           "z = " + ", ".join(f"{z:.1f}" for _, _, z in outliers))]
    bad = []
    for a in subject.cells:
        if a.probability is None or a.cell not in exact:
            continue
        want = exact[a.cell]
        if isinstance(a.probability, float) and not math.isfinite(a.probability):
            wrong = True  # NaN and inf compare false with everything: never within a tolerance
        elif subject.tolerance is not None:  # the precision the subject declares, for fractions and floats alike
            wrong = abs(Fraction(a.probability) - Fraction(want)) > Fraction(subject.tolerance)
        elif isinstance(a.probability, Fraction):
            wrong = a.probability != want
        else:
            wrong = abs(float(a.probability) - float(want)) > TOLERANCE
        if wrong:
            bad.append((a.cell, a.probability, want))
    if not bad:
        return []
    shown = [show_pair(p, w) for _, p, w in bad]
    readings = sorted({r for _, p, w in bad if isinstance(w, Fraction) and (r := probability_reading(p, w))})
    return [Difference(Kind.PROBABILITY, tuple(c for c, _, _ in bad), ", ".join(g for g, _ in shown),
                       ", ".join(w for _, w in shown), "; ".join(readings))]
