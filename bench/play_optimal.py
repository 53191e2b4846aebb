"""The small-board table of docs/play.md: every player's win rate beside perfect play's, and where the
lowest-probability rule loses against perfect play.

    python bench/play_optimal.py [--games3 N] [--games4 N] [--games5 N] [--out DIR]

Each size (3x3x3, 4x4x4, 5x5x5) is a ``minecheck play`` run (seed 2026, first click at the centre under
the ``safe`` rule, one worker process): 3x3x3 and 4x4x4 judged ``--judge optimal`` (every open move by its
chance of winning, ``suboptimal`` findings counted), 5x5x5 judged by probability alone (the oracle on a
5x5x5 view can take most of a minute; ``--games5-optimal N`` also judges N games of ``exact`` optimally to
time it).  Perfect play's value is ``summary.json``'s ``optimal`` (``first_click_value`` from the same cell
under the same rule).  Each player's cell: wins/games = rate (Wilson 95%), then its suboptimal decisions.
Below the table: positions where the cell of lowest mine probability wins less often than the best move.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from minecheck.check.findings import read_findings
from minecheck.model.board import label
from minecheck.model.boardtext import parse_board
from minecheck.play.oracle import board_move_values, first_click_value, mine_probabilities
from minecheck.play.run import PlayConfig, run_play, write_summary

PLAYERS = ("exact", "lookahead", "progress", "dpll@fixed", "ilp@fixed", "gibbs@fixed")
SEED = 2026


def run(size: str, games: int, judge: str, out: Path, players: tuple[str, ...] = PLAYERS) -> tuple[dict, float]:
    config = PlayConfig(SEED, players, size, "safe", 10.0, "centre", (), judge)
    started = time.perf_counter()
    run_play(config, out, games, jobs=1, overwrite=True)
    seconds = time.perf_counter() - started
    summary = write_summary(out, seconds)
    if "optimal" not in summary:  # judged by probability: the value is computed here all the same
        w, h, m = (int(v) for v in size.split("x"))
        value = first_click_value(w, h, m, "safe", (h // 2) * w + w // 2)
        summary["optimal"] = {"value": str(value), "win_rate": float(value)}
    return summary, seconds


def cell(row: dict, suboptimal: int | None) -> str:
    lo, hi = row["ci95"]
    text = f"{row['wins']}/{row['games']} = {100 * row['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
    return text + (f"; {suboptimal} suboptimal" if suboptimal is not None else "")


def lowest_loses(text: str) -> str:
    """A position, the cell of lowest mine probability and the best move, each with its chance of winning."""
    board = parse_board(text)
    values = board_move_values(board)
    p = mine_probabilities(board.width, board.height, board.total_mines,
                           {c: board.cells[c] for c in board.digits})
    low = min((p[c], c) for c in values)[1]
    best = max((v, -c) for c, v in values.items())
    best_cell = -best[1]
    inline = "/".join(ln for ln in text.splitlines()[1:])
    return (f"`{text.splitlines()[0]}/{inline}`: the lowest mine probability is {label(board, low)} (p={p[low]}), "
            f"which wins {values[low]} ({100 * float(values[low]):.1f}%); the best move is {label(board, best_cell)} "
            f"(p={p[best_cell]}), which wins {values[best_cell]} ({100 * float(values[best_cell]):.1f}%)")


def from_run(out: Path) -> str | None:
    """The first suboptimal finding of ``exact`` (which opens the lowest probability) where the best move is
    the riskier one, as a position line."""
    for f in read_findings(out):
        if f.subject == "exact" and f.detail == "suboptimal":
            board = parse_board(f.board)
            seen = "\n".join(ln for ln in f.board.splitlines() if ln and not ln.startswith("#"))
            view = seen.translate(str.maketrans("mF", "HH"))  # hidden mines and flags: covered
            values = board_move_values(board)
            p = mine_probabilities(board.width, board.height, board.total_mines,
                                   {c: board.cells[c] for c in board.digits})
            best = max((v, -c) for c, v in values.items())
            if p[-best[1]] > min(p[c] for c in values):
                return view
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games3", type=int, default=1000)
    parser.add_argument("--games4", type=int, default=1000)
    parser.add_argument("--games5", type=int, default=300)
    parser.add_argument("--games5-optimal", type=int, default=0, help="exact's 5x5x5 games judged optimally")
    parser.add_argument("--out", type=Path, default=None, help="keep the runs here (default: a temporary folder)")
    args = parser.parse_args()
    root = args.out or Path(tempfile.mkdtemp(prefix="play-optimal-"))
    rows, timing = [], []
    for size, games, judge in (("3x3x3", args.games3, "optimal"), ("4x4x4", args.games4, "optimal"),
                               ("5x5x5", args.games5, "probability")):
        if games <= 0:
            continue
        summary, seconds = run(size, games, judge, root / size)
        subs = {}
        if judge == "optimal":
            for f in read_findings(root / size):
                if f.detail == "suboptimal":
                    subs[f.subject] = subs.get(f.subject, 0) + 1
        rows.append((size, summary, judge, subs))
        timing.append(f"{size} judged {judge}: {games * len(PLAYERS)} games in {seconds:.0f} s wall "
                      f"({1000 * seconds / (games * len(PLAYERS)):.0f} ms/game)")
    if args.games5_optimal > 0:
        _, seconds = run("5x5x5", args.games5_optimal, "optimal", root / "5x5x5-optimal", ("exact",))
        timing.append(f"5x5x5 judged optimal, exact only: {args.games5_optimal} games in {seconds:.0f} s wall "
                      f"({seconds / args.games5_optimal:.1f} s/game)")
    print("| size | perfect play | " + " | ".join(f"`{p}`" for p in PLAYERS) + " |")
    print("| --- | --- |" + " --- |" * len(PLAYERS))
    for size, summary, judge, subs in rows:
        value = summary["optimal"]
        cells = [cell(summary["solvers"][p], subs.get(p, 0) if judge == "optimal" else None) for p in PLAYERS]
        print(f"| {size} | {value['value']} = {100 * value['win_rate']:.1f}% | " + " | ".join(cells) + " |")
    print()
    print("Where the lowest-probability rule loses against perfect play:")
    print()
    print("* " + lowest_loses("3x3x3\nHH1\nHHH\n1HH"))
    found = from_run(root / "4x4x4") if (root / "4x4x4").exists() else None
    if found:
        print("* " + lowest_loses(found))
    print()
    for line in timing:
        print(line)
    print(f"runs in {root}")


if __name__ == "__main__":
    main()
