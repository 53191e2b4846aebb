"""The two pieces of the JDK that the Gibbs seed's answers depend on, ported bit for bit.

* ``JavaRandom``: java.util.Random, the 48-bit linear congruential generator (seed scrambled
  with 0x5DEECE66D; ``next(bits)``; ``nextInt(bound)`` with its power-of-two path and its
  rejection loop; ``nextDouble`` from 26 + 27 bits).
* ``hash_order``: the order in which a java.util.HashSet<String> (or a HashMap keyed by
  String) built with the default constructor iterates its keys, given the order they were
  added: String.hashCode spread by ``h ^ (h >>> 16)``, a table of 16 buckets doubled when
  the size passes 3/4 of it, buckets in index order and, within a bucket, insertion order -
  until a bucket grows to 9 keys, when the JDK resizes (table below 64) or turns the bucket
  into a red-black tree whose linked order is no longer the insertion order.  That path is
  ported too, from the JDK 17 source, so the order is the JDK's on every input.
"""

from __future__ import annotations

from collections.abc import Iterable

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK48 = (1 << 48) - 1
_DOUBLE_UNIT = 1.0 / (1 << 53)


def _int32(value: int) -> int:
    """The Java int that a wider value wraps to."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


class JavaRandom:
    """java.util.Random: the same seed gives the same numbers as the JDK."""

    def __init__(self, seed: int):
        self._seed = (seed ^ _MULTIPLIER) & _MASK48

    def next(self, bits: int) -> int:
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK48
        return _int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """nextInt() without a bound, nextInt(bound) with one (uniform in 0..bound-1)."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError("IllegalArgumentException: bound must be positive")
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:  # a power of two: the high bits, no rejection
            return _int32((bound * r) >> 31)
        u = r
        r = u % bound
        while u - r + m >= 1 << 31:  # Java's `u - r + m < 0`: the int overflowed, reject and redraw
            u = self.next(31)
            r = u % bound
        return r

    def next_long(self) -> int:
        value = (self.next(32) << 32) + self.next(32)
        value &= (1 << 64) - 1
        return value - (1 << 64) if value >= 1 << 63 else value

    def next_double(self) -> float:
        return ((self.next(26) << 27) + self.next(27)) * _DOUBLE_UNIT


# -- HashSet<String> iteration order -----------------------------------------------------------

_TREEIFY_THRESHOLD = 8
_UNTREEIFY_THRESHOLD = 6
_MIN_TREEIFY_CAPACITY = 64


def string_hash(text: str) -> int:
    """String.hashCode: s[0]*31^(n-1) + ... + s[n-1] in 32-bit ints, over UTF-16 code units."""
    data = text.encode("utf-16-be")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return _int32(h)


def spread(h: int) -> int:
    """HashMap.hash: the high half folded into the low half, ``h ^ (h >>> 16)``."""
    return _int32(h ^ ((h & 0xFFFFFFFF) >> 16))


class _Node:
    """A HashMap node; tree fields are used once its bucket is treeified (TreeNode)."""

    __slots__ = ("hash", "key", "next", "prev", "parent", "left", "right", "red", "tree")

    def __init__(self, hash_: int, key: str, next_: _Node | None = None):
        self.hash, self.key, self.next = hash_, key, next_
        self.prev = self.parent = self.left = self.right = None
        self.red = False
        self.tree = False


def hash_order(keys: Iterable[str]) -> list[str]:
    """The keys (duplicates dropped) in the order a default java.util.HashSet would iterate them."""
    table = _HashTable()
    for key in keys:
        table.add(key)
    return table.keys()


class _HashTable:
    """java.util.HashMap's table as of JDK 17: put, resize, treeify and split, for String keys."""

    def __init__(self) -> None:
        self.tab: list[_Node | None] = []
        self.threshold = 0
        self.size = 0
        self.members: set[str] = set()

    def keys(self) -> list[str]:
        out = []
        for head in self.tab:
            node = head
            while node is not None:
                out.append(node.key)
                node = node.next
        return out

    def add(self, key: str) -> None:
        if key in self.members:  # putVal finds the key: nothing changes
            return
        self.members.add(key)
        h = spread(string_hash(key))
        if not self.tab:
            self.resize()
        i = (len(self.tab) - 1) & h
        p = self.tab[i]
        if p is None:
            self.tab[i] = _Node(h, key)
        elif p.tree:
            self.put_tree_val(p, h, key)
        else:
            bin_count = 0
            while p.next is not None:
                p = p.next
                bin_count += 1
            p.next = _Node(h, key)
            if bin_count >= _TREEIFY_THRESHOLD - 1:
                self.treeify_bin(h)
        self.size += 1
        if self.size > self.threshold:
            self.resize()

    def resize(self) -> None:
        old = self.tab
        if old:
            new_cap, self.threshold = 2 * len(old), 2 * self.threshold
        else:
            new_cap, self.threshold = 16, 12
        self.tab = [None] * new_cap
        for j, e in enumerate(old):
            if e is None:
                continue
            if e.next is None:
                self.tab[e.hash & (new_cap - 1)] = e
            elif e.tree:
                self.split(e, j, len(old))
            else:
                lo, hi = _split_list(e, len(old))
                self.tab[j], self.tab[j + len(old)] = lo, hi

    def treeify_bin(self, h: int) -> None:
        if len(self.tab) < _MIN_TREEIFY_CAPACITY:
            self.resize()
            return
        index = (len(self.tab) - 1) & h
        node = self.tab[index]
        prev = None
        while node is not None:
            node.tree, node.prev = True, prev
            prev, node = node, node.next
        self.treeify(self.tab[index])

    def treeify(self, head: _Node) -> None:
        root = None
        x = head
        while x is not None:
            nxt = x.next
            x.left = x.right = None
            if root is None:
                x.parent, x.red, root = None, False, x
            else:
                p = root
                while True:
                    d = _direction(x, p)
                    xp = p
                    p = p.left if d <= 0 else p.right
                    if p is None:
                        x.parent = xp
                        if d <= 0:
                            xp.left = x
                        else:
                            xp.right = x
                        root = _balance_insertion(root, x)
                        break
            x = nxt
        self.move_root_to_front(root)

    def put_tree_val(self, first: _Node, h: int, key: str) -> None:
        root = first
        while root.parent is not None:
            root = root.parent
        x = _Node(h, key)
        x.tree = True
        p = root
        while True:
            d = _direction(x, p)
            xp = p
            p = p.left if d <= 0 else p.right
            if p is None:
                xpn = xp.next
                x.next = xpn
                if d <= 0:
                    xp.left = x
                else:
                    xp.right = x
                xp.next = x
                x.parent = x.prev = xp
                if xpn is not None:
                    xpn.prev = x
                self.move_root_to_front(_balance_insertion(root, x))
                return

    def move_root_to_front(self, root: _Node) -> None:
        index = (len(self.tab) - 1) & root.hash
        first = self.tab[index]
        if root is not first:
            self.tab[index] = root
            rp, rn = root.prev, root.next
            if rn is not None:
                rn.prev = rp
            if rp is not None:
                rp.next = rn
            if first is not None:
                first.prev = root
            root.next, root.prev = first, None

    def split(self, head: _Node, index: int, bit: int) -> None:
        lo: list[_Node] = []
        hi: list[_Node] = []
        e = head
        while e is not None:
            (hi if e.hash & bit else lo).append(e)
            e = e.next
        for part, slot, other in ((lo, index, hi), (hi, index + bit, lo)):
            if not part:
                continue
            for a, b in zip(part, part[1:] + [None]):
                a.next = b
            for a, b in zip(part, [None] + part[:-1]):
                a.prev = b
            self.tab[slot] = part[0]
            if len(part) <= _UNTREEIFY_THRESHOLD:
                for node in part:  # untreeify: plain nodes in the same linked order
                    node.tree = False
                    node.prev = node.parent = node.left = node.right = None
            elif other:
                self.treeify(part[0])


def _split_list(head: _Node, bit: int) -> tuple[_Node | None, _Node | None]:
    """Split a plain bucket into the nodes that stay and those that move up by ``bit``, keeping order."""
    heads: list[_Node | None] = [None, None]
    tails: list[_Node | None] = [None, None]
    e = head
    while e is not None:
        nxt, e.next = e.next, None
        side = 1 if e.hash & bit else 0
        if tails[side] is None:
            heads[side] = e
        else:
            tails[side].next = e
        tails[side] = e
        e = nxt
    return heads[0], heads[1]


def _direction(x: _Node, p: _Node) -> int:
    """Where x goes below p in a tree bin: by hash (signed), then String.compareTo."""
    if p.hash > x.hash:
        return -1
    if p.hash < x.hash:
        return 1
    return _compare_strings(x.key, p.key)


def _compare_strings(a: str, b: str) -> int:
    """String.compareTo over UTF-16 code units (equal to code points for the ASCII keys used here)."""
    ua, ub = a.encode("utf-16-be"), b.encode("utf-16-be")
    return -1 if ua < ub else (1 if ua > ub else 0)


def _balance_insertion(root: _Node, x: _Node) -> _Node:
    x.red = True
    while True:
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        xpp = xp.parent
        if not xp.red or xpp is None:
            return root
        xppl = xpp.left
        if xp is xppl:
            xppr = xpp.right
            if xppr is not None and xppr.red:
                xppr.red = xp.red = False
                xpp.red = True
                x = xpp
            else:
                if x is xp.right:
                    x = xp
                    root = _rotate_left(root, x)
                    xp = x.parent
                    xpp = None if xp is None else xp.parent
                if xp is not None:
                    xp.red = False
                    if xpp is not None:
                        xpp.red = True
                        root = _rotate_right(root, xpp)
        else:
            if xppl is not None and xppl.red:
                xppl.red = xp.red = False
                xpp.red = True
                x = xpp
            else:
                if x is xp.left:
                    x = xp
                    root = _rotate_right(root, x)
                    xp = x.parent
                    xpp = None if xp is None else xp.parent
                if xp is not None:
                    xp.red = False
                    if xpp is not None:
                        xpp.red = True
                        root = _rotate_left(root, xpp)


def _rotate_left(root: _Node, p: _Node) -> _Node:
    r = p.right
    if r is None:
        return root
    p.right = rl = r.left
    if rl is not None:
        rl.parent = p
    r.parent = pp = p.parent
    if pp is None:
        root = r
        r.red = False
    elif pp.left is p:
        pp.left = r
    else:
        pp.right = r
    r.left, p.parent = p, r
    return root


def _rotate_right(root: _Node, p: _Node) -> _Node:
    left = p.left
    if left is None:
        return root
    p.left = lr = left.right
    if lr is not None:
        lr.parent = p
    left.parent = pp = p.parent
    if pp is None:
        root = left
        left.red = False
    elif pp.right is p:
        pp.right = left
    else:
        pp.left = left
    left.right, p.parent = p, left
    return root
