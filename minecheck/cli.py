"""The ``minecheck`` command line: check a board; exit 0 on success, 2 on bad input."""

from __future__ import annotations

import argparse
import json
import sys

from minecheck.answers import Mode
from minecheck.boardtext import BoardFormatError, read_board_arg
from minecheck.counter import default_mode
from minecheck.registry import UnknownSolver, get_solver, run_solver
from minecheck.textview import as_json, grid, side_by_side, summary

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (BoardFormatError, UnknownSolver, ValueError) as err:
        print(f"minecheck: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="minecheck", description=__doc__)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="answer a board with the chosen solvers")
    check.add_argument("board", help="a board file, '-' for stdin, or rows joined by '/' (e.g. HHH/121)")
    check.add_argument("--mode", choices=[m.value for m in Mode],
                       help="local: digits only; global: with the total (default: global when the board has M)")
    check.add_argument("--solvers", default="exact", help="comma-separated solver names (default: exact)")
    check.add_argument("--json", action="store_true", help="print JSON keyed by solver name")
    check.set_defaults(run=_check)
    return parser


def _check(args: argparse.Namespace) -> int:
    board = read_board_arg(args.board)
    mode = Mode(args.mode) if args.mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("--mode global needs the total mine count: give the board a header WxHxM")
    solvers = [get_solver(name.strip()) for name in args.solvers.split(",") if name.strip()]
    results = []
    for solver in solvers:
        if mode not in solver.modes:
            raise ValueError(f"{solver.name} does not support the {mode.value} mode")
        results.append(run_solver(solver, board, mode))
    if args.json:
        print(json.dumps({r.solver: as_json(board, r) for r in results}, indent=2))
        return EXIT_OK
    for r in results:
        print(summary(board, r))
    print()
    print(grid(board, results[0]))
    if len(results) > 1:
        print()
        print(side_by_side(board, results))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
