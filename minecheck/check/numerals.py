"""Which numeric edge a finding sits on, in words: a wrong count read through a bit width or a double, a
wrong probability as a rounding, a NaN or an underflow, a verdict from a probability a hair from 0 or 1.

A finding's values are shown with as many digits as it takes to see them differ (``show_pair``); its
reading (``count_reading``, ``probability_reading``, ``verdict_reading``) goes into the difference's detail,
and ``edge_of`` names the edge so that shrinking keeps it (a count that wraps at 2**64 must stay past 2**64,
``kept_because`` says so on the page).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from minecheck.check.findings import Finding, Kind

WIDTHS = (64, 32)  # the integer widths a count is read through, the widest first (2**64 + 5 read as 5 is 64 bits)
DOUBLE_DIGITS = 17  # significant digits that tell any two doubles apart
NEAR = Fraction(1, 10)  # a verdict's cell this near 0 or 1 is read as a threshold's mistake
LAYOUTS = re.compile(r"^(-?\d+) layouts$")


def power_form(n: int, bits: int) -> str:
    """``n`` as a multiple of 2**bits plus the rest: 2**64 + 5, 3 * 2**32 + 7."""
    high, low = divmod(n, 2**bits)
    head = f"2**{bits}" if high == 1 else f"{high} * 2**{bits}"
    return head if low == 0 else f"{head} + {low}"


def count_edge(got: int | None, want: int) -> tuple[str, int] | None:
    """("wrap", bits) for an unsigned wrap, ("signed", bits) for a signed one, ("double", 53) for a count
    rounded to a double; None when no width explains ``got``."""
    if got is None or got == want:
        return None
    for bits in WIDTHS:
        span = 2**bits
        if want >= span and got == want % span:
            return ("wrap", bits)
        if want >= span // 2 and got == (want + span // 2) % span - span // 2:
            return ("signed", bits)
    if 2**53 < want < 2**1024 and got == int(float(want)):
        return ("double", 53)
    return None


def count_reading(got: int | None, want: int) -> str:
    """The bit width that explains a wrong count, in words ('' when none does)."""
    edge = count_edge(got, want)
    if edge is None:
        return ""
    kind, bits = edge
    if kind == "wrap":
        return f"{power_form(want, bits)} read as {got}: the count wraps at 2**{bits} (an unsigned {bits}-bit integer)"
    if kind == "signed":
        return (f"{power_form(want, bits - 1)} read as {got}: the count wraps past 2**{bits - 1} - 1 (a signed "
                f"{bits}-bit integer)")
    return f"{want} as a double is {got} (53 bits of mantissa: off by {want - got})"


def show_pair(got: Fraction | float, want: Fraction | float) -> tuple[str, str]:
    """Both values with as many significant digits as it takes to see them differ (at least 6); two exact
    fractions as fractions."""
    if isinstance(got, Fraction) and isinstance(want, Fraction):
        return str(got), str(want)
    for digits in range(6, DOUBLE_DIGITS + 1):
        a, b = _decimal(got, digits), _decimal(want, digits)
        if a != b:
            break
    return a, b + (f" (= {want})" if isinstance(want, Fraction) and want.denominator < 10**12 else "")


def _decimal(x: Fraction | float, digits: int) -> str:
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if isinstance(x, Fraction) and x and abs(x) < Fraction(1, 10**300):  # below the double range
        exponent = len(str(x.denominator)) - len(str(abs(x.numerator)))
        scaled = abs(x) * 10**exponent
        if scaled < 1:
            exponent, scaled = exponent + 1, scaled * 10
        return f"{'-' if x < 0 else ''}{float(scaled):.{digits}g}e-{exponent}"
    return f"{float(x):.{digits}g}"


def probability_edge(got: Fraction | float, want: Fraction) -> tuple[str, int] | None:
    """("nan", 0), ("inf", 0), ("zero", 0) for an exact value read as 0, ("rounded", d) for the exact value
    rounded to d decimals; None otherwise."""
    if isinstance(got, float) and math.isnan(got):
        return ("nan", 0)
    if isinstance(got, float) and math.isinf(got):
        return ("inf", 0)
    if got == 0 and want != 0:
        return ("zero", 0)
    for decimals in range(1, 10):
        if got != want and float(got) == round(float(want), decimals):
            return ("rounded", decimals)
    return None


def probability_reading(got: Fraction | float, want: Fraction) -> str:
    edge = probability_edge(got, want)
    if edge is None:
        return ""
    kind, decimals = edge
    shown = show_pair(got, want)[1]
    return {"nan": f"NaN where it is {shown}: 0/0 or inf/inf, as weights past 1e308 kept in doubles give",
            "inf": f"infinite where it is {shown}: an overflow",
            "zero": f"0 where it is {shown}: an underflow, or a value rounded away",
            "rounded": f"{shown} rounded to {decimals} decimals"}[kind]


def verdict_reading(exact: list[Fraction]) -> str:
    """For verdicts given on undetermined cells: how near 0 or 1 their exact probabilities are (a float
    compared with a threshold calls them safe or mines)."""
    near = [p for p in exact if 0 < p < NEAR or 1 - NEAR < p < 1]
    if not near:
        return ""
    closest = min(near, key=lambda p: min(p, 1 - p))
    gap = min(closest, 1 - closest)
    side = "0" if closest < Fraction(1, 2) else "1"
    return (f"the exact probability {_decimal(closest, 6)} is {_decimal(gap, 3)} from {side}, not {side}: a "
            f"float compared with a threshold of {_decimal(gap, 1)} or more takes it for {side}")


def edge_of(finding: Finding) -> tuple[str, int] | None:
    """The numeric edge a finding sits on, from its values, when a shrunk board must keep it: a count read
    through a width, a probability overflowed to NaN or inf (a threshold or a rounding shows on small boards
    too, and is not kept)."""
    if finding.kind is Kind.COUNT:
        got, want = LAYOUTS.match(finding.subject_says), LAYOUTS.match(finding.reference_says)
        if got and want:
            return count_edge(int(got.group(1)), int(want.group(1)))
    if finding.kind is Kind.PROBABILITY:  # an overflow needs the weights past 1e308: kept (a rounding is not)
        for k, kind in enumerate(("NaN where", "infinite where")):
            if kind in finding.detail:
                return ("overflow", k)
    return None


def kept_because(finding: Finding) -> str:
    """Why a shrunk board stays as large as it is, when its edge needs the size ('' otherwise)."""
    edge = edge_of(finding)
    if edge is None or edge[0] not in ("wrap", "signed", "double"):
        return ""
    kind, bits = edge
    bound = {"wrap": f"2**{bits}", "signed": f"2**{bits - 1} - 1", "double": "2**53"}[kind]
    return (f"the count must exceed {bound} for this reading of it to show, and a smaller board has fewer "
            f"layouts: shrinking keeps it past {bound}")
