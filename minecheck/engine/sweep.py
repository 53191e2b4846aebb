"""One component's exact layouts by mine count, and per cell the layouts where it is a mine.

* cells with the same equations form a *box* (s cells, j mines: C(s, j) layouts);
* a component of one box is a binomial; one of a few boxes is backtracked over, box by box
  (tight components have few families of layouts to visit);
* anything larger is swept: boxes are put in a line (``minecheck.engine.boxorder``) and a dynamic
  programme goes along it; its state is the mines still owed by the open equations, packed
  into one int (4 bits an equation, each equation keeping its field while open);
* "for every number of mines" is a polynomial in z packed into one Python int (Kronecker
  substitution, a byte-aligned slot per coefficient), so adding polynomials and multiplying
  them are single big-integer operations.  A forward sweep and a backward sweep over the same
  states give every box's mine total, for every number of mines in the component.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from minecheck.engine.boxorder import FIELD, narrow_order, sweep_order
from minecheck.engine.constraints import Component

__all__ = ["ComponentCount", "count_component", "enumerate_boxes", "sweep", "sweep_order", "pack", "unpack",
           "slot_for", "plan"]  # sweep_order: the sweep's first order, read from here by generators.extreme_layout

FEW = 12  # boxes: a component this small is first counted by backtracking
BUDGET = 1024  # search nodes the backtracking may visit before the sweep takes over
CROWDED = 128  # states in one layer: past this the sweep starts again in a narrower order
BYTEWISE = 4096  # bits: a longer polynomial is (un)packed through bytes, a shorter one by shifts (faster)


@dataclass(frozen=True)
class ComponentCount:
    """Layouts of one component by mine count, and per cell the layouts where it is a mine."""

    component: Component
    by_mines: tuple[int, ...]  # by_mines[k]: layouts with k mines
    cell_by_mines: tuple[tuple[int, ...], ...]  # aligned with component.cells

    @property
    def layouts(self) -> int:
        return sum(self.by_mines)


# one step of the sweep, at one box:
#   size   its cells;
#   opens  packed: each equation first met here puts the mines it owes in its field;
#   touch  packed: a 1 in the field of each equation of the box (j mines subtract j * touch);
#   checks per equation of the box: (its field's shift, its cells in the boxes still to come).
Step = tuple[int, int, int, tuple[tuple[int, int], ...]]
WAYS = tuple(tuple(comb(s, j) for j in range(s + 1)) for s in range(9))  # a box lies in one digit's 8 cells


def count_component(comp: Component) -> ComponentCount:
    """Exact layouts by mine count and per-cell mine layouts.

    One box is a binomial; a few boxes are backtracked over (few families of layouts to visit);
    anything larger, or a few boxes that turn out loose, is swept.
    """
    if len(comp.boxes) == 1:
        return _one_box(comp)
    if len(comp.boxes) <= FEW:
        counted = enumerate_boxes(comp)
        if counted is not None:
            return counted
    return sweep(comp)


def sweep(comp: Component, order: list[int] | None = None) -> ComponentCount:
    """The forward-backward sweep over the boxes in ``order``.

    By default the order is ``sweep_order``'s; should a layer of that sweep grow past ``CROWDED``
    states, it is dropped for the slower-to-find ``narrow_order``, which keeps states few.
    """
    n = len(comp.cells)
    slot = slot_for(n + n.bit_length() + 1)  # a coefficient is below cells * 2**cells: no carry
    layers = None
    if order is None:
        order = sweep_order(comp)
        steps = plan(comp, order)
        layers = _forward(steps, slot, CROWDED)
        if layers is None:
            order = narrow_order(comp, order[0])
    if layers is None:
        steps = plan(comp, order)
        layers = _forward(steps, slot)
    packed_by_mines, box_mines = _backward(steps, layers, slot)
    by_mines = unpack(packed_by_mines, slot, n + 1)
    # only totals from the fewest mines to the most have layouts: unpack the boxes' counts there
    low = next((k for k, ways in enumerate(by_mines) if ways), 0)
    high = max((k for k, ways in enumerate(by_mines) if ways), default=-1)
    per_cell: dict[int, tuple[int, ...]] = {}
    for b, packed in zip(order, box_mines):
        cells = comp.boxes[b].cells
        # each cell of the box has 1/size of its mines
        middle = unpack((packed // len(cells)) >> (slot * low), slot, high - low + 1)
        per_k = (0,) * low + tuple(middle) + (0,) * (n - high)
        for cell in cells:
            per_cell[cell] = per_k
    return ComponentCount(comp, tuple(by_mines), tuple(per_cell[c] for c in comp.cells))


def _one_box(comp: Component) -> ComponentCount:
    """Cells that all lie in the same equations (a 50/50, say): C(n, m) layouts if they agree on m."""
    n = len(comp.cells)
    by_mines, per_cell = [0] * (n + 1), [0] * (n + 1)
    owed = {eq.mines for eq in comp.equations}
    if len(owed) == 1:
        m = owed.pop()
        by_mines[m] = comb(n, m)
        per_cell[m] = comb(n - 1, m - 1) if m else 0
    return ComponentCount(comp, tuple(by_mines), (tuple(per_cell),) * n)


def enumerate_boxes(comp: Component, budget: int = BUDGET) -> ComponentCount | None:
    """Backtracking over the boxes, one family of layouts per leaf; None past ``budget`` search nodes.

    A component of a few tight boxes has few families: visiting them beats setting up the sweep.  The
    mines each equation still owes travel packed in one int, a field per equation, as in the sweep's states.
    """
    boxes, n = comp.boxes, len(comp.cells)
    later = [len(eq.cells) for eq in comp.equations]
    opened = [False] * len(later)
    steps = []  # per box: its size, its ways, the equations it opens and touches (packed), their checks
    for box in boxes:
        size, opens, touch, checks = len(box.cells), 0, 0, []
        for e in box.equations:
            shift = FIELD * e
            if not opened[e]:
                opened[e] = True
                opens += comp.equations[e].mines << shift
            later[e] -= size
            touch += 1 << shift
            checks.append((shift, later[e]))
        steps.append((size, WAYS[size], opens, touch, tuple(checks)))
    last = len(boxes) - 1
    mines = [0] * len(boxes)  # the mines of each box on the path to the node
    by_mines = [0] * (n + 1)
    box_mines = [[0] * (n + 1) for _ in boxes]
    nodes = 1

    def visit(pos: int, key: int, ways: int, k: int) -> bool:
        nonlocal nodes
        size, ways_j, opens, touch, checks = steps[pos]
        key += opens
        lo, hi = 0, size  # the mines the box can take: no equation overpaid, none left short
        for shift, after in checks:
            owed = (key >> shift) & 15
            if owed < hi:
                hi = owed
            if owed - after > lo:
                lo = owed - after
        nodes += hi - lo + 1  # the children, counted before they are visited
        if nodes > budget:
            return False
        if pos == last:  # the leaves: the last box closes every equation still open
            for j in range(lo, hi + 1):
                at, leaf = k + j, ways * ways_j[j]
                by_mines[at] += leaf
                mines[pos] = j
                for count, m in zip(box_mines, mines):
                    if m:
                        count[at] += leaf * m
            return True
        for j in range(lo, hi + 1):
            mines[pos] = j
            if not visit(pos + 1, key - j * touch, ways * ways_j[j], k + j):
                return False
        return True

    if not visit(0, 0, 1, 0):
        return None
    per_cell: dict[int, tuple[int, ...]] = {}
    for box, count in zip(boxes, box_mines):
        if len(box.cells) == 1:  # most boxes of a small component
            per_cell[box.cells[0]] = tuple(count)
        else:  # each cell of the box has 1/size of its mines
            size = len(box.cells)
            per_cell.update(dict.fromkeys(box.cells, tuple([v // size for v in count])))
    return ComponentCount(comp, tuple(by_mines), tuple(map(per_cell.__getitem__, comp.cells)))


def _forward(steps: list[Step], slot: int, crowded: int | None = None) -> list[dict[int, int]] | None:
    """layers[pos] maps a state before box pos to its packed polynomial of ways to get there.

    None as soon as a layer holds more than ``crowded`` states.
    """
    layers: list[dict[int, int]] = [{0: 1}]
    for size, opens, touch, checks in steps:
        ways_j = WAYS[size]
        nxt: dict[int, int] = {}
        for key, ways in layers[-1].items():
            key += opens
            lo, hi = 0, size  # the mines the box can take: no equation overpaid, none left short
            for shift, later in checks:
                owed = (key >> shift) & 15
                if owed < hi:
                    hi = owed
                if owed - later > lo:
                    lo = owed - later
            for j in range(lo, hi + 1):
                new = key - j * touch
                nxt[new] = nxt.get(new, 0) + ((ways * ways_j[j]) << (slot * j))
        if crowded is not None and len(nxt) > crowded:
            return None
        layers.append(nxt)
    return layers


def _backward(steps: list[Step], layers: list[dict[int, int]], slot: int) -> tuple[int, list[int]]:
    """Packed layouts by mine count, and per box the packed sum over layouts of its mines."""
    there: dict[int, int] = {0: 1}
    box_mines = [0] * len(steps)
    for pos in range(len(steps) - 1, -1, -1):
        size, opens, touch, checks = steps[pos]
        ways_j = WAYS[size]
        here: dict[int, int] = {}
        mines = 0
        for key, ways in layers[pos].items():
            opened = key + opens
            lo, hi = 0, size  # as in the forward sweep
            for shift, later in checks:
                owed = (opened >> shift) & 15
                if owed < hi:
                    hi = owed
                if owed - later > lo:
                    lo = owed - later
            total = inner = 0
            for j in range(lo, hi + 1):
                tail = there.get(opened - j * touch)
                if tail is not None:
                    tail = (tail * ways_j[j]) << (slot * j)
                    total += tail
                    inner += j * tail
            if total:
                here[key] = total
                if inner:
                    mines += ways * inner
        box_mines[pos] = mines
        there = here
    return there.get(0, 0), box_mines


def plan(comp: Component, order: list[int]) -> list[Step]:
    """The sweep's steps along an order of boxes; an equation keeps one field from its first box to its last."""
    later = [len(eq.cells) for eq in comp.equations]  # cells of each equation not yet passed
    field: dict[int, int] = {}
    free: list[int] = []  # shifts of the fields of closed equations, to reuse
    fields = 0
    steps = []
    for box in (comp.boxes[b] for b in order):
        size, opens, touch, checks = len(box.cells), 0, 0, []
        for e in box.equations:
            if e not in field:
                if not free:
                    free.append(FIELD * fields)
                    fields += 1
                field[e] = free.pop()
                opens += comp.equations[e].mines << field[e]
            later[e] -= size
            touch += 1 << field[e]
            checks.append((field[e], later[e]))
        steps.append((size, opens, touch, tuple(checks)))
        free.extend(field[e] for e in box.equations if not later[e])  # closed: its field is 0 again
    return steps


# -- polynomials packed into one int -------------------------------------------------------

def slot_for(bits: int) -> int:
    """The slot, in whole bytes' worth of bits, for coefficients below 2**bits."""
    return 8 * ((bits + 7) // 8)


def pack(coefficients: Sequence[int], slot: int) -> int:
    """A polynomial as one int; every coefficient must be below 2**slot (slot a multiple of 8)."""
    if len(coefficients) * slot <= BYTEWISE:
        packed = 0
        for c in reversed(coefficients):
            packed = (packed << slot) | c
        return packed
    width = slot // 8
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coefficients), "little")


def unpack(packed: int, slot: int, length: int) -> list[int]:
    """The ``length`` lowest coefficients of a packed polynomial."""
    if length * slot <= BYTEWISE:
        mask, out = (1 << slot) - 1, []
        for _ in range(length):
            out.append(packed & mask)
            packed >>= slot
        return out
    width = slot // 8
    raw = packed.to_bytes(max(width * length, (packed.bit_length() + 7) // 8), "little")
    return [int.from_bytes(raw[k * width:(k + 1) * width], "little") for k in range(length)]
