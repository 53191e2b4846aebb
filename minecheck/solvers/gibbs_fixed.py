"""Gibbs sampling (article 003), fixed: a block sampler whose stationary law is the exact posterior.

**fixed** (``gibbs@fixed[:SEED]``) is a Markov chain whose stationary law is exactly the exact
counter's posterior, in both modes.  Single-cell Gibbs on consistent layouts cannot move (with
the other cells fixed, a digit forces the last one), so it updates *windows*.  Design:

* State: a mine count j_b per *box* (frontier cells lying in the same equations; a box of s
  cells with j mines stands for C(s, j) layouts).  The cells of a box are exchangeable, so the
  chain runs on box counts with weight prod C(s_b, j_b), times C(off, remaining - K) in the
  global mode (K: the frontier's mines) - the posterior pushed forward to box counts - and a
  cell's estimate is the average of j_b / s_b (a Rao-Blackwellised frequency).
* Window move (heat bath): a connected region of boxes grown at random from a random box up to
  ``window_cells`` cells (the whole component when it is that small); in the global mode, half
  the time joined by a region of another component, so mines can move between components.  All
  refillings of the window with every other box held fixed are listed by backtracking, the
  window's mine total k is drawn with weight ways(k) * g(k) - g = 1 locally, C(off, remaining -
  rest - k) globally, which resamples the off-frontier mine count too - then a refilling with k
  mines by its ways.  Windows are chosen without looking at the state, so every move is an exact
  conditional draw, reversible with respect to the posterior, and keeps the current filling
  among its candidates (positive holding probability).
* Full draw: a forward dynamic programme over every component (state: mines still owed by the
  equations open along a breadth-first order of the boxes), combined through g, and a draw back
  through it: an exact draw of the whole frontier.  It does not depend on the state, so it is
  computed once.  It starts the chain (no start state means no consistent layout: the board is
  answered consistent=False with a reason) and ends a sweep with probability ``full_draw``.  It is
  needed: windows of bounded size are not irreducible in general (``H*23/1*23/0*23``, a wall of 1s
  whose two layouts repeat with period 3, changes phase only all at once).
* Ergodicity and honest errors: after a full draw the state is distributed as the posterior
  whatever it was, and window moves keep that law, so a sweep's kernel K satisfies K >= p * pi
  (p = ``full_draw``): irreducible, aperiodic, uniformly ergodic.  Window moves are contractions
  in L2(pi), so the lag-t autocorrelation of any estimate is at most (1 - p)^t and the integrated
  autocorrelation time at most (2 - p) / p sweeps - 3 for the default p = 1/2 - well inside the
  batches of 40 sweeps whose means give the standard errors.
* A sweep is ``ceil(frontier cells / window_cells)`` window moves, then the chance of a full
  draw; one sample per sweep after ``burn_in`` sweeps; ``batches`` batches of equal length.
* Verdicts are statistical: SAFE when the cell was safe in every sample (j_b = 0 throughout), MINE
  when it was a mine in every sample, UNKNOWN otherwise.  A sampler cannot prove either: a cell
  that is a mine in one layout of a million will usually be reported SAFE.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import ceil, comb

from minecheck.engine.constraints import ConstraintSystem, system_or_refusal
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board, label
from minecheck.model.errors import BadOption
from minecheck.solvers.gibbs_seed import batch_stderr, seed_option

# -- the fixed variant: heat-bath windows over box counts ------------------------------------

FIXED_SAMPLES = 1000
FIXED_BURN_IN = 50
BATCHES = 25
WINDOW_CELLS = 14
FULL_DRAW = 0.5


@dataclass(frozen=True)
class BoxGraph:
    """The frontier as boxes, equations numbered across components, each component's boxes in BFS order."""

    cells: tuple[tuple[int, ...], ...]  # per box
    equations: tuple[tuple[int, ...], ...]  # per box: the equations it lies in
    needs: tuple[int, ...]  # per equation: its mines
    members: tuple[tuple[int, ...], ...]  # per equation: its boxes
    adjacent: tuple[tuple[int, ...], ...]  # per box: boxes sharing an equation with it
    components: tuple[tuple[int, ...], ...]  # per component: its boxes, in a low-bandwidth order


def box_graph(system: ConstraintSystem) -> BoxGraph:
    cells, equations, needs, components = [], [], [], []
    for comp in system.components:
        first_box, first_eq = len(cells), len(needs)
        needs.extend(eq.mines for eq in comp.equations)
        for box in comp.boxes:
            cells.append(box.cells)
            equations.append(tuple(first_eq + e for e in box.equations))
        components.append(tuple(range(first_box, len(cells))))
    members: list[list[int]] = [[] for _ in needs]
    for b, eqs in enumerate(equations):
        for e in eqs:
            members[e].append(b)
    adjacent = tuple(tuple(sorted({o for e in eqs for o in members[e] if o != b})) for b, eqs in enumerate(equations))
    ordered = tuple(_bfs(_bfs(boxes[0], adjacent)[-1], adjacent) for boxes in components)
    return BoxGraph(tuple(cells), tuple(equations), tuple(needs), tuple(map(tuple, members)), adjacent, ordered)


def _bfs(start: int, adjacent: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    order, seen = [start], {start}
    for b in order:
        for o in adjacent[b]:
            if o not in seen:
                seen.add(o)
                order.append(o)
    return tuple(order)


@dataclass(frozen=True)
class Programme:
    """Ways to fill a window's boxes in order: layers[pos] maps the owed-mines state before box pos to
    its ways by mines so far; links[pos] maps a state after box pos to the (state before, mines) reaching it."""

    order: tuple[int, ...]
    sizes: tuple[int, ...]
    layers: tuple[dict[tuple[int, ...], list[int]], ...]
    links: tuple[dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]], ...]

    @property
    def ways(self) -> list[int]:
        """Ways by the window's mine total (all equations closed at the end)."""
        return self.layers[-1].get((), [0])


def programme(graph: BoxGraph, order: tuple[int, ...], owed: dict[int, int]) -> Programme:
    """Count the fillings of the boxes in ``order`` that give each equation its ``owed`` mines."""
    sizes = tuple(len(graph.cells[b]) for b in order)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for pos, b in enumerate(order):
        for e in graph.equations[b]:
            first.setdefault(e, pos)
            last[e] = pos
    later = dict.fromkeys(first, 0)  # cells of each equation in boxes after pos
    checks: list[tuple[tuple[int, int, bool], ...]] = []
    for pos in range(len(order) - 1, -1, -1):
        checks.append(tuple((e, later[e], last[e] == pos) for e in graph.equations[order[pos]]))
        for e in graph.equations[order[pos]]:
            later[e] += sizes[pos]
    checks.reverse()
    open_after = [tuple(e for e in first if first[e] <= pos < last[e]) for pos in range(len(order))]

    layers: list[dict[tuple[int, ...], list[int]]] = [{(): [1]}]
    links = []
    before: tuple[int, ...] = ()
    for pos, size in enumerate(sizes):
        nxt: dict[tuple[int, ...], list[int]] = {}
        link: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
        for state, poly in layers[pos].items():
            for j in range(size + 1):
                now = dict(zip(before, state))
                for e, room, closes in checks[pos]:
                    left = now.get(e, owed[e]) - j
                    if left < 0 or left > room or (closes and left):
                        break
                    now[e] = left
                else:
                    new = tuple(now[e] for e in open_after[pos])
                    target = nxt.setdefault(new, [])
                    target.extend([0] * (len(poly) + j - len(target)))
                    ways = comb(size, j)
                    for k, w in enumerate(poly):
                        target[k + j] += w * ways
                    link.setdefault(new, []).append((state, j))
        layers.append(nxt)
        links.append(link)
        before = open_after[pos]
    return Programme(order, sizes, tuple(layers), tuple(links))


def draw_back(prog: Programme, mines: int, rng: random.Random) -> list[int]:
    """A filling of the window with ``mines`` mines, drawn with probability proportional to its ways."""
    state: tuple[int, ...] = ()
    out = [0] * len(prog.order)
    for pos in range(len(prog.order) - 1, -1, -1):
        options = []
        for prev, j in prog.links[pos][state]:
            poly = prog.layers[pos][prev]
            if 0 <= mines - j < len(poly) and poly[mines - j]:
                options.append((poly[mines - j] * comb(prog.sizes[pos], j), prev, j))
        _, state, out[pos] = _pick(options, rng)
        mines -= out[pos]
    return out


def _pick(options: list[tuple[int, ...]], rng: random.Random) -> tuple[int, ...]:
    """One option, with probability proportional to its first entry (an exact integer weight)."""
    r = rng.randrange(sum(o[0] for o in options))
    for option in options:
        r -= option[0]
        if r < 0:
            return option
    raise AssertionError("weights changed while picking")


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _off_weight(off: int, mines: int) -> int:
    """Layouts of the off-frontier cells holding ``mines`` mines."""
    return comb(off, mines) if 0 <= mines <= off else 0


@dataclass(frozen=True)
class Target:
    """What the chain samples: the boxes, and in the global mode the off-frontier cells and mines remaining."""

    graph: BoxGraph
    off: int
    remaining: int | None  # None: the local mode (each component uniform on its own)

    def weight(self, rest: int, k: int) -> int:
        """g(k): the weight of a window holding k mines while the rest of the frontier holds ``rest``."""
        return 1 if self.remaining is None else _off_weight(self.off, self.remaining - rest - k)


class FullDraw:
    """An exact draw of the whole frontier, independent of the state: the chain's start and its ergodic move."""

    def __init__(self, target: Target):
        graph = target.graph
        self.target = target
        self.programmes = [programme(graph, order, dict(enumerate(graph.needs))) for order in graph.components]
        self.empty = [i for i, p in enumerate(self.programmes) if not any(p.ways)]
        polys = [p.ways for p in self.programmes]
        self.suffix = [[1]]  # suffix[i]: ways of components i.. by their joint mine total
        for poly in reversed(polys):
            self.suffix.append(_convolve(poly, self.suffix[-1]))
        self.suffix.reverse()
        self.totals = [(w * target.weight(0, k), k) for k, w in enumerate(self.suffix[0]) if w]
        self.totals = [t for t in self.totals if t[0]]

    def consistent(self) -> bool:
        return not self.empty and bool(self.totals)

    def draw(self, state: list[int], rng: random.Random) -> None:
        """Replace the state by a draw from the posterior."""
        if self.target.remaining is None:
            for prog in self.programmes:
                _, k = _pick([(w, k) for k, w in enumerate(prog.ways) if w], rng)
                self._place(prog, k, state, rng)
            return
        _, left = _pick(self.totals, rng)
        for i, prog in enumerate(self.programmes):
            after = self.suffix[i + 1]
            options = [(w * after[left - k], k) for k, w in enumerate(prog.ways)
                       if w and 0 <= left - k < len(after) and after[left - k]]
            _, k = _pick(options, rng)
            self._place(prog, k, state, rng)
            left -= k

    @staticmethod
    def _place(prog: Programme, k: int, state: list[int], rng: random.Random) -> None:
        for b, j in zip(prog.order, draw_back(prog, k, rng)):
            state[b] = j


def grow_region(graph: BoxGraph, start: int, cap: int, rng: random.Random) -> list[int]:
    """A connected set of boxes grown at random from ``start`` while it holds at most ``cap`` cells."""
    region, inside, cells = [start], {start}, len(graph.cells[start])
    candidates = list(graph.adjacent[start])
    while candidates:
        b = candidates.pop(rng.randrange(len(candidates)))
        if b in inside or cells + len(graph.cells[b]) > cap:
            continue
        region.append(b)
        inside.add(b)
        cells += len(graph.cells[b])
        candidates.extend(o for o in graph.adjacent[b] if o not in inside)
    return region


Refillings = dict[int, list[tuple[int, tuple[int, ...]]]]  # mine count -> [(ways, mines per box)]


def window_move(target: Target, state: list[int], regions: list[tuple[int, ...]], rng: random.Random,
                memo: dict[tuple, Refillings]) -> None:
    """Heat bath: redraw the regions' boxes from their exact conditional given every other box.

    Regions lie in different components, so they share no equation: each one's refillings are
    listed on its own, grouped by mine count, and only the total couples them (through g)."""
    graph = target.graph
    rest = sum(state) - sum(state[b] for region in regions for b in region)
    groups = []
    for region in regions:
        inside = set(region)
        owed = {}
        for b in region:
            for e in graph.equations[b]:
                owed[e] = graph.needs[e] - sum(state[o] for o in graph.members[e] if o not in inside)
        key = (region, tuple(sorted(owed.items())))
        if key not in memo:
            memo[key] = refillings(graph, region, owed)
        groups.append(memo[key])
    combos = [(1, ())]
    for by_mines in groups:
        totals = {k: sum(ways for ways, _ in options) for k, options in by_mines.items()}
        combos = [(w * t, ks + (k,)) for w, ks in combos for k, t in totals.items()]
    _, counts = _pick([(w * target.weight(rest, sum(ks)), ks) for w, ks in combos
                       if w * target.weight(rest, sum(ks))], rng)
    for region, by_mines, k in zip(regions, groups, counts):
        _, filling = _pick(by_mines[k], rng)
        for b, j in zip(region, filling):
            state[b] = j


def refillings(graph: BoxGraph, window: tuple[int, ...], owed: dict[int, int]) -> Refillings:
    """Every filling (mines per box) of a small window that gives each equation its owed mines, by mine count."""
    sizes = [len(graph.cells[b]) for b in window]
    eqs_at = [graph.equations[b] for b in window]
    room = dict.fromkeys(owed, 0)  # cells of each equation in the window boxes not yet filled
    for eqs, size in zip(eqs_at, sizes):
        for e in eqs:
            room[e] += size
    owed = dict(owed)
    out: Refillings = {}
    filling = [0] * len(window)

    def fill(pos: int, ways: int, mines: int) -> None:
        if pos == len(window):
            out.setdefault(mines, []).append((ways, tuple(filling)))
            return
        eqs, size = eqs_at[pos], sizes[pos]
        low, high = 0, size
        for e in eqs:
            room[e] -= size
            low = max(low, owed[e] - room[e])
            high = min(high, owed[e])
        for j in range(low, high + 1):
            for e in eqs:
                owed[e] -= j
            filling[pos] = j
            fill(pos + 1, ways * comb(size, j), mines + j)
            for e in eqs:
                owed[e] += j
        for e in eqs:
            room[e] += size

    fill(0, 1, 0)
    return out


@dataclass(frozen=True)
class ChainSettings:
    """The chain's seed and budget: sweeps sampled after burn-in, batches for the errors, window size, full draws."""

    seed: int = 0
    samples: int = FIXED_SAMPLES
    burn_in: int = FIXED_BURN_IN
    batches: int = BATCHES
    window_cells: int = WINDOW_CELLS
    full_draw: float = FULL_DRAW

    def __post_init__(self) -> None:
        if self.samples < 1 or self.burn_in < 0 or self.window_cells < 1 or not 0 <= self.full_draw <= 1:
            raise BadOption(f"bad chain settings {self}")


@dataclass(frozen=True)
class Tally:
    """Batch sums of each box's mines and of the off-frontier mines, and whether each was ever (not) a mine."""

    box_sums: tuple[tuple[int, ...], ...]  # per batch, per box
    off_sums: tuple[int, ...]  # per batch
    sizes: tuple[int, ...]  # samples per batch
    box_ever_mined: tuple[bool, ...]
    box_ever_clear: tuple[bool, ...]  # some sample left a cell of the box safe (j < s)
    off_range: tuple[int, int]  # least and most off-frontier mines seen


def run_chain(target: Target, full: FullDraw, settings: ChainSettings) -> Tally:
    """Start from a full draw, burn in, then tally one sample per sweep."""
    graph, rng = target.graph, random.Random(settings.seed)
    n_boxes = len(graph.cells)
    component_of = {b: i for i, comp in enumerate(graph.components) for b in comp}
    memo: dict[tuple, Refillings] = {}  # refillings of a region given what its equations are owed
    state = [0] * n_boxes
    full.draw(state, rng)
    frontier_cells = sum(len(c) for c in graph.cells)
    moves = ceil(frontier_cells / settings.window_cells) if n_boxes else 0
    batches = max(1, min(settings.batches, settings.samples))
    box_sums = [[0] * n_boxes for _ in range(batches)]
    off_sums, sizes = [0] * batches, [0] * batches
    ever_mined, ever_clear = [False] * n_boxes, [False] * n_boxes
    off_low, off_high = None, None
    for sweep in range(settings.burn_in + settings.samples):
        for _ in range(moves):
            start = rng.randrange(n_boxes)
            regions = [tuple(sorted(grow_region(graph, start, settings.window_cells, rng)))]
            if target.remaining is not None and len(graph.components) > 1 and rng.random() < 0.5:
                other = rng.choice([i for i in range(len(graph.components)) if i != component_of[start]])
                grown = grow_region(graph, rng.choice(graph.components[other]), settings.window_cells, rng)
                regions.append(tuple(sorted(grown)))
            window_move(target, state, regions, rng, memo)
        if rng.random() < settings.full_draw:
            full.draw(state, rng)
        if sweep < settings.burn_in:
            continue
        batch = (sweep - settings.burn_in) * batches // settings.samples
        sizes[batch] += 1
        row = box_sums[batch]
        for b, j in enumerate(state):
            row[b] += j
            ever_mined[b] = ever_mined[b] or j > 0
            ever_clear[b] = ever_clear[b] or j < len(graph.cells[b])
        if target.remaining is not None:
            off_mines = target.remaining - sum(state)
            off_sums[batch] += off_mines
            off_low = off_mines if off_low is None else min(off_low, off_mines)
            off_high = off_mines if off_high is None else max(off_high, off_mines)
    return Tally(tuple(map(tuple, box_sums)), tuple(off_sums), tuple(sizes), tuple(ever_mined), tuple(ever_clear),
                 (off_low or 0, off_high or 0))


class FixedGibbs:
    """A block Gibbs sampler whose stationary law is the exact posterior, in both modes (see the module)."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, settings: ChainSettings = ChainSettings()):
        self.name = "gibbs@fixed"
        self.settings = settings

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        system = system_or_refusal(self.name, board, mode)
        if isinstance(system, SolverResult):
            return system
        remaining = system.mines_remaining if mode is Mode.GLOBAL else None
        target = Target(box_graph(system), len(system.off_frontier), remaining)
        full = FullDraw(target)
        if not full.consistent():
            return SolverResult(self.name, mode, consistent=False, reason=_no_layout_reason(system, target, full))
        tally = run_chain(target, full, self.settings)
        return SolverResult(self.name, mode, consistent=True, cells=_answers(system, target, tally),
                            samples=self.settings.samples, extra=(("seed", str(self.settings.seed)),))


def _answers(system: ConstraintSystem, target: Target, tally: Tally) -> tuple[CellAnswer, ...]:
    graph, out = target.graph, []
    for b, cells in enumerate(graph.cells):
        size = len(cells)
        p = sum(row[b] for row in tally.box_sums) / (size * sum(tally.sizes))
        err = batch_stderr([row[b] / size for row in tally.box_sums], list(tally.sizes))
        verdict = _sampled_verdict(not tally.box_ever_mined[b], not tally.box_ever_clear[b])
        out.extend(CellAnswer(c, verdict, p, err) for c in cells)
    if target.remaining is not None and target.off:
        off = target.off
        p = sum(tally.off_sums) / (off * sum(tally.sizes))
        err = batch_stderr([s / off for s in tally.off_sums], list(tally.sizes))
        low, high = tally.off_range
        verdict = _sampled_verdict(high == 0, low == off)
        out.extend(CellAnswer(c, verdict, p, err) for c in system.off_frontier)
    return tuple(sorted(out, key=lambda a: a.cell))


def _sampled_verdict(always_safe: bool, always_mine: bool) -> Verdict:
    """Statistical: what every sample agreed on, which a sampler cannot prove."""
    if always_safe:
        return Verdict.SAFE
    if always_mine:
        return Verdict.MINE
    return Verdict.UNKNOWN


def _no_layout_reason(system: ConstraintSystem, target: Target, full: FullDraw) -> str:
    board = system.board
    if full.empty:
        comp = system.components[full.empty[0]]
        digits = ", ".join(label(board, eq.source) for eq in comp.equations[:6])
        return f"no layout of {len(comp.cells)} covered cells satisfies the digits at {digits} together"
    ways = full.suffix[0]
    low, high = min(k for k, w in enumerate(ways) if w), max(k for k, w in enumerate(ways) if w)
    return (f"no layout holds exactly {target.remaining} remaining mines: the frontier holds {low} to {high} "
            f"and {target.off} covered cells lie off the frontier")


def fixed_solver(option: str | None = None) -> FixedGibbs:
    return FixedGibbs(ChainSettings(seed=seed_option(option)))
