"""Numbers of any length at minecheck's edges: a board's count of layouts can pass Python's 4,300-digit
limit on int<->str conversion (C(15000, 7500) has 4,515 digits), so that limit is lifted for minecheck's
own numbers, and a decimal string from outside (a program's answer, a file) is read by GMP instead.

Why both: Python's conversion takes time quadratic in the digits (a million digits: 11 s to read, 33 s to
write here), which is what the limit guards against, while GMP's (gmpy2, a dependency already) takes
0.07 s.  What minecheck writes is its own exact counts, bounded by the boards it counts; what it reads may
come from a hostile program with 64 MiB of digits, so every untrusted read goes through ``whole``.
"""

from __future__ import annotations

import math
import sys

PYTHON_DIGITS = 4000  # below Python's own limit (4,300): shorter strings are read by int() as ever


def lift_digit_limit() -> None:
    """No digit limit on minecheck's own int<->str conversions (a count printed, a JSON line written); called
    once where a command starts, and inherited by the workers it forks."""
    sys.set_int_max_str_digits(0)


def whole(text: str) -> int:
    """A decimal integer of any length, read in GMP's sub-quadratic time (json.loads' ``parse_int``)."""
    if len(text) <= PYTHON_DIGITS:
        return int(text)
    import gmpy2  # here, not at the top: its import reads every installed package's metadata (40 ms a command)

    return int(gmpy2.mpz(text))


def decimal(number: int) -> str:
    """An integer of any length as decimal text, written by GMP past Python's digit limit (a process that has
    not lifted it, such as a jailed sandbox, can still send a count of 5,000 digits)."""
    if number.bit_length() < 13_000:  # at most 3,914 digits: within Python's own limit
        return str(number)
    import gmpy2

    return gmpy2.mpz(number).digits(10)


def finite(value: float, otherwise: float = 0.0) -> float:
    """A float that JSON can hold: ``otherwise`` in place of NaN or an infinity."""
    return value if math.isfinite(value) else otherwise
