"""The order in which the sweep visits a component's boxes: it decides how many states the sweep keeps.

The sweep's state is the mines still owed by the equations open at that point, so a good order
closes equations soon after opening them.  Every order gives the same counts; only the time differs.
Cuthill-McKee (breadth first) is cheap and usually good; on a component that branches it advances
on every branch at once and the branches' states multiply (5400 states at once on a 329-cell
stress component, against 41 in the greedy ``narrow_order``, which costs more to find).
"""

from __future__ import annotations

from minecheck.engine.constraints import Component

FIELD = 4  # bits per open equation in a state key: a digit owes at most 8 mines
SMALL = 20  # boxes: a component this small is swept in reading order


def sweep_order(comp: Component) -> list[int]:
    """The first order to try: reading order for a small component (its boxes come sorted by their
    first cell), Cuthill-McKee from a far-out box for a larger one, which pays for itself past ``SMALL``.
    """
    n = len(comp.boxes)
    return list(range(n)) if n <= SMALL else cuthill_mckee(comp)


def cuthill_mckee(comp: Component) -> list[int]:
    """Breadth first from a pseudo-peripheral box, neighbours by fewest neighbours first."""
    n = len(comp.boxes)
    by_eq: list[list[int]] = [[] for _ in comp.equations]
    for b, box in enumerate(comp.boxes):
        for e in box.equations:
            by_eq[e].append(b)
    near = [{o for e in box.equations for o in by_eq[e]} for box in comp.boxes]
    degree = [len(s) - 1 for s in near]
    adj = [sorted(s - {b}, key=lambda x: (degree[x], x)) for b, s in enumerate(near)]

    def bfs(start: int) -> list[int]:
        seen, order = {start}, [start]
        for cur in order:  # the list grows while it is read: a queue
            for nb in adj[cur]:
                if nb not in seen:
                    seen.add(nb)
                    order.append(nb)
        return order

    start = min(range(n), key=lambda b: (degree[b], b))
    for _ in range(2):  # two sweeps find a pseudo-peripheral box
        start = bfs(start)[-1]
    order = bfs(start)
    assert len(order) == n, "a component's boxes must be connected"
    return order


def narrow_order(comp: Component, start: int) -> list[int]:
    """Greedy: from ``start``, always the box whose step leaves the fewest states (then: opens fewest).

    Each candidate's next states are counted without their polynomials; a candidate is dropped as
    soon as it leaves more states than the best so far.
    """
    boxes = comp.boxes
    later = [len(eq.cells) for eq in comp.equations]  # cells of each equation not yet placed
    by_eq: list[list[int]] = [[] for _ in comp.equations]
    for b, box in enumerate(boxes):
        for e in box.equations:
            by_eq[e].append(b)
    field: dict[int, int] = {}
    free: list[int] = []  # as in ``plan``: fields of closed equations, reused
    fields = 0
    states, order, placed, candidates = {0}, [], [False] * len(boxes), {start}
    while candidates:
        best: tuple[tuple[int, int, int], set[int]] | None = None
        for b in sorted(candidates):
            size, eqs = len(boxes[b].cells), boxes[b].equations
            opens = touch = newly = 0
            checks = []
            spare, fresh = list(free), fields
            for e in eqs:
                shift = field.get(e)
                if shift is None:  # where the equation's field would go
                    if spare:
                        shift = spare.pop()
                    else:
                        shift, fresh = FIELD * fresh, fresh + 1
                    newly += 1
                    opens += comp.equations[e].mines << shift
                touch += 1 << shift
                checks.append((shift, later[e] - size))
            bound = len(states) * (size + 1) if best is None else best[0][0]
            after: set[int] = set()
            for key in states:
                key += opens
                lo, hi = 0, size
                for shift, left in checks:
                    owed = (key >> shift) & 15
                    if owed < hi:
                        hi = owed
                    if owed - left > lo:
                        lo = owed - left
                after.update(range(key - lo * touch, key - (hi + 1) * touch, -touch))
                if len(after) > bound:
                    break
            score = (len(after), newly, b)
            if best is None or score < best[0]:
                best = (score, after)
        (_, _, b), states = best
        for e in boxes[b].equations:
            if e not in field:
                if not free:
                    free.append(FIELD * fields)
                    fields += 1
                field[e] = free.pop()
            later[e] -= len(boxes[b].cells)
        free.extend(field[e] for e in boxes[b].equations if not later[e])
        order.append(b)
        placed[b] = True
        candidates.discard(b)
        candidates.update(o for e in boxes[b].equations if later[e] for o in by_eq[e] if not placed[o])
    assert len(order) == len(boxes), "a component's boxes must be connected"
    return order
