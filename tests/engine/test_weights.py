"""The global weights from the product tree equal the definition: the other components' product
correlated with C(off, remaining - m), for every component and mine count."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from minecheck.engine.weights import BIG, correlate, product, tail, weigh


def times(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def defined_weight(polys: list[tuple[int, ...]], i: int, off: int, remaining: int, k: int) -> int:
    """Layouts of everything but component i when it holds k mines, straight from the definition."""
    others = [1]
    for j, p in enumerate(polys):
        if j != i:
            others = times(others, list(p))
    return sum(n * comb(off, remaining - k - m) for m, n in enumerate(others) if 0 <= remaining - k - m <= off)


poly = st.lists(st.integers(0, 40), min_size=1, max_size=6).filter(any).map(tuple)


@settings(max_examples=200, deadline=None)
@given(st.lists(poly, min_size=0, max_size=6), st.integers(0, 12), st.integers(-2, 30))
def test_every_probability_ratio_matches_the_definition(polys, off, remaining):
    w = weigh(polys, off, remaining)
    layouts = sum(n * comb(off, remaining - m) for m, n in enumerate(_all(polys)) if 0 <= remaining - m <= off)
    assert w.layouts == layouts
    if not layouts:
        return
    for i, p in enumerate(polys):
        for k in (k for k, n in enumerate(p) if n):  # (a weight where the component has no layout is never read)
            j = k - w.low[i]
            ours = w.weights[i][j] if 0 <= j < len(w.weights[i]) else 0
            # the weights are the defined ones up to the tight components' product, which the norm shares
            assert Fraction(ours, w.norms[i]) == Fraction(defined_weight(polys, i, off, remaining, k), layouts)


def _all(polys):
    out = [1]
    for p in polys:
        out = times(out, list(p))
    return out


def test_a_tight_component_weighs_one_and_is_normed_by_its_own_layouts():
    w = weigh([(0, 0, 3), (1, 2, 1)], off=4, remaining=3)
    assert w.tight == (True, False) and w.weights[0] == (1,) and w.norms[0] == 3
    assert w.tight_mines == 2


def test_big_polynomials_go_through_gmp_and_agree_with_small_ones():
    polys = [tuple(comb(40, j) for j in range(41))] * 5  # packed past BIG bits
    t = tail(300, 120, 200)
    big = correlate(polys, t)
    assert max(t).bit_length() * len(t) > BIG  # the packed tail alone is past the GMP threshold
    assert big[0] == [defined_weight(polys[1:], -1, 300, 120, k) for k in range(41)]
    assert big[4] == big[0]


def test_the_tail_by_ratios_is_every_binomial():
    assert tail(10, 7, 9) == [comb(10, 7 - m) for m in range(8)] + [0, 0]
    assert tail(3, 9, 8) == [0] * 6 + [comb(3, 3), comb(3, 2), comb(3, 1)]


def test_the_product_tree_is_the_product():
    assert product(list(range(1, 30))) == comb(29, 0) * __import__("math").factorial(29)
    assert product([]) == 1
