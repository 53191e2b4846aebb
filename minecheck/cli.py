"""The ``minecheck`` command line: exit 0 when all agree, 1 when there are findings, 2 on bad input."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from minecheck.check.findings import REGRESSIONS
from minecheck.model.answers import Mode
from minecheck.model.boardtext import BoardFormatError, read_board_arg
from minecheck.playcli import add_parsers as add_play_parsers
from minecheck.running.discovery import FIXED_VARIANTS, LP_SOLVER_NAMES, SEED_VARIANTS, UnknownSolver, resolve
from minecheck.running.registry import REFERENCES, remember
from minecheck.running.sandbox import DEFAULT_MEMORY_MIB, Limits

# Each command imports what it uses when it runs (jinja2, rich, numpy, CBC, dask are heavy), so that
# `minecheck check` on a small board starts in a blink.
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (BoardFormatError, UnknownSolver, ValueError) as err:
        print(f"minecheck: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader went away (`minecheck ... | head`): end quietly, as cat does
        _quiet_stdout()
        return EXIT_OK


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


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
    check.add_argument("--timeout", type=float, default=60.0,
                       help="CPU seconds per solver before it is stopped (default 60)")
    check.add_argument("--memory", type=int, default=DEFAULT_MEMORY_MIB, metavar="MIB",
                       help=f"memory a solver may use before it is stopped (default {DEFAULT_MEMORY_MIB} MiB)")
    check.add_argument("--persistent", action="store_true",
                       help="run cmd: solvers in persistent mode: started once, one JSON request per line")
    check.add_argument("--json", action="store_true", help="print JSON keyed by solver name, plus findings")
    check.set_defaults(run=_check)

    fuzz = sub.add_parser("fuzz", help="cross-check many seeded boards; findings and a report in --out")
    fuzz.add_argument("--seed", type=int, required=True, help="the campaign seed: board i is made from (seed, i)")
    budget = fuzz.add_mutually_exclusive_group()
    budget.add_argument("--boards", type=int,
                        help="check boards 0 .. N-1 (one of --boards and --time-budget is needed, but for small:N, "
                             "which without them checks its whole sweep)")
    budget.add_argument("--time-budget", type=float, metavar="SECONDS", help="check boards until this much time passed")
    fuzz.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per core)")
    fuzz.add_argument("--scheduler", default=None, help="a dask.distributed scheduler address to run on instead")
    fuzz.add_argument("--out", type=Path, required=True, help="directory for findings, progress and the report")
    fuzz.add_argument("--solvers", default=",".join(SEED_VARIANTS + FIXED_VARIANTS),
                      help="solvers under test (default: every seed and fixed variant)")
    fuzz.add_argument("--references", default=",".join(REFERENCES), help="references beside them")
    fuzz.add_argument("--generator", default="mix",
                      help="mix (default), small:N (every board of at most N cells, N <= 8), swarm, edge, "
                           "contradict, reveal, stress, play:beginner, play:intermediate or play:expert")
    fuzz.add_argument("--timeout", type=float, default=10.0,
                      help="CPU seconds per solver per board before it is stopped (default 10): CPU time, not "
                           "wall-clock, so a busy machine stops the same solvers as a quiet one")
    fuzz.add_argument("--memory", type=int, default=DEFAULT_MEMORY_MIB, metavar="MIB",
                      help=f"memory a solver may use per board before it is stopped (default {DEFAULT_MEMORY_MIB})")
    fuzz.add_argument("--persistent", action="store_true",
                      help="run cmd: solvers in persistent mode: started once per worker, one JSON request per line")
    fuzz.add_argument("--resume", action="store_true", help="continue the campaign in --out, skipping boards done")
    fuzz.add_argument("--no-progress", action="store_true", help="no progress bar (for logs)")
    fuzz.add_argument("--no-report", action="store_true",
                      help="skip the HTML report (and shrinking, unless --save-regressions)")
    fuzz.add_argument("--shrink-per-signature", type=int, default=2,
                      help="findings shrunk and drawn in full per (kind, solver, mode) (default 2)")
    fuzz.add_argument("--save-regressions", type=Path, nargs="?", const=REGRESSIONS, default=None,
                      metavar="DIR", help=f"save each shrunk finding as a regression fixture (default DIR: "
                                          f"{REGRESSIONS}; timeout findings are not saved)")
    fuzz.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                      help="signatures already known (minecheck baseline --write): new ones are listed first, and "
                           "the exit code is 1 only when there is a new one")
    fuzz.set_defaults(run=_fuzz)

    base = sub.add_parser("baseline", help="write the signatures of a campaign's findings as a baseline file")
    base.add_argument("out", type=Path, help="the campaign directory (fuzz --out)")
    base.add_argument("--write", type=Path, required=True, metavar="FILE", help="the baseline file to write")
    base.add_argument("--merge", action="store_true", help="keep the signatures already in FILE as well")
    base.add_argument("--shrink-per-signature", type=int, default=2, help="as for fuzz (default 2)")
    base.set_defaults(run=_baseline)

    listing = sub.add_parser("solvers", help="list every solver minecheck can see: built-in, configured, installed")
    listing.add_argument("--json", action="store_true", help="print JSON, one object per solver")
    listing.set_defaults(run=_solvers)

    save = sub.add_parser("save-regression", help="shrink one finding of a campaign and save it as a regression")
    save.add_argument("out", type=Path, help="the campaign directory (fuzz --out)")
    save.add_argument("number", type=int, help="the finding's number, as on its report page finding-NNNNN.html")
    save.add_argument("--to", type=Path, default=REGRESSIONS, help=f"directory (default {REGRESSIONS})")
    save.set_defaults(run=_save_regression)
    add_play_parsers(sub)
    return parser


def _check(args: argparse.Namespace) -> int:
    from minecheck.check.crosscheck import GROUND_TRUTH, check_board, solver
    from minecheck.engine.counter import default_mode
    from minecheck.report.textview import as_json, findings_text, grid, side_by_side, summary

    board = read_board_arg(args.board)
    mode = Mode(args.mode) if args.mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("--mode global needs the total mine count: give the board a header WxHxM")
    subjects, references, definitions = _resolve(args)
    remember(definitions)
    for name in subjects + references:
        if name in LP_SOLVER_NAMES:
            continue  # checked on the board's LP relaxations, in any mode
        if mode not in solver(name).modes:
            raise ValueError(f"{name} does not support the {mode.value} mode")
    limits = Limits(cpu=args.timeout, memory_mib=args.memory)
    (checked,) = check_board(board, subjects, [mode], references, limits=limits)
    shown = [r for r in checked.results if r.solver in subjects + references] or list(checked.results)
    if args.json:
        data = {r.solver: as_json(board, r) for r in shown}
        data["findings"] = [json.loads(f.to_json()) for f in checked.findings]
        text = json.dumps(data, indent=2)
    else:
        parts = [*(summary(board, r) for r in shown), "", grid(board, checked.result(GROUND_TRUTH))]
        if len(shown) > 1:
            parts += ["", side_by_side(board, shown, {c for f in checked.findings for c in f.cells})]
        parts += ["", findings_text(board, checked.findings) if checked.findings else "all solvers agree"]
        text = "\n".join(parts)
    code = EXIT_FINDINGS if checked.findings else EXIT_OK
    try:
        print(text, flush=True)
    except BrokenPipeError:  # `minecheck check ... | head`: the reader has what it wanted; the code still tells
        _quiet_stdout()
    return code


def _fuzz(args: argparse.Namespace) -> int:
    from minecheck.campaigns.baseline import load as load_baseline
    from minecheck.campaigns.fuzz import Config, board_recipe, campaign_size, run_campaign
    from minecheck.campaigns.publish import publish, write_news
    from minecheck.campaigns.regressions import save_shrunk
    from minecheck.check.crosscheck import solver
    from minecheck.report.progress import progress_bar
    from minecheck.running.workqueue import executor

    started = time.perf_counter()
    subjects, references, definitions = _resolve(args)
    config = Config(args.seed, tuple(subjects), tuple(references), args.generator, args.timeout, args.memory,
                    definitions=definitions)
    remember(definitions)
    for name in config.subjects + config.references:
        if name not in LP_SOLVER_NAMES:
            solver(name)  # an unknown name is bad input before any work starts
    board_recipe(config, 0)  # so is an unknown generator
    size = campaign_size(config)
    boards = args.boards if size is None or args.boards is None else min(args.boards, size)
    if boards is None and args.time_budget is None:
        if size is None:
            raise ValueError(f"give --boards or --time-budget (only small:N has an end: {config.generator} has none)")
        boards = size
    known = load_baseline(args.baseline) if args.baseline else None  # and so is a bad baseline file
    earlier = _earlier_seconds(args.out) if args.resume else 0.0
    try:
        with progress_bar(boards, args.time_budget, disabled=args.no_progress) as update:
            progress = run_campaign(config, args.out, boards, args.time_budget, args.jobs, args.scheduler,
                                    args.resume, update)
    finally:  # even when interrupted, the time spent so far is kept for the report
        if (args.out / "campaign.json").exists():
            spent = earlier + time.perf_counter() - started
            (args.out / "summary.json").write_text(json.dumps({"seconds": round(spent, 3)}) + "\n")
    elapsed = time.perf_counter() - started
    print(f"{progress.boards} boards, {progress.findings} findings, {elapsed:.1f} s "
          f"({progress.boards / max(elapsed, 1e-9):.1f} boards/s); findings in {args.out / 'findings.jsonl'}")
    fresh = None
    if not args.no_report or args.save_regressions or known is not None:
        with executor(args.jobs or os.cpu_count() or 1, args.scheduler) as pool:
            if known is not None:
                fresh = write_news(args.out, args.shrink_per_signature, pool, known)
                print(f"{len(fresh)} new signature(s): not in {args.baseline}, and no known defect reproduces them"
                      + "".join(f"\n  new: {s.kind} {s.subject} ({s.mode})" for s in sorted(fresh)))
            if not args.no_report:
                index = publish(args.out, per_signature=args.shrink_per_signature, pool=pool)
                print(f"report: open {index.resolve()} in a browser")
            if args.save_regressions:
                saved = save_shrunk(args.out, args.save_regressions, args.shrink_per_signature, pool)
                print(f"{len(saved)} regression fixtures in {args.save_regressions}")
    if fresh is not None:
        return EXIT_FINDINGS if fresh else EXIT_OK
    return EXIT_FINDINGS if progress.findings else EXIT_OK


def _baseline(args: argparse.Namespace) -> int:
    from minecheck.campaigns.baseline import Baseline, from_campaign
    from minecheck.campaigns.baseline import load as load_baseline
    from minecheck.campaigns.publish import shrunk_boards
    from minecheck.running.workqueue import executor

    if not (args.out / "campaign.json").exists():
        raise ValueError(f"{args.out} holds no campaign (no campaign.json)")
    with executor(os.cpu_count() or 1, None) as pool:
        findings, boards = shrunk_boards(args.out, args.shrink_per_signature, pool)
    written = from_campaign(findings, boards)
    if args.merge and args.write.exists():
        written = Baseline(written.signatures | load_baseline(args.write).signatures)
    args.write.parent.mkdir(parents=True, exist_ok=True)
    args.write.write_text(written.to_json())
    print(f"{len(written.signatures)} signatures in {args.write}")
    return EXIT_OK


def _solvers(args: argparse.Namespace) -> int:
    """Every solver by name: where it comes from, what it answers, its modes (or why it cannot be made)."""
    from minecheck.running.discovery import named
    from minecheck.running.registry import build

    rows = []
    for name, definition in named().items():
        row = {"name": name, "origin": definition.origin, "target": definition.target}
        try:
            made = build(definition)
            row |= {"answers": sorted(a.value for a in made.answers), "modes": sorted(m.value for m in made.modes)}
            if getattr(made, "runs_own_process", False):
                row["persistent"] = definition.persistent
        except UnknownSolver as err:
            row["error"] = str(err)
        rows.append(row)
    rows += [{"name": n, "origin": "built-in", "target": "checked on LP relaxations and random LPs against cbc",
              "answers": ["lp"], "modes": ["local"]} for n in LP_SOLVER_NAMES]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        what = r.get("error") or f"{', '.join(r['answers'])}; modes {', '.join(r['modes'])}"
        print(f"{r['name']:<{width}}  {r['origin']:<28} {what}")
        if r["origin"] != "built-in":
            print(f"{'':<{width}}  {'':<28} {r['target']}" + (" (persistent)" if r.get("persistent") else ""))
    print("\nAlso: an import path (pkg.module:Thing), cmd:COMMAND (a program speaking the protocol), NAME=either.")
    return EXIT_OK


def _save_regression(args: argparse.Namespace) -> int:
    from minecheck.campaigns.regressions import save_numbered

    print(save_numbered(args.out, args.number, args.to))
    return EXIT_OK


def _earlier_seconds(out: Path) -> float:
    path = out / "summary.json"
    return json.loads(path.read_text())["seconds"] if path.exists() else 0.0


def _resolve(args: argparse.Namespace) -> tuple[list[str], list[str], tuple[str, ...]]:
    """Subjects and references as results name them, and how workers make those not built in."""
    def names(text: str) -> tuple[list[str], tuple[str, ...]]:
        given = _names(text)
        lp = [n for n in given if n in LP_SOLVER_NAMES]
        shown, definitions = resolve([n for n in given if n not in LP_SOLVER_NAMES], args.persistent)
        return list(shown) + lp, definitions

    subjects, own = names(args.solvers)
    references, theirs = names(args.references)
    return subjects, references, own + theirs


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


if __name__ == "__main__":
    sys.exit(main())
