"""Benchmark: minecheck's exact global-mode answer beside ms_toollib on big boards, in one run (issue 26).

    python bench/scale.py [--cap SECONDS] [--quick] [--boards NAME,...] [--no-curve]

The boards are generated from a seed (``SEED``): W x H cells, M mines, then either N scattered
single openings (safe cells opened one by one, no flood fill: many loose components) or one
flood-filled opening (a click on a zero, spreading as the game does).  The four boards of the
issue, a 200x200 board, and a 1000x1000 board flood-filled to about 100,000 covered cells.

Each engine runs in its own child process with a time cap (``--cap``, 120 s by default): a board
past the cap shows "> cap".  minecheck: ``count_board(board, Mode.GLOBAL)`` (reading the digits
included); ms_toollib: ``cal_probability_onboard`` on its nested lists (the conversion included).
Where both answer, their probabilities must agree to ``AGREE`` on every covered cell.

Then the curve: minecheck's time against the number of components, on 100x100 boards with 1,600
mines and more and more scattered openings.  ``--render`` adds a row: the time to render the
1000x1000 board's terminal view and a finding page of it.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from dataclasses import dataclass

from minecheck.model.board import Board, neighbours
from minecheck.model.position import Position, flood, render

SEED = 26
AGREE = 1e-12  # the largest difference between the engines' probabilities counted as agreement
CAP = 120.0  # seconds per engine per board


@dataclass(frozen=True)
class Spec:
    """A board to generate: W x H, M mines, ``openings`` scattered single openings, or one flood fill."""

    width: int
    height: int
    mines: int
    openings: int = 0  # scattered single openings; 0: one flood-filled opening instead

    @property
    def name(self) -> str:
        how = f"{self.openings:,} scattered openings" if self.openings else "one flood-filled opening"
        return f"{self.width}x{self.height}, {self.mines:,} mines, {how}"


BOARDS = {
    "60-300": Spec(60, 60, 576, 300),
    "100-300": Spec(100, 100, 1600, 300),
    "100-900": Spec(100, 100, 1600, 900),
    "100-flood": Spec(100, 100, 1600),
    "200-1200": Spec(200, 200, 6400, 1200),
    "1000-flood": Spec(1000, 1000, 60000),
}
CURVE = (25, 50, 100, 200, 300, 450, 600, 900)  # scattered openings on 100x100 with 1,600 mines


def generate(spec: Spec, seed: int = SEED) -> Board:
    """The board of a spec, the same on every machine for a seed."""
    rng = random.Random(f"{seed}:{spec}")
    cells = spec.width * spec.height
    mines = frozenset(rng.sample(range(cells), spec.mines))
    if spec.openings:
        safe = [c for c in range(cells) if c not in mines]
        opened = frozenset(rng.sample(safe, spec.openings))
    else:  # a zero as near the middle as there is, flood-filled
        middle = (spec.height // 2) * spec.width + spec.width // 2
        zeros = (c for c in sorted(range(cells), key=lambda c: abs(c - middle))
                 if c not in mines and not any(n in mines for n in neighbours(spec.width, spec.height, c)))
        opened = flood(spec.width, spec.height, mines, frozenset(), frozenset(), next(zeros))
    return render(Position(spec.width, spec.height, mines, opened))


# -- the engines, each in a child process --------------------------------------------------------

def _minecheck(board: Board):
    from minecheck.engine.counter import count_board
    from minecheck.model.answers import Mode
    start, cpu = time.perf_counter(), time.process_time()
    count = count_board(board, Mode.GLOBAL)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    probs = [(c, float(p)) for c, p in count.probabilities] if count.consistent else None
    return (took, probs, len(count.components), max((len(c.component.cells) for c in count.components), default=0),
            cpu)


def _toollib(board: Board):
    import ms_toollib

    from minecheck.solvers.toollib import game_board
    start, cpu = time.perf_counter(), time.process_time()
    try:
        probs = ms_toollib.cal_probability_onboard(game_board(board), float(board.total_mines))[0]
    except RuntimeError as err:  # its "no layout" errors
        return time.perf_counter() - start, str(err), time.process_time() - cpu
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    w = board.width
    return took, [(c, probs[c // w][c % w]) for c in board.covered], cpu


def _child(job, board, conn) -> None:
    try:
        conn.send(("ok", job(board)))
    except Exception as err:  # noqa: BLE001 - reported as the engine's answer
        conn.send(("error", f"{type(err).__name__}: {err}"))
    conn.close()


def capped(job, board: Board, cap: float):
    """(status, value): "ok" and the job's result, "error" and a message, or "cap" when past ``cap`` s."""
    ctx = mp.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(job, board, there))
    proc.start()
    there.close()
    if here.poll(cap):
        try:
            answer = here.recv()
        except EOFError:
            answer = ("error", "the child died")
    else:
        answer = ("cap", None)
    proc.kill()
    proc.join()
    return answer


# -- the table ------------------------------------------------------------------------------------

def seconds(status: str, value, cap: float) -> str:
    if status == "cap":
        return f"> {cap:g} s"
    if status == "error":
        return "error"
    return f"{value[0]:.3f} s ({value[-1]:.3f})"


def agreement(ours, theirs) -> str:
    if ours[0] != "ok" or theirs[0] != "ok":
        return "-"
    mine, tool = ours[1][1], theirs[1][1]
    if isinstance(tool, str):
        return f"ms_toollib gave up: {tool}"
    if mine is None:
        return "minecheck: inconsistent, ms_toollib answered"
    worst = max((abs(a - b) for (_, a), (_, b) in zip(mine, tool)), default=0.0)
    return f"agree (max diff {worst:.1e})" if worst <= AGREE else f"DIFFER (max diff {worst:.1e})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cap", type=float, default=CAP, help="seconds per engine per board")
    parser.add_argument("--boards", default=",".join(BOARDS), help=f"some of {', '.join(BOARDS)}")
    parser.add_argument("--no-curve", action="store_true", help="skip the curve against components")
    parser.add_argument("--no-toollib", action="store_true", help="minecheck only")
    parser.add_argument("--render", action="store_true", help="time the terminal view and a page of the big boards")
    args = parser.parse_args()
    try:
        import ms_toollib  # noqa: F401
        have_toollib = not args.no_toollib
    except ImportError:
        have_toollib = False
        print("note: ms_toollib is not installed: its column is skipped")

    print("times: wall seconds (CPU seconds of the engine's process); ratio = minecheck / ms_toollib, wall")
    print(f"{'board':52} {'covered':>9} {'comps':>6} {'minecheck':>18} {'ms_toollib':>18} {'ratio':>7}  agreement")
    for key in args.boards.split(","):
        spec = BOARDS[key]
        board = generate(spec)
        ours = capped(_minecheck, board, args.cap)
        theirs = capped(_toollib, board, args.cap) if have_toollib else ("skipped", None)
        comps = str(ours[1][2]) if ours[0] == "ok" else "-"
        ratio = f"{ours[1][0] / theirs[1][0]:6.2f}x" if ours[0] == theirs[0] == "ok" else "-"
        tool = seconds(*theirs, args.cap) if theirs[0] != "skipped" else "skipped"
        print(f"{spec.name:52} {len(board.covered):>9,} {comps:>6} {seconds(*ours, args.cap):>18} {tool:>18} "
              f"{ratio:>7}  {agreement(ours, theirs)}", flush=True)

    if not args.no_curve:
        print("\nminecheck's time against the number of components (100x100, 1,600 mines, scattered openings)")
        print(f"{'openings':>9} {'components':>10} {'largest':>8} {'minecheck':>18}")
        for n in CURVE:
            board = generate(Spec(100, 100, 1600, n))
            ours = capped(_minecheck, board, args.cap)
            comps, largest = (ours[1][2], ours[1][3]) if ours[0] == "ok" else ("-", "-")
            print(f"{n:>9} {comps:>10} {largest:>8} {seconds(*ours, args.cap):>18}", flush=True)

    if args.render:
        render_row(args.cap)


def render_row(cap: float) -> None:
    """The time to render the terminal view and a finding page of the 200x200 and 1000x1000 boards (their
    counts excluded): linear in the board, the 1000x1000 board should take about 25 times the 200x200's."""
    print(f"\n{'render (count excluded)':52} {'cells':>9} {'terminal view':>14} {'finding page':>14} {'page MB':>8}")
    for key in ("200-1200", "1000-flood"):
        board = generate(BOARDS[key])
        status, value = capped(_render, board, cap)
        if status != "ok":
            print(f"{BOARDS[key].name:52} {board.size:>9,} {status} {value or ''}")
            continue
        text, page, size = value
        print(f"{BOARDS[key].name:52} {board.size:>9,} {text:>12.3f} s {page:>12.3f} s {size / 1e6:>8.1f}", flush=True)


def _render(board: Board):
    from minecheck.check.findings import Finding, Kind
    from minecheck.model.answers import Mode
    from minecheck.report import textview
    from minecheck.report.pages import FindingPage, render_finding
    from minecheck.solvers.exact import ExactSolver
    result = ExactSolver().solve(board, Mode.GLOBAL)
    start = time.perf_counter()
    textview.grid(board, result)
    text = time.perf_counter() - start
    cell = result.cells[0].cell
    f = Finding(Kind.PROBABILITY, "exact", "exact", Mode.GLOBAL, (cell,), "p", "p", board.text())
    start = time.perf_counter()
    html = render_finding(FindingPage(f, 1, board, None, (result, result)))
    return text, time.perf_counter() - start, len(html)


if __name__ == "__main__":
    main()
