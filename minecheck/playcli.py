"""The ``minecheck play`` and ``minecheck decide`` commands (cli.py adds them with ``add_parsers``).

play:   whole games, every player on the same deals, every decision cross-checked; the win-rate
        table in DIR/summary.json and the report in DIR/index.html.  Exit 1 when some decision
        was bad, 0 when none was, 2 on bad input.
decide: one player's decision on one board, judged by the exact counter (what a decision
        finding's page gives as its replay command).  Exit 1 when a move is bad.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from minecheck.model.errors import BadOption
from minecheck.options import Stopped, add_budget_options, add_verbosity, budget_of, chosen_seed, count, positive
from minecheck.play.game import FirstClick
from minecheck.play.players import player_names
from minecheck.report.progress import Progress
from minecheck.report.textview import printable
from minecheck.running.rundata import check_folder
from minecheck.running.runfolder import holding

# The commands import what they run when they run (rich, the campaign's executors, the counter and
# jinja2 are heavy), so that building the parser keeps every other command's start-up short.

EXIT_OK, EXIT_FINDINGS = 0, 1
DEFAULT_PLAYERS = "exact,ilp@fixed,dpll@fixed,gibbs@fixed,mineai@seed,mineai@fixed,satdemo@seed,satdemo@fixed"


def add_parsers(sub) -> None:
    """Add ``play`` and ``decide`` to the command line's subparsers."""
    play = sub.add_parser("play", help="play whole games with every solver; win rates, every decision checked")
    play.add_argument("--solvers", default=DEFAULT_PLAYERS,
                      help=f"comma-separated players: any solver name (played by the policy) or one of "
                           f"{', '.join(player_names())} (default: {DEFAULT_PLAYERS})")
    play.add_argument("--games", type=positive, required=True, help="play games 0 .. N-1 with each solver")
    play.add_argument("--size", default="beginner", help="beginner (default), intermediate, expert or WxHxM")
    play.add_argument("--first-click", default=FirstClick.SAFE_3X3.value, choices=[r.value for r in FirstClick],
                      help="cells kept clear of mines around the first click (default safe-3x3)")
    play.add_argument("--first-cell", default="centre",
                      help="where the first click is: centre (default, as both articles click) or ROW,COL")
    play.add_argument("--judge", default="probability", choices=["probability", "optimal"],
                      help="probability (default): each move against the exact counter; optimal: also each open "
                           "move's chance of winning under perfect play (the game-value oracle; small sizes only), "
                           "and summary.json gains the game's perfect-play value")
    play.add_argument("--seed", type=int, default=None,
                      help="the run's seed: game i is dealt from (seed, i) (default: the resumed run's, else a new "
                           "one, printed)")
    play.add_argument("--jobs", type=positive, default=None, help="worker processes (default: one per core)")
    play.add_argument("--scheduler", default=None, help="a dask.distributed scheduler address to run on instead")
    play.add_argument("--out", type=Path, required=True, help="directory for the games, findings and report")
    play.add_argument("--resume", action="store_true",
                      help="continue the run in --out (more games, or more solvers), skipping games played")
    play.add_argument("--overwrite", action="store_true",
                      help="replace the earlier run whose files are in --out (without it, such a folder is refused)")
    play.add_argument("--persistent", action="store_true",
                      help="run cmd: solvers in persistent mode: started once per worker, one JSON request per line")
    play.add_argument("--no-progress", action="store_true", help="no progress on stderr (as -q, but for the totals)")
    add_verbosity(play)
    play.add_argument("--no-report", action="store_true", help="skip the HTML report and the shrinking")
    play.add_argument("--shrink-per-flaw", type=count, default=1,
                      help="decision findings shrunk and drawn in full per solver and kind of bad move (default 1)")
    add_budget_options(play, "decision (a player past it loses the game)")
    play.set_defaults(run=_play, parser=play)

    decide = sub.add_parser("decide", help="one player's decision on a board, judged by the exact counter")
    decide.add_argument("board", help="a board with its total (WxHxM header), a file, '-' or rows joined by '/'")
    decide.add_argument("--player", required=True, help="a solver name or an article's player")
    decide.add_argument("--state", default=None, help="the player's state before the decision, as JSON "
                                                      "(from a decision finding; default: a new game's)")
    decide.add_argument("--judge", default="probability", choices=["probability", "optimal"],
                        help="optimal: also judge each open move by its chance of winning (small boards only)")
    add_budget_options(decide, "decision")
    decide.set_defaults(run=_decide, parser=decide)


def _names(text: str) -> tuple[str, ...]:
    from minecheck.running.discovery import split_names

    return tuple(split_names(text))


def _players(names: tuple[str, ...], persistent: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players as the run names them (``js=cmd:node solver.js`` is ``js``, as in fuzz), and how workers make
    the solvers among them that are not built in; the articles' players keep their names."""
    from minecheck.running.discovery import resolve

    shown, definitions = [], []
    for name in names:
        if name.partition(":")[0] in player_names():
            shown.append(name)
            continue
        (as_shown,), made = resolve([name], persistent)
        shown.append(as_shown)
        definitions += made
    return tuple(shown), tuple(dict.fromkeys(definitions))


def _play(args: argparse.Namespace) -> int:
    from minecheck.play.run import PlayConfig

    started = time.perf_counter()
    players, definitions = _players(_names(args.solvers), args.persistent)
    from minecheck.running.tables import check_grants

    check_grants(definitions, [("--out", args.out.resolve())])  # no solver may write the run's folder
    if args.resume:
        check_folder(args.out)  # every file it reads back, before any is used: bad input is exit 2, never 3
    args.seed = chosen_seed(args.seed, args.out / "play.json" if args.resume else None)
    config = PlayConfig(args.seed, players, args.size, args.first_click, budget_of(args), args.first_cell, definitions,
                        args.judge)
    config.validate()  # unknown names, sizes that do not hold their mines: exit 2 before any work
    with holding(args.out):  # one run per folder, from the first game to the last page of the report
        return _play_in(args, config, started)


def _play_in(args: argparse.Namespace, config, started: float) -> int:
    from minecheck.play.report import publish_play
    from minecheck.play.run import folder, run_play, write_summary
    from minecheck.running.workqueue import executor

    earlier = folder(args.out).earlier_seconds() if args.resume else 0.0
    total = args.games * len(config.players)
    try:
        with Progress("play", quiet=args.no_progress or args.quiet > 0) as shown:
            shown.phase("games", total)

            def update(record, progress) -> None:
                shown.update(progress.games, won=progress.wins, findings=progress.findings)
                if args.verbose and record.findings:
                    shown.note(f"game {record.index} of {record.player}: {len(record.findings)} bad decision(s)")

            progress = run_play(config, args.out, args.games, args.jobs, args.scheduler, args.resume, update,
                                overwrite=args.overwrite, warn=_warn)
    except KeyboardInterrupt:
        kept = f"the games played are kept in {args.out}; play --resume goes on from there" \
            if (args.out / "play.json").exists() else f"nothing written in {args.out}"
        raise Stopped(f"stopped while playing: {kept}") from None
    finally:
        if (args.out / "play.json").exists():
            write_summary(args.out, earlier + time.perf_counter() - started)
    summary = write_summary(args.out, earlier + time.perf_counter() - started)
    for name, row in summary["solvers"].items():
        lo, hi = row["ci95"]
        print(f"{name:>16}: {row['wins']}/{row['games']} won = {100 * row['win_rate']:.1f}% "
              f"(95% {100 * lo:.1f}-{100 * hi:.1f}), {row['games_per_s']:.2f} games/s, "
              f"{row['decision_findings']} bad decisions")
    print(f"summary in {args.out / 'summary.json'}")
    if not args.no_report:
        with executor(args.jobs or os.cpu_count() or 1, args.scheduler) as pool:
            index = publish_play(args.out, per_flaw=args.shrink_per_flaw, pool=pool)
        print(f"report: open {index.resolve()} in a browser")
    findings = sum(row["decision_findings"] for row in summary["solvers"].values())
    return EXIT_FINDINGS if findings or progress.findings else EXIT_OK


def _decide(args: argparse.Namespace) -> int:
    from minecheck.model.boardtext import read_board_arg
    from minecheck.play.decisions import answer_summary, explain, judge_with, why_move
    from minecheck.play.players import get_player
    from minecheck.running.discovery import require_runnable

    board = replace(read_board_arg(args.board), truth=None)  # the player never sees the hidden mines
    if board.total_mines is None:
        raise BadOption("a decision is judged in the global mode: give the board its total (a header WxHxM)")
    player = get_player(args.player)
    if getattr(player, "solver", None) is not None:
        require_runnable(player.solver)  # a program that is not there: exit 2, as for play
    state = json.loads(args.state) if args.state else player.start(0)
    decision = player.decide(board, state, budget_of(args))
    if decision.error:
        print(f"{args.player} failed: {decision.error}")
        return EXIT_FINDINGS
    bad: dict = {}
    for b in judge_with(board, decision.moves, args.judge):  # OracleLimit (a ValueError): exit 2
        bad.setdefault(b.move, []).append(b)
    print(f"{args.player}'s answer on this board: {answer_summary(decision.result)}")
    for move in decision.moves:
        verdict = "; ".join(f"BAD ({b.flaw.value}): {explain(board, b)}" for b in bad[move]) if move in bad \
            else "fine"
        print(f"{move.describe(board)}: {verdict}")
        print(f"    why: {why_move(board, move, decision.result)}")
    if not decision.moves:
        print(f"no move: {decision.note}")
    return EXIT_FINDINGS if bad else EXIT_OK


def _warn(message: str) -> None:
    print(f"minecheck: warning: {printable(message)}", file=sys.stderr)
