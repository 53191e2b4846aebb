"""The global mode's weights: for each component and its mine count, the layouts of everything else.

Glossary:
  poly      a component's layouts by mine count (poly[k]: layouts with k mines)
  tight     a component whose layouts all hold the same number of mines: its weight is one number
  loose     a component whose layouts hold different numbers of mines
  tail      T[m] = C(off, remaining - m): the layouts of the off-frontier cells when the frontier holds m

A loose component's weight at k is sum_j others[j] * T[k + j], ``others`` the product of the other
loose components' polynomials: a correlation with the tail.  All of them come from one balanced
product tree (never a running product, which costs the number of components times the size):
products of the polynomials on the way up, and on the way down each child's correlation is its
parent's times its sibling's polynomial (a middle product), all packed into big integers (Kronecker
substitution) and multiplied with GMP (``gmpy2``) once they are big (bench/bigint.py: 60x Python's
ints at 10 Mbit; Python's ints stay where they are faster, on small numbers), imported only then: gmpy2's import
reads every installed package's metadata (40 ms), which a command that counts nothing big should not pay.
The tight components only scale every count by their product, which cancels in every probability, so they stay out of
the tree; the tail is made by ratios from one binomial (C(n, k+1) = C(n, k) (n-k) / (k+1)).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from minecheck.engine.sweep import pack, slot_for, unpack

__all__ = ["Weighting", "weigh", "tail", "product"]

BIG = 1 << 14  # bits: a packed polynomial this long is multiplied as a GMP integer, a shorter one as a Python int


@dataclass(frozen=True)
class Weighting:
    """Exact weights of the global mode.

    For component i and k = low[i] + j mines, ``weights[i][j]`` is proportional to the layouts of the
    rest of the board that bring it to the total; ``norms[i]`` is the same sum over its own layouts,
    so a cell's probability is sum_j its_layouts[low + j] * weights[i][j] / norms[i].  The loose
    components share their norm (``loose``, the board's layouts over the tight components' product);
    a tight component's weight is (1,) and its norm its own layouts.
    """

    layouts: int
    low: tuple[int, ...]
    weights: tuple[tuple[int, ...], ...]
    norms: tuple[int, ...]
    loose: int  # the loose components' norm: the layouts with every tight component's layouts taken as 1
    tight: tuple[bool, ...]  # per component: whether it is tight
    tight_mines: int  # mines held by the tight components (the same in every layout)


def weigh(polys: list[tuple[int, ...]], off: int, remaining: int) -> Weighting:
    """The weights of every component for ``remaining`` mines over the polys and ``off`` off-frontier cells."""
    if len(polys) == 1:
        return _one(polys[0], off, remaining)
    lows, trimmed = [], []
    for p in polys:  # each poly cut to the mine counts it has layouts for (and the frontier can hold)
        low, high = 0, len(p) - 1
        while low <= high and not p[low]:
            low += 1
        while high > low and not p[high]:
            high -= 1
        lows.append(low)
        trimmed.append(p[low:high + 1])
    fewest = sum(lows)
    spare = remaining - fewest  # mines beyond each component's fewest: at most this many in any loose one
    if spare < 0 or any(not p or not p[0] for p in trimmed):
        return _no_layout(lows)
    for i, p in enumerate(trimmed):
        if len(p) > spare + 1:
            p = p[:spare + 1]
            high = len(p) - 1
            while not p[high]:
                high -= 1
            trimmed[i] = p[:high + 1]
    loose = [i for i, p in enumerate(trimmed) if len(p) > 1]
    tight = [i for i, p in enumerate(trimmed) if len(p) == 1]
    tight_mines = sum(lows[i] for i in tight)
    width = sum(len(trimmed[i]) - 1 for i in loose)
    t = tail(off, spare, width)
    # one loose component: the others' product is 1 and its weights are the tail itself
    found = correlate([trimmed[i] for i in loose], t) if len(loose) > 1 else [t] * len(loose)
    rest = sum(map(int.__mul__, trimmed[loose[0]], found[0])) if loose else t[0]
    if not rest:
        return _no_layout(lows)
    weights: list[tuple[int, ...]] = [(1,)] * len(polys)
    norms = [trimmed[i][0] for i in range(len(polys))]
    for i, w in zip(loose, found):
        weights[i], norms[i] = tuple(w), rest
    scale = product([trimmed[i][0] for i in tight])
    layouts = scale * rest if scale.bit_length() < BIG or rest.bit_length() < BIG else int(_gmp().mpz(scale) * rest)
    is_tight = tuple(len(p) == 1 for p in trimmed)
    return Weighting(layouts, tuple(lows), tuple(weights), tuple(norms), rest, is_tight, tight_mines)


def _one(poly: tuple[int, ...], off: int, remaining: int) -> Weighting:
    """``weigh`` of one component (most small positions): its weights are the tail itself, nothing to correlate."""
    low, high = 0, len(poly) - 1
    while low <= high and not poly[low]:
        low += 1
    spare = remaining - low
    if spare < 0 or low > high:
        return _no_layout([low])
    high = min(high, low + spare)
    while not poly[high]:
        high -= 1
    if high == low:  # tight: every layout holds the same mines
        rest = comb(off, spare)
        if not rest:
            return _no_layout([low])
        return Weighting(poly[low] * rest, (low,), ((1,),), (poly[low],), rest, (True,), low)
    t = tail(off, spare, high - low)
    rest = sum(map(int.__mul__, poly[low:high + 1], t))
    if not rest:
        return _no_layout([low])
    return Weighting(rest, (low,), (tuple(t),), (rest,), rest, (False,), 0)


def _no_layout(lows: list[int]) -> Weighting:
    n = len(lows)
    return Weighting(0, tuple(lows), ((0,),) * n, (1,) * n, 0, (True,) * n, 0)


def tail(off: int, spare: int, width: int) -> list[int]:
    """T[m] = C(off, spare - m) for m = 0..width, by ratios from one binomial (0 where spare - m is out of 0..off)."""
    out = [0] * (width + 1)
    lo, hi = max(0, spare - width), min(off, spare)  # the binomials C(off, k) that are not 0
    if lo > hi:
        return out
    value = comb(off, lo)
    if hi - lo < 64 or value.bit_length() < BIG:  # few or small: Python's ints are faster
        for k in range(lo, hi + 1):
            out[spare - k] = value
            value = value * (off - k) // (k + 1)
        return out
    value = _gmp().mpz(value)
    for k in range(lo, hi + 1):
        out[spare - k] = int(value)
        value = value * (off - k) // (k + 1)
    return out


def product(values: list) -> int:
    """The product of many integers as a balanced tree (a running product costs their number times the size),
    on GMP once there are many."""
    if not values:
        return 1
    if len(values) > 64:
        values = list(map(_gmp().mpz, values))
    while len(values) > 1:
        values = [values[i] * values[i + 1] if i + 1 < len(values) else values[i] for i in range(0, len(values), 2)]
    return int(values[0])


@dataclass
class _Node:
    degree: int
    packed: object  # int or gmpy2.mpz: the product of the polynomials below, packed
    children: tuple[_Node, _Node] | None
    leaf: int = -1  # the index of the polynomial at a leaf


def correlate(polys: list[tuple[int, ...]], t: list[int]) -> list[list[int]]:
    """For each poly i, w_i[k] = sum_j (product of the other polys)[j] * t[k + j], for k up to its degree."""
    total = sum(len(p) - 1 for p in polys)
    assert len(t) == total + 1
    # no coefficient of any product below exceeds the product of the polys' sums times the largest tail value
    bits = sum(sum(p).bit_length() for p in polys) + max(t).bit_length() + (total + 1).bit_length() + 1
    slot = slot_for(bits)
    big = slot * (total + 1) > BIG
    cast = _gmp().mpz if big else int
    leaves = [_Node(len(p) - 1, cast(pack(p, slot)), None, i) for i, p in enumerate(polys)]
    root = _tree(leaves)
    out: list[list[int]] = [[] for _ in polys]
    # the correlations are kept reversed, so that a child's is a window of a product
    stack = [(root, cast(pack(t[::-1], slot)))]
    while stack:
        node, reverse = stack.pop()
        if node.children is None:
            out[node.leaf] = unpack(int(reverse), slot, node.degree + 1)[::-1]
            continue
        a, b = node.children
        stack.append((a, _window(reverse * b.packed, slot * b.degree, slot * (a.degree + 1), big)))
        stack.append((b, _window(reverse * a.packed, slot * a.degree, slot * (b.degree + 1), big)))
    return out


def _window(x, shift: int, bits: int, big: bool):
    """``bits`` bits of x from bit ``shift`` up."""
    x >>= shift
    return _gmp().f_mod_2exp(x, bits) if big else x & ((1 << bits) - 1)


def _gmp():
    """gmpy2, imported on the first big number (the module's docstring says why not before)."""
    import gmpy2

    return gmpy2


def _tree(nodes: list[_Node]) -> _Node:
    """A product tree over the nodes in order, split where the degrees on each side are about equal."""
    if len(nodes) == 1:
        return nodes[0]
    total, run, cut = sum(n.degree for n in nodes), 0, len(nodes) - 1
    for i, n in enumerate(nodes[:-1]):
        run += n.degree
        if 2 * run >= total:
            cut = i + 1
            break
    a, b = _tree(nodes[:cut]), _tree(nodes[cut:])
    return _Node(a.degree + b.degree, a.packed * b.packed, (a, b))
