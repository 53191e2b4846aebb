"""The exact counter: the number of consistent layouts and exact mine probabilities.

This is minecheck's ground truth.  It never enumerates layouts one by one:

* cells with the same equations form a *box* (s cells, j mines: C(s, j) layouts);
* boxes are ordered along the component (Cuthill-McKee), and a dynamic programme sweeps
  them, its state being the mines still owed by the equations that are open at that point
  of the sweep.  A forward sweep and a backward sweep over the same states give every
  box's mine total, for every number of mines in the component;
* "for every number of mines" is a polynomial in z; each polynomial is packed into one
  Python int (Kronecker substitution, a slot of bits per coefficient), so adding and
  multiplying polynomials are single big-integer operations.

Components are then combined: in the local mode each one is uniform over its own layouts;
in the global mode a frontier total K is weighted by C(off-frontier cells, remaining - K).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from minecheck.answers import Mode
from minecheck.board import Board, label
from minecheck.constraints import Component, ConstraintSystem, Contradiction, build_constraints


@dataclass(frozen=True)
class ComponentCount:
    """Layouts of one component by mine count, and per cell the layouts where it is a mine."""

    component: Component
    by_mines: tuple[int, ...]  # by_mines[k]: layouts with k mines
    cell_by_mines: tuple[tuple[int, ...], ...]  # aligned with component.cells

    @property
    def layouts(self) -> int:
        return sum(self.by_mines)


@dataclass(frozen=True)
class Count:
    """The counter's answer for a board in one mode."""

    mode: Mode
    consistent: bool
    reason: str | None
    layouts: int
    components: tuple[ComponentCount, ...]
    probabilities: tuple[tuple[int, Fraction | None], ...]  # every covered cell; None: no verdict (local, off-frontier)


def default_mode(board: Board) -> Mode:
    return Mode.GLOBAL if board.total_mines is not None else Mode.LOCAL


def count_board(board: Board, mode: Mode | None = None) -> Count:
    """Count a board; an impossible board is a Count with consistent=False and a reason."""
    mode = mode or default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    try:
        system = build_constraints(board)
    except Contradiction as err:
        return Count(mode, False, str(err), 0, (), ())
    return count_system(system, mode)


def count_system(system: ConstraintSystem, mode: Mode) -> Count:
    counts = tuple(count_component(c) for c in system.components)
    board = system.board
    for cc in counts:
        if cc.layouts == 0:
            return Count(mode, False, _no_layout_reason(board, cc.component), 0, counts, ())
    if mode is Mode.LOCAL:
        return _local(system, counts)
    return _global(system, counts)


def _local(system: ConstraintSystem, counts: tuple[ComponentCount, ...]) -> Count:
    probs: dict[int, Fraction | None] = {c: None for c in system.off_frontier}
    layouts = 1
    for cc in counts:
        total = cc.layouts
        layouts *= total
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            probs[cell] = Fraction(sum(per_k), total)
    return Count(Mode.LOCAL, True, None, layouts, counts, tuple(sorted(probs.items())))


def _global(system: ConstraintSystem, counts: tuple[ComponentCount, ...]) -> Count:
    off, remaining = len(system.off_frontier), system.mines_remaining
    assert remaining is not None
    polys = [list(cc.by_mines) for cc in counts]
    prefix = [[1]]
    for p in polys:
        prefix.append(_convolve(prefix[-1], p))
    suffix = [[1]]
    for p in reversed(polys):
        suffix.append(_convolve(suffix[-1], p))
    suffix.reverse()
    frontier_poly = prefix[-1]
    layouts = sum(n * comb(off, remaining - k) for k, n in enumerate(frontier_poly) if 0 <= remaining - k)
    if layouts == 0:
        low = sum(_lowest(p) for p in polys)
        high = sum(_highest(p) for p in polys)
        reason = (f"no layout holds exactly {remaining} remaining mines: the frontier holds {low} to "
                  f"{high} and {off} covered cells lie off the frontier")
        return Count(Mode.GLOBAL, False, reason, 0, counts, ())

    probs: dict[int, Fraction | None] = {}
    for i, cc in enumerate(counts):
        others = _convolve(prefix[i], suffix[i + 1])
        weight = [sum(q * comb(off, remaining - k - j) for j, q in enumerate(others) if remaining - k - j >= 0)
                  for k in range(len(cc.by_mines))]
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            probs[cell] = Fraction(sum(n * w for n, w in zip(per_k, weight)), layouts)
    if off:
        off_mines = sum(n * comb(off - 1, remaining - k - 1) for k, n in enumerate(frontier_poly) if remaining - k >= 1)
        p_off = Fraction(off_mines, layouts)
        for cell in system.off_frontier:
            probs[cell] = p_off
    return Count(Mode.GLOBAL, True, None, layouts, counts, tuple(sorted(probs.items())))


def _no_layout_reason(board: Board, comp: Component) -> str:
    digits = ", ".join(label(board, eq.source) for eq in comp.equations[:6])
    more = "" if len(comp.equations) <= 6 else f" and {len(comp.equations) - 6} more"
    return (f"no layout of {len(comp.cells)} covered cells satisfies the digits at {digits}{more} together")


def _lowest(poly: list[int]) -> int:
    return next(k for k, n in enumerate(poly) if n)


def _highest(poly: list[int]) -> int:
    return max(k for k, n in enumerate(poly) if n)


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


# -- one component ---------------------------------------------------------------------------

def count_component(comp: Component) -> ComponentCount:
    """Exact layouts by mine count and per-cell mine layouts, by a forward-backward sweep over boxes."""
    order = _sweep_order(comp)
    boxes = [comp.boxes[b] for b in order]
    n_eq = len(comp.equations)
    need = [eq.mines for eq in comp.equations]
    first = [len(boxes)] * n_eq
    last = [-1] * n_eq
    for pos, box in enumerate(boxes):
        for e in box.equations:
            first[e] = min(first[e], pos)
            last[e] = max(last[e], pos)
    # capacity[pos][e]: cells of equation e in boxes after pos (an upper bound on what it can still get)
    capacity = []
    running = [0] * n_eq
    for box in reversed(boxes):
        capacity.append(list(running))
        for e in box.equations:
            running[e] += len(box.cells)
    capacity.reverse()
    active_after = [tuple(e for e in range(n_eq) if first[e] <= pos < last[e]) for pos in range(len(boxes))]
    slot = len(comp.cells) + 8  # bits per coefficient: every coefficient stays below 2**(cells + 3)
    shift = [[comb(len(b.cells), j) << (slot * j) for j in range(len(b.cells) + 1)] for b in boxes]

    def step(pos: int, state: tuple[int, ...], active: tuple[int, ...], j: int) -> tuple[int, ...] | None:
        """The state after putting j mines in box pos, or None if an equation is broken."""
        owed = dict(zip(active, state))
        for e in boxes[pos].equations:
            left = owed.get(e, need[e]) - j
            if left < 0 or left > capacity[pos][e] or (last[e] == pos and left):
                return None
            owed[e] = left
        return tuple(owed[e] for e in active_after[pos])

    # forward: layers[pos] maps a state before box pos to its packed polynomial of ways
    layers: list[dict[tuple[int, ...], int]] = [{(): 1}]
    actives = [()] + active_after
    for pos, box in enumerate(boxes):
        nxt: dict[tuple[int, ...], int] = {}
        for state, ways in layers[pos].items():
            for j in range(len(box.cells) + 1):
                new = step(pos, state, actives[pos], j)
                if new is not None:
                    nxt[new] = nxt.get(new, 0) + ways * shift[pos][j]
        layers.append(nxt)

    # backward: back[pos] maps a state before box pos to the packed ways to finish from there
    back: list[dict[tuple[int, ...], int]] = [dict() for _ in range(len(boxes) + 1)]
    back[len(boxes)] = {(): 1}
    box_mines = [0] * len(boxes)
    for pos in range(len(boxes) - 1, -1, -1):
        box, here, there = boxes[pos], back[pos], back[pos + 1]
        for state, ways in layers[pos].items():
            total = 0
            for j in range(len(box.cells) + 1):
                new = step(pos, state, actives[pos], j)
                if new is not None and new in there:
                    tail = shift[pos][j] * there[new]
                    total += tail
                    if j:
                        box_mines[pos] += j * ways * tail
            if total:
                here[state] = total

    by_mines = _unpack(back[0].get((), 0), slot, len(comp.cells) + 1)
    per_cell: dict[int, tuple[int, ...]] = {}
    for pos, box in enumerate(boxes):
        size = len(box.cells)
        per_k = tuple(v // size for v in _unpack(box_mines[pos], slot, len(comp.cells) + 1))
        for cell in box.cells:
            per_cell[cell] = per_k
    return ComponentCount(comp, tuple(by_mines), tuple(per_cell[c] for c in comp.cells))


def _unpack(packed: int, slot: int, length: int) -> list[int]:
    mask = (1 << slot) - 1
    return [(packed >> (slot * k)) & mask for k in range(length)]


def _sweep_order(comp: Component) -> list[int]:
    """Boxes in Cuthill-McKee order from a far-out box, so few equations are open at once."""
    n = len(comp.boxes)
    by_eq: dict[int, list[int]] = {}
    for b, box in enumerate(comp.boxes):
        for e in box.equations:
            by_eq.setdefault(e, []).append(b)
    adj = [sorted({o for e in box.equations for o in by_eq[e] if o != b}) for b, box in enumerate(comp.boxes)]

    def bfs(start: int) -> list[int]:
        seen, order, head = {start}, [start], 0
        while head < len(order):
            cur = order[head]
            head += 1
            for nb in sorted(adj[cur], key=lambda x: (len(adj[x]), x)):
                if nb not in seen:
                    seen.add(nb)
                    order.append(nb)
        return order

    start = min(range(n), key=lambda b: (len(adj[b]), b))
    for _ in range(2):  # two sweeps find a pseudo-peripheral box
        start = bfs(start)[-1]
    order = bfs(start)
    assert len(order) == n, "a component's boxes must be connected"
    return order
