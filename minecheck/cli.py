"""The ``minecheck`` command line: exit 0 when all agree, 1 when there are findings, 2 on bad input."""

from __future__ import annotations

import argparse
import json
import sys

from minecheck.answers import Mode
from minecheck.boardtext import BoardFormatError, read_board_arg
from minecheck.counter import default_mode
from minecheck.crosscheck import GROUND_TRUTH, check_board, solver
from minecheck.lpcheck import LP_SOLVERS
from minecheck.registry import REFERENCES, UnknownSolver
from minecheck.textview import as_json, findings_text, grid, side_by_side, summary

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
    check.add_argument("--references", default=",".join(REFERENCES),
                       help=f"references run beside the solvers (default: {','.join(REFERENCES)})")
    check.add_argument("--timeout", type=float, default=60.0, help="seconds per solver before it is stopped")
    check.add_argument("--json", action="store_true", help="print JSON keyed by solver name, plus findings")
    check.set_defaults(run=_check)
    return parser


def _check(args: argparse.Namespace) -> int:
    board = read_board_arg(args.board)
    mode = Mode(args.mode) if args.mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("--mode global needs the total mine count: give the board a header WxHxM")
    subjects = _names(args.solvers)
    references = _names(args.references)
    for name in subjects + references:
        if name in LP_SOLVERS:
            continue  # checked on the board's LP relaxations, in any mode
        if mode not in solver(name).modes:
            raise ValueError(f"{name} does not support the {mode.value} mode")
    (checked,) = check_board(board, subjects, [mode], references, timeout=args.timeout)
    shown = [r for r in checked.results if r.solver in subjects + references] or list(checked.results)
    if args.json:
        data = {r.solver: as_json(board, r) for r in shown}
        data["findings"] = [json.loads(f.to_json()) for f in checked.findings]
        print(json.dumps(data, indent=2))
    else:
        for r in shown:
            print(summary(board, r))
        print()
        print(grid(board, checked.result(GROUND_TRUTH)))
        if len(shown) > 1:
            print()
            print(side_by_side(board, shown, {c for f in checked.findings for c in f.cells}))
        print()
        print(findings_text(board, checked.findings) if checked.findings else "all solvers agree")
    return EXIT_FINDINGS if checked.findings else EXIT_OK


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


if __name__ == "__main__":
    sys.exit(main())
