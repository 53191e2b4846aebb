"""Micro-benchmark: one big-integer product in Python ints, gmpy2 (GMP) and python-flint (FLINT), side by side.

    python bench/bigint.py

The exact counter's global weights are products of packed polynomials (``minecheck.engine.weights``):
a few products of millions of bits, and many of a few hundred.  This times both kinds, and the
conversions to and from Python ints that the packing needs, so the backend is chosen on numbers.
"""

from __future__ import annotations

import random
import time


def best(fn, repeats: int) -> float:
    out = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - start)
    return out


def main() -> None:
    try:
        import gmpy2
    except ImportError:
        gmpy2 = None
    try:
        import flint
    except ImportError:
        flint = None
    rng = random.Random(0)
    print(f"{'product':34} {'python int':>12} {'gmpy2 mpz':>12} {'flint fmpz':>12}")
    for bits, repeats in ((256, 20000), (4096, 2000), (100_000, 50), (1_000_000, 5), (10_000_000, 1)):
        a, b = rng.getrandbits(bits), rng.getrandbits(bits)
        cols = [best(lambda a=a, b=b: a * b, repeats)]
        if gmpy2 is not None:
            x, y = gmpy2.mpz(a), gmpy2.mpz(b)
            cols.append(best(lambda x=x, y=y: x * y, repeats))
        if flint is not None:
            x, y = flint.fmpz(a), flint.fmpz(b)
            cols.append(best(lambda x=x, y=y: x * y, repeats))
        print(f"{bits:>12,} x {bits:>12,} bits      " + " ".join(f"{1e6 * t:10.1f}us" for t in cols))
    a = rng.getrandbits(10_000_000)
    cols = []
    if gmpy2 is not None:
        x = gmpy2.mpz(a)
        cols.append(("gmpy2: int -> mpz -> int, 10 Mbit", best(lambda: int(gmpy2.mpz(a)), 3)))
    if flint is not None:
        cols.append(("flint: int -> fmpz -> int, 10 Mbit", best(lambda: int(flint.fmpz(a)), 3)))
    for what, t in cols:
        print(f"{what:46} {1e3 * t:10.2f} ms")


if __name__ == "__main__":
    main()
