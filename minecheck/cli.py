"""The minecheck command line.

Exit codes: 0 when everything agrees, 1 when there are findings, 2 on bad input (a board that does not
parse, an unknown name, a solver that cannot run here), before any work starts, 3 on minecheck's own fault,
4 when the run was disturbed (its folder changed under it, a full disk), 130 when stopped by Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# Each command imports what it uses when it runs (jinja2, rich, numpy, CBC, dask are heavy), so that
# `minecheck check` on a small board starts in a blink and `minecheck solvers` answers at once.
from minecheck.boards.generators import GENERATORS, LEVELS
from minecheck.campaigns.shrink_limits import PER_SIGNATURE, SHRINK_CALLS, SHRINK_CAP, SHRINK_PATIENCE
from minecheck.check.findings import REGRESSIONS
from minecheck.model.answers import Mode
from minecheck.model.boardtext import read_board_arg
from minecheck.model.errors import (
    BadFile,
    BadInput,
    BadOption,
    FolderRefused,
    MinecheckError,
    RunDisturbed,
    UnknownSolver,
)
from minecheck.model.numbers import lift_digit_limit
from minecheck.options import (
    CommandParser,
    Stopped,
    add_budget_options,
    add_verbosity,
    budget_of,
    chosen_seed,
    count,
    positive,
    seconds,
)
from minecheck.playcli import add_parsers as add_play_parsers
from minecheck.report.textview import printable
from minecheck.running.catalogue import GROUND_TRUTH, LP_SOLVERS, REFERENCES, SUBJECTS, is_lp_solver
from minecheck.running.discovery import remember, replay_names, require_runnable, resolve, suggest
from minecheck.running.rundata import check_folder, check_value, loads
from minecheck.running.runfolder import SUMMARY, holding, refuse_foreign, write_json, write_text
from minecheck.running.tables import check_grants

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_DISTURBED = 0, 1, 2, 3, 4
EXIT_STOPPED = 130  # Ctrl-C, as a shell counts SIGINT
SHRINK_SECONDS = 120.0  # CPU seconds `minecheck shrink` spends on one disagreement at most
DESCRIPTION = "Checks Minesweeper solvers against exact references, shrinks each disagreement to a small board."
EPILOG = """exit codes: 0 everything agrees, 1 findings, 2 bad input (before any work), 3 minecheck's own fault,
  4 the run was disturbed (its folder changed under it, a full disk), 130 stopped by Ctrl-C

examples:
  minecheck check 3x2/HHH/121 --solvers mypkg.mysolver:solve
  minecheck shrink big.mine --solvers mypkg.mysolver:solve
  minecheck fuzz --seed 1 --boards 40 --solvers 'js=cmd:node solver.js' --out reports/js
  minecheck play --solvers exact --games 20 --seed 1 --out reports/play

"minecheck COMMAND --help" tells more; the README and docs/ tell the rest."""


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # a bare `minecheck`: what it can do, rather than "required: COMMAND"; still not a run
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    args, extras = parser.parse_known_args(argv)
    lift_digit_limit()  # counts of any length printed and written (model/numbers.py says why)
    if extras:  # reported by the command they were given to, with its usage and "did you mean"
        args.parser.unrecognized(extras)
    try:
        return args.run(args)
    except RunDisturbed as err:  # the run's own files changed under it, or a full disk: not the input's fault
        print(f"minecheck: {printable(str(err))}", file=sys.stderr)
        return EXIT_DISTURBED
    except BadInput as err:  # the user's: a board, a name, an option, a file or folder (never a ValueError of ours)
        print(f"minecheck: {printable(str(err))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader went away (`minecheck ... | head`): end quietly, as cat does
        _quiet_stdout()
        return EXIT_OK
    except OSError as err:  # a file or folder that cannot be read or written: a full disk, a missing path, ...
        where = f"{err.filename}: " if err.filename else ""
        print(f"minecheck: {where}{err.strerror or err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Stopped as err:  # Ctrl-C, where the command knows what it leaves behind
        print(f"minecheck: {err}", file=sys.stderr)
        return EXIT_STOPPED
    except KeyboardInterrupt:  # Ctrl-C anywhere else: a command that writes nothing until it ends
        print(f"minecheck: stopped by Ctrl-C; {args.parser.prog.split()[-1]} wrote nothing", file=sys.stderr)
        return EXIT_STOPPED
    except Exception as err:  # noqa: BLE001 - minecheck never shows a traceback; this is its own fault
        print(f"minecheck: internal error ({type(err).__name__}: {printable(str(err))[:300]}); please report it "
              "with the command that caused it", file=sys.stderr)
        return EXIT_INTERNAL


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _Version(argparse.Action):
    """--version, looked up only when asked (importlib.metadata reads every installed package)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"minecheck {version()} (Python {sys.version.split()[0]})")
        parser.exit()


def version() -> str:
    import minecheck

    return minecheck.__version__


def generator_forms() -> str:
    """Every value --generator takes, as the help and the error for an unknown one both list them."""
    forms = ["mix (the default blend)"]
    for name in GENERATORS:
        if name == "play":
            forms += [f"play:{level}" for level in LEVELS]
        else:
            forms.append("small:N (every board of at most N cells, N <= 8)" if name == "small" else name)
    return ", ".join(forms)


def check_generator(generator: str) -> None:
    """An unknown --generator is bad input, with every known one and the nearest."""
    name, _, level = generator.partition(":")
    if generator == "mix" or (name in GENERATORS and (name != "play" or level in LEVELS or not level)):
        return
    known = ["mix", *GENERATORS, *(f"play:{lv}" for lv in LEVELS), "small:5"]
    raise BadOption(f"unknown generator {generator!r}{suggest(generator, known)}; known: {generator_forms()}")


JUDGE_UNDECLARED = ("make a crash, timeout or broken answer a finding even on a board the solver does not judge (an "
                    "impossible board, for a solver that does not declare consistency)")


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="minecheck", description=DESCRIPTION, epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, help="print minecheck's version and exit")
    sub = parser.add_subparsers(required=True, metavar="COMMAND", title="commands")
    check = sub.add_parser("check", help="answer a board with the chosen solvers and compare them")
    check.add_argument("board", help="a board file, '-' for stdin, or rows joined by '/' (e.g. HHH/121)")
    check.add_argument("--mode", choices=[m.value for m in Mode],
                       help="local: digits only; global: with the total (default: global when the board has M)")
    check.add_argument("--solvers", default=GROUND_TRUTH,
                       help=f"comma-separated solver names (default: {GROUND_TRUTH})")
    check.add_argument("--references", default=",".join(REFERENCES),
                       help=f"references run beside the solvers (default: {','.join(REFERENCES)})")
    check.add_argument("--persistent", action="store_true",
                       help="run cmd: solvers in persistent mode: started once, one JSON request per line")
    check.add_argument("--json", action="store_true", help="print JSON keyed by solver name, plus findings")
    check.add_argument("--lp", action="store_true",
                       help="the argument is an LP as a report prints it ('min +3 x0 -2 x1 / +1 x0 +1 x1 = 4 / x >= 0'"
                            ", or a file of it), solved by the --solvers simplex variants and by CBC")
    check.add_argument("--certify", action="store_true",
                       help="certify every verdict of each reference (a layout, or a DRUP proof checked by dratify)")
    check.add_argument("--judge-undeclared", action="store_true", help=JUDGE_UNDECLARED)
    add_budget_options(check)
    check.set_defaults(run=_check, parser=check)

    shrink = sub.add_parser("shrink", help="shrink every disagreement on a board of your own to a small board")
    shrink.add_argument("board", help="a board file, '-' for stdin, or rows joined by '/' (e.g. HHH/121)")
    shrink.add_argument("--solvers", required=True, help="the solver(s) under test, comma-separated")
    shrink.add_argument("--references", default=GROUND_TRUTH,
                        help=f"references to compare with (default: {GROUND_TRUTH})")
    shrink.add_argument("--mode", choices=[m.value for m in Mode],
                        help="local or global (default: every mode the board allows and the solver answers)")
    shrink.add_argument("--shrink-time", type=seconds, default=SHRINK_SECONDS, metavar="SECONDS",
                        help=f"CPU seconds spent shrinking each disagreement at most (default {SHRINK_SECONDS:g})")
    shrink.add_argument("--persistent", action="store_true",
                        help="run cmd: solvers in persistent mode: started once, one JSON request per line")
    shrink.add_argument("--pages", type=Path, default=None, metavar="DIR",
                        help="where the findings' HTML pages go (default: $MINECHECK_PAGES, else .minecheck/findings)")
    shrink.add_argument("--json", action="store_true",
                        help="print one JSON object per finding, its shrunk board text under \"board\"")
    shrink.add_argument("--judge-undeclared", action="store_true", help=JUDGE_UNDECLARED)
    add_budget_options(shrink, "solver call, on the board and on every smaller board tried")
    shrink.set_defaults(run=_shrink, parser=shrink)

    fuzz = sub.add_parser("fuzz", help="cross-check many seeded boards; findings and a report in --out")
    fuzz.add_argument("--seed", type=int, default=None,
                      help="the campaign seed: board i is made from (seed, i) (default: the resumed run's, else a new "
                           "one, printed)")
    how_long = fuzz.add_mutually_exclusive_group()
    how_long.add_argument("--boards", type=positive,
                        help="check boards 0 .. N-1 (one of --boards and --time-budget is needed, but for small:N, "
                             "which without them checks its whole sweep)")
    how_long.add_argument("--time-budget", type=seconds, metavar="SECONDS",
                        help="check boards until this much time passed")
    fuzz.add_argument("--jobs", type=positive, default=None, help="worker processes (default: one per core)")
    fuzz.add_argument("--scheduler", default=None, help="a dask.distributed scheduler address to run on instead")
    fuzz.add_argument("--out", type=Path, required=True, help="directory for findings, progress and the report")
    fuzz.add_argument("--solvers", default=",".join(SUBJECTS),
                      help="solvers under test (default: every seed and fixed variant)")
    fuzz.add_argument("--references", default=",".join(REFERENCES), help="references beside them")
    fuzz.add_argument("--generator", default="mix", help=f"the boards: {generator_forms()}")
    fuzz.add_argument("--persistent", action="store_true",
                      help="run cmd: solvers in persistent mode: started once per worker, one JSON request per line")
    fuzz.add_argument("--resume", action="store_true", help="continue the campaign in --out, skipping boards done")
    fuzz.add_argument("--overwrite", action="store_true",
                      help="replace the earlier run whose files are in --out (without it, such a folder is refused)")
    fuzz.add_argument("--no-progress", action="store_true", help="no progress on stderr (as -q, but for the totals)")
    add_verbosity(fuzz)
    fuzz.add_argument("--no-report", action="store_true",
                      help="skip the HTML report (and shrinking, unless --save-regressions)")
    fuzz.add_argument("--shrink-time", type=seconds, default=SHRINK_CAP, metavar="SECONDS",
                      help=f"CPU seconds one finding's shrink may take at most (default {SHRINK_CAP:g}; it goes on "
                           f"while a smaller board comes within {SHRINK_PATIENCE:g} times the last one's check, "
                           f"{SHRINK_CALLS} checks at most)")
    fuzz.add_argument("--shrink-timeouts", action="store_true",
                      help="shrink timeout findings too, after the others (each board tried costs the whole budget)")
    fuzz.add_argument("-x", "--exitfirst", action="store_true",
                      help="start no new board once a finding is found (it is still shrunk and reported)")
    fuzz.add_argument("--json", action="store_true",
                      help="print the run's totals as one JSON object (as in summary.json) instead of lines of text")
    fuzz.add_argument("--shrink-per-signature", type=count, default=PER_SIGNATURE,
                      help=f"findings shrunk and drawn in full per bug (its solver and fingerprint) "
                           f"(default {PER_SIGNATURE})")
    fuzz.add_argument("--save-regressions", type=Path, nargs="?", const=REGRESSIONS, default=None,
                      metavar="DIR", help=f"save each shrunk finding as a regression fixture (default DIR: "
                                          f"{REGRESSIONS}; timeout findings are not saved)")
    fuzz.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                      help="bugs already known (minecheck baseline --write): new ones are listed first, and "
                           "the exit code is 1 only when there is a new one")
    fuzz.add_argument("--judge-undeclared", action="store_true", help=JUDGE_UNDECLARED)
    fuzz.add_argument("--no-search", action="store_true",
                      help="the default mix's search slots keep their walk boards (no boards changed from those a "
                           "subject came closest to being wrong on)")
    fuzz.add_argument("--certify", action="store_true",
                      help="certify every reference answer of every board, not only those behind a finding "
                           "(certificates.jsonl)")
    add_budget_options(fuzz, "solver on each board")
    fuzz.set_defaults(run=_fuzz, parser=fuzz)

    verify = sub.add_parser("verify", help="check every certificate of a campaign again, with the independent "
                                           "checker (exit 1 if one fails)")
    verify.add_argument("out", type=Path, help="the campaign directory (fuzz --out)")
    verify.add_argument("--json", action="store_true", help="print the totals and every problem as one JSON object")
    verify.add_argument("--export", type=Path, metavar="DIR",
                        help="also write each refutation as DIR/proof-DIGEST.cnf (plain DIMACS) and .drat (its "
                             "proof), each count certificate as DIR/count-DIGEST.json with check_counts.py, its "
                             "standalone checker, and a README: how to check them all (DIR new or empty)")
    verify.set_defaults(run=_verify, parser=verify)

    base = sub.add_parser("baseline", help="write the bugs of a campaign's findings as a baseline file")
    base.add_argument("out", type=Path, help="the campaign directory (fuzz --out)")
    base.add_argument("--write", type=Path, required=True, metavar="FILE", help="the baseline file to write")
    base.add_argument("--merge", action="store_true", help="keep the bugs (and signatures) already in FILE as well")
    base.add_argument("--force", action="store_true", help="replace FILE even if it is not a baseline")
    base.add_argument("--shrink-per-signature", type=count, default=PER_SIGNATURE,
                      help=f"as for fuzz (default {PER_SIGNATURE})")
    base.set_defaults(run=_baseline, parser=base)

    listing = sub.add_parser("solvers", help="list every solver minecheck can see: built-in, configured, installed")
    listing.add_argument("--json", action="store_true", help="print JSON, one object per solver")
    listing.set_defaults(run=_solvers, parser=listing)

    save = sub.add_parser("save-regression", help="shrink one finding of a campaign and save it as a regression")
    save.add_argument("out", type=Path, help="the campaign directory (fuzz --out)")
    save.add_argument("number", type=int, help="the finding's number, as on its report page finding-NNNNN.html")
    save.add_argument("--to", type=Path, default=REGRESSIONS, help=f"directory (default {REGRESSIONS})")
    save.add_argument("--force", action="store_true", help="replace a file there even if it is not a regression")
    save.set_defaults(run=_save_regression, parser=save)
    add_play_parsers(sub)
    return parser


def _check(args: argparse.Namespace) -> int:
    from minecheck.check.crosscheck import check_board, not_comparable_text, solver
    from minecheck.engine.counter import default_mode
    from minecheck.model.board import label
    from minecheck.report.textview import as_json, findings_text, grid, side_by_side, summary

    if args.lp:
        return _check_lp(args)
    board = read_board_arg(args.board)
    mode = Mode(args.mode) if args.mode else default_mode(board)
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise BadOption("--mode global needs the total mine count: give the board a header WxHxM")
    subjects, references, definitions = _resolve(args)
    remember(definitions)
    _ready(subjects + references)
    for name in subjects + references:
        if is_lp_solver(name):
            continue  # checked on the board's LP relaxations, in any mode
        if mode not in solver(name).modes:
            raise BadOption(f"{name} does not support the {mode.value} mode")
    (checked,) = check_board(board, subjects, [mode], references, budget=budget_of(args),
                             judge_undeclared=args.judge_undeclared)
    shown = [r for r in checked.results if r.solver in subjects + references] or list(checked.results)
    if args.json:
        data = {r.solver: as_json(board, r) for r in shown}
        data["findings"] = [json.loads(f.to_json()) for f in checked.findings]
        data["not_judged"] = dict(checked.not_judged)
        data["not_comparable"] = {name: [{"cells": [label(board, c) for c in cells], "why": why}
                                         for n, cells, why in checked.not_comparable if n == name]
                                  for name in dict.fromkeys(n for n, _, _ in checked.not_comparable)}
        text = json.dumps(data, indent=2)
    else:
        parts = [*(summary(board, r) for r in shown), "", grid(board, checked.result(GROUND_TRUTH))]
        if len(shown) > 1:
            parts += ["", side_by_side(board, shown, {c for f in checked.findings for c in f.cells})]
        parts += ["", findings_text(board, checked.findings) if checked.findings else "all solvers agree"]
        parts += [f"not judged: {name}: {why}" for name, why in checked.not_judged]
        parts += [f"not comparable: {name}: {not_comparable_text(board, cells, why)}"
                  for name, cells, why in checked.not_comparable]
        text = "\n".join(parts)
    code = EXIT_FINDINGS if checked.findings else EXIT_OK
    if args.certify:
        made, certified = _certified_text(checked, references, bool(args.json), budget_of(args))
        text += "\n" + certified
        if any(c.certification.wrong or c.problems for c in made):  # a reference proved wrong is a finding
            code = EXIT_FINDINGS
    try:
        print(printable(text), flush=True)
    except BrokenPipeError:  # `minecheck check ... | head`: the reader has what it wanted; the code still tells
        _quiet_stdout()
    return code


def _check_lp(args: argparse.Namespace) -> int:
    """``check --lp``: one general LP (a random LP finding's replay) solved by each simplex variant and by CBC."""
    from minecheck.check.lpcheck import REFERENCE, check_lp, describe_lp, read_lp
    from minecheck.report.textview import findings_text

    path = Path(args.board)
    lp = read_lp(path.read_text(encoding="utf-8", errors="replace") if path.is_file() else args.board)
    names = _names(args.solvers)
    wrong = [n for n in names if not is_lp_solver(n)]
    if wrong:
        raise BadOption(f"--lp is solved by the simplex solvers only ({', '.join(LP_SOLVERS)}), not {', '.join(wrong)}")
    findings = check_lp(lp, names, describe_lp(lp))
    if args.json:
        print(json.dumps({"findings": [json.loads(f.to_json()) for f in findings]}, indent=2))
    else:
        print(describe_lp(lp))
        print(findings_text(None, findings) if findings else f"{', '.join(names)} and {REFERENCE} agree")
    return EXIT_FINDINGS if findings else EXIT_OK


def _certified_text(checked, references: list[str], as_json: bool, budget) -> tuple[list, str]:
    """``check --certify``: each reference's answer certified claim by claim and checked again, and its text."""
    from minecheck.check.certified import certify_checks

    made = certify_checks([checked], None, tuple(references), budget)
    if as_json:
        return made, json.dumps({"certificates": [json.loads(c.line()) for c in made]}, indent=2)
    from minecheck.check.certified import count_words

    lines = []
    for c in made:
        cert = c.certification
        proofs = len(cert.refutations)
        claims = cert.claims
        state = ("certified" if cert.certified else f"proved WRONG about {', '.join(cert.wrong)}" if cert.wrong
                 else "not certified (" + ", ".join(k for k, v in claims.items() if v != "proved")
                 + f" not proved{': ' + cert.declined if cert.declined else ''})")
        counts = (f"{_n(len(cert.cells), 'verdict')}, {_n(len(cert.witnesses), 'layout')}, "
                  f"{_n(proofs, 'refutation')} of {_n(c.steps, 'step')} in all")
        lines.append(f"certificate: {cert.reference} ({cert.mode.value}) {state}: {counts}, "
                     + ("checked by " + c.checker if not c.problems else "CHECK FAILED: " + "; ".join(c.problems)))
        if cert.count is not None:
            lines.append(f"  {count_words(cert)}")
    return made, "\n".join(lines) or "certificate: no reference answer to certify"


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _verify(args: argparse.Namespace) -> int:
    """Check every certificate of a run again (certificates.jsonl and the shrunk boards' own), and that none is lost."""
    from minecheck.campaigns.fuzz import stored_budget
    from minecheck.campaigns.shrinking import read_shrunk
    from minecheck.certify.certificates import from_json
    from minecheck.certify.export import export
    from minecheck.check.certified import (
        answers_by_line,
        claims_tally,
        read_certificates,
        run_gaps,
        second_counted_again,
        tally_words,
        unproved,
    )
    from minecheck.running.sandbox import run as run_sandboxed

    if not (args.out / "campaign.json").is_file():
        raise BadFile(f"{args.out}: not a campaign folder (no campaign.json)")
    check_folder(args.out)  # a line without its mode, or 200,000 levels deep, is bad input (exit 2)
    rows = read_certificates(args.out)
    shrunk = read_shrunk(args.out)
    gaps = run_gaps(args.out, rows, shrunk)
    kept = answers_by_line(args.out)
    answers = [kept.get((r.get("index"), r.get("mode"), r.get("reference"))) for r in rows]
    labels = [f"board {r.get('index')}" for r in rows]
    for e in shrunk.values():  # a shrunk board's lines, beside the answers on that board
        theirs = {(a.get("mode"), a.get("solver")): a for a in e.get("answers", ())}
        for line in e.get("certificates", ()):
            where = f"{args.out / 'shrunk.jsonl'} (the certificates of shrink {e['key']})"
            rows.append(loads(line, where))
            check_value(rows[-1], "certificate", where)
            answers.append(theirs.get((rows[-1].get("mode"), rows[-1].get("reference"))))
            labels.append(f"the shrunk board of {e['key']}")
    failed, unsure, claims = [], [], []
    budget, checker = stored_budget(args.out), _Verifier()
    for row, answer, label in zip(rows, answers, labels):  # each under the campaign's budget of a solver call
        outcome = run_sandboxed(checker, "problems", (row, answer), budget)
        problems = outcome.value if outcome.error is None else (f"not checked: {outcome.error}",)
        cert = from_json(row["certification"]) if outcome.error is None else None
        wrong, dropped = ([], []) if cert is None else second_counted_again(cert, budget)  # the second counter
        problems = tuple(problems) + tuple(wrong)
        where = {"line": label, "mode": row["mode"], "reference": row["reference"]}
        if problems:
            failed.append(where | {"problems": list(problems)})
        elif cert is not None:
            claims.append(cert.claims)
            if unproved(cert):
                unsure.append(where | {"unproved": unproved(cert) + dropped})
    exported = None
    if args.export is not None:
        readable = []
        for row, label in zip(rows, labels):
            try:
                readable.append((label, from_json(row["certification"])))
            except ValueError:
                continue  # a line that cannot be read has failed above, naming why: nothing of it to export
        exported = export(readable, args.export)
    proved = claims_tally(claims)
    tally = f"; claims of those that hold: {tally_words(proved)}" if proved else ""
    if args.json:
        print(json.dumps({"certificates": len(rows), "failed": failed, "missing": gaps, "unproved": unsure,
                          "claims": proved, "exported": None if exported is None else {
                              "refutations": exported.pairs, "counts": exported.counts, "files": exported.files,
                              "skipped": list(exported.skipped)}}, indent=2))
    else:
        for f in failed:
            print(f"{f['line']} {f['mode']} {f['reference']}: " + "; ".join(f["problems"]))
        for u in unsure:
            print(f"not proved: {u['line']} {u['mode']} {u['reference']}: " + "; ".join(u["unproved"]))
        for gap in gaps:
            print(f"missing: {gap}")
        print(f"{len(rows)} certificates checked again, {len(failed)} failed, {len(gaps)} missing, "
              f"{len(unsure)} with a claim not proved{tally}")
        if exported is not None:
            print(f"exported to {args.export}: {exported.pairs} refutations ({2 * exported.pairs} files), "
                  f"{exported.counts} count certificates, check_counts.py and README.md: {exported.files} files"
                  + (f"; {len(exported.skipped)} refutations not written: " + "; ".join(exported.skipped)
                     if exported.skipped else ""))
    return EXIT_FINDINGS if failed or gaps else EXIT_OK


class _Verifier:
    """verify_line as a sandboxed call (running.sandbox), so that it runs under a Budget as a solver does."""

    def problems(self, row: dict, answer: dict | None) -> tuple[str, ...]:
        from minecheck.check.certified import verify_line

        return verify_line(row, answer)


def _shrink(args: argparse.Namespace) -> int:
    """Check a board of one's own, shrink every disagreement on it, print the shrunk boards, write their pages."""
    from minecheck.check.crosscheck import check_board, modes_for, solver
    from minecheck.report.findingpage import pages_folder
    from minecheck.report.progress import Progress

    board = read_board_arg(args.board)
    subjects, references, definitions = _resolve(args)
    remember(definitions)
    _ready(subjects + references)
    if args.mode:
        modes = [Mode(args.mode)]
        if modes[0] is Mode.GLOBAL and board.total_mines is None:
            raise BadOption("--mode global needs the total mine count: give the board a header WxHxM")
    else:
        answered = set.intersection(*(set(solver(n).modes) for n in subjects if not is_lp_solver(n))) \
            if any(not is_lp_solver(n) for n in subjects) else set(Mode)
        modes = [m for m in modes_for(board) if m in answered]
        if not modes:
            raise BadOption(f"{', '.join(subjects)} answer(s) no mode this board allows (a board without a total "
                             "allows the local mode only)")
    budget = budget_of(args)
    folder = args.pages or pages_folder(None)
    pages: list[Path] = []
    try:
        with Progress("shrink", quiet=args.json) as shown:  # on stderr, as fuzz's: a long shrink is not silent
            shown.phase("checking the board", 1)
            checks = check_board(board, subjects, modes, references, budget=budget,
                                 judge_undeclared=args.judge_undeclared)
            findings = [f for c in checks for f in c.findings]
            shown.update(1, findings=len(findings))
            shown.phase("shrinking", len(findings))
            for number, finding in enumerate(findings, 1):
                pages.append(_shrink_one(args, finding, number, findings, board, checks, references, budget,
                                         folder, definitions, shown))
                shown.update(number)
    except KeyboardInterrupt:
        kept = f"the pages of {_n(len(pages), 'finding')} are in {folder}" if pages else "no page written"
        raise Stopped(f"stopped while {shown.name}: {kept}") from None
    if not findings:
        print(f"all agree on this {board.width}x{board.height} board in the {' and '.join(m.value for m in modes)} "
              "mode: nothing to shrink")
        return EXIT_OK
    return EXIT_FINDINGS


def _shrink_one(args, finding, number: int, findings: list, board, checks, references, budget, folder: Path,
                definitions, shown) -> Path:
    """Shrink one finding of ``minecheck shrink`` (its checks counted on the progress line), write its page and
    print it; the page's path."""
    from minecheck.check.findings import Kind
    from minecheck.check.shrink import has_board, shrink, still_shows
    from minecheck.model.boardtext import format_board
    from minecheck.report.findingpage import write_page
    from minecheck.report.pages import replay_command
    from minecheck.report.textview import findings_text

    shown.update(number - 1, checks=0)
    shrunk = None
    if finding.kind is not Kind.TIMEOUT and has_board(finding):
        shows, calls = still_shows(finding, budget, judge_undeclared=args.judge_undeclared), [0]

        def counted(candidate, origin):
            calls[0] += 1
            shown.update(number - 1, checks=calls[0])
            return shows(candidate, origin)

        shrunk = shrink(finding, budget, seconds=args.shrink_time, predicate=counted,
                        judge_undeclared=args.judge_undeclared)
    page = write_page(finding, shrunk, board, checks, None, references, budget, folder, replay_names(definitions))
    found = shrunk.finding if shrunk else finding
    small = shrunk.board if shrunk else board
    if args.json:
        data = json.loads(found.to_json()) | {"original_board": finding.board, "page": str(page)}
        if shrunk:
            data["shrink"] = {"calls": shrunk.stats.calls, "cells_before": shrunk.stats.cells_before,
                              "cells_after": shrunk.stats.cells_after, "cut_short": shrunk.stats.cut_short}
        print(json.dumps(data, sort_keys=True), flush=True)
        return page
    if shrunk is None:
        how = "not shrunk (a timeout takes its whole budget on every board tried)"
    else:
        st = shrunk.stats
        how = (f"{st.cells_before} cells shrunk to {st.cells_after} in {st.calls} checks"
               + (", cut short by --shrink-time" if st.cut_short else ""))
    print(f"finding {number} of {len(findings)}: {how}")
    print(findings_text(small, [found]).split("\n", 1)[1])
    print("\n".join("    " + row for row in format_board(small).splitlines()))
    print(f"    replay: {replay_command(found, format_board(small), replay_names(definitions))}")
    print(f"    page:   {page}\n", flush=True)
    return page


def _fuzz(args: argparse.Namespace) -> int:
    from minecheck.campaigns.baseline import load as load_baseline
    from minecheck.campaigns.fuzz import Config, board_recipe, campaign_size

    started = time.perf_counter()
    subjects, references, definitions = _resolve(args)
    if args.resume:
        check_folder(args.out)  # every file it reads back, before any is used: bad input is exit 2, never 3
    args.seed = chosen_seed(args.seed, args.out / "campaign.json" if args.resume else None)
    config = Config(args.seed, tuple(subjects), tuple(references), args.generator, budget_of(args),
                    definitions=definitions, certify=args.certify, judge_undeclared=args.judge_undeclared,
                    search=not args.no_search)
    remember(definitions)
    _ready(config.subjects + config.references)  # an unknown name, or a solver that cannot run: before any work
    check_generator(args.generator)  # so is an unknown generator
    board_recipe(config, 0)
    size = campaign_size(config)
    boards = args.boards if size is None or args.boards is None else min(args.boards, size)
    if boards is None and args.time_budget is None:
        if size is None:
            raise BadOption(f"give --boards or --time-budget (only small:N has an end: {config.generator} has none)")
        boards = size
    args.boards = boards
    known = load_baseline(args.baseline) if args.baseline else None  # and so is a bad baseline file
    with holding(args.out):  # one run per folder, from the first file written to the last page of the report
        return _fuzz_in(args, config, known, started)


def _fuzz_in(args: argparse.Namespace, config, known, started: float) -> int:
    from minecheck.campaigns.campaign import Shrinking, run_campaign
    from minecheck.campaigns.fuzz import folder
    from minecheck.campaigns.publish import Report, write_news
    from minecheck.campaigns.regressions import save_shrunk
    from minecheck.campaigns.summary import campaign_totals
    from minecheck.report.progress import Progress
    from minecheck.running.workqueue import executor

    earlier = folder(args.out).earlier_seconds() if args.resume else 0.0
    report = not args.no_report
    shrinking = Shrinking(args.shrink_per_signature, args.shrink_time, args.shrink_timeouts) \
        if report or args.save_regressions or known is not None else None
    phases: dict[str, float] = {}
    quiet = args.no_progress or args.quiet > 0 or args.json
    refused = False
    try:
        with Progress("fuzz", quiet=quiet) as shown:
            mark = {"phase": "boards", "at": time.perf_counter(), "last": None}

            def begun() -> None:  # the folder is taken: a refused run draws no progress
                shown.phase("boards", args.boards)
                mark["at"] = time.perf_counter()

            def moved_on(progress) -> None:
                if progress.phase != mark["phase"]:
                    phases[mark["phase"]] = round(time.perf_counter() - mark["at"], 3)
                    mark.update(phase=progress.phase, at=time.perf_counter())
                    if progress.phase != "done":  # the totals line says the rest
                        shown.phase(progress.phase, progress.shrinks if progress.phase == "shrinking" else None)

            def update(outcome, progress) -> None:
                mark["last"] = progress
                moved_on(progress)
                shown.update(progress.boards, findings=progress.findings,
                             shrunk=f"{progress.shrunk}/{progress.shrinks}")
                if args.verbose:
                    for f in outcome.findings:
                        shown.note(f"board {outcome.index}: {f.kind.value} {f.subject} vs {f.reference} "
                                   f"({f.mode.value})")

            def shrunk(entry, progress) -> None:
                mark["last"] = progress
                moved_on(progress)
                if progress.phase == "shrinking":
                    shown.update(progress.shrunk, findings=progress.findings)
                else:
                    shown.update(progress.boards, findings=progress.findings,
                                 shrunk=f"{progress.shrunk}/{progress.shrinks}")
                if args.verbose and "stats" in entry:
                    st = entry["stats"]
                    shown.note(f"shrunk: {st['cells_before']} cells to {st['cells_after']} in {st['calls']} checks")

            progress = run_campaign(config, args.out, args.boards, args.time_budget, args.jobs, args.scheduler,
                                    args.resume, update, overwrite=args.overwrite, warn=_warn, shrinking=shrinking,
                                    report=report, exit_first=args.exitfirst, on_shrunk=shrunk,
                                    on_start=begun)
            progress.phase = "done"
            moved_on(progress)
    except FolderRefused:
        refused = True  # a refused run changes nothing: the folder's summary.json is another run's
        raise
    except KeyboardInterrupt:
        raise Stopped(_fuzz_stopped(args.out, mark["last"], mark["phase"])) from None
    finally:  # even when interrupted, the time spent so far is kept for the report
        if not refused and (args.out / "campaign.json").exists():
            write_json(args.out / SUMMARY, {"seconds": round(earlier + time.perf_counter() - started, 3)})
    fresh = None
    if known is not None or args.save_regressions:
        with executor(args.jobs or os.cpu_count() or 1, args.scheduler) as pool:
            if known is not None:
                fresh = write_news(args.out, args.shrink_per_signature, pool, known)
            if args.save_regressions:
                saved = save_shrunk(args.out, args.save_regressions, args.shrink_per_signature, pool)
    code = (EXIT_FINDINGS if fresh else EXIT_OK) if fresh is not None else \
        (EXIT_FINDINGS if progress.findings else EXIT_OK)
    elapsed = earlier + time.perf_counter() - started
    totals = campaign_totals(args.out, elapsed, phases, code)
    write_json(args.out / SUMMARY, totals)
    if report:
        # the index again, with the final totals (the pages, written at the campaign's end, do not show them)
        Report(args.out, args.shrink_per_signature, args.shrink_timeouts).write(None, pages=False)
    if args.json:
        print(json.dumps(totals, sort_keys=True), flush=True)
        return code
    print(f"{progress.boards} boards, {progress.findings} findings, {elapsed:.1f} s "
          f"({progress.boards / max(elapsed, 1e-9):.1f} boards/s); findings in {args.out / 'findings.jsonl'}")
    if totals.get("certificates", {}).get("lines"):  # what --certify (or the findings' references) proved
        from minecheck.check.certified import tally_words

        print(f"certificates: {totals['certificates']['lines']} reference answers; "
              f"{tally_words(totals['certificates']['claims'])} (check them again: minecheck verify {args.out})")
    if totals["not_judged"]:  # boards a solver never claimed to judge: counted, never findings
        print("not judged: " + ", ".join(f"{name} on {n} impossible board(s)"
                                         for name, n in sorted(totals["not_judged"].items())))
    if fresh is not None:
        print(f"{len(fresh)} new bug(s): not in {args.baseline}, and no known defect reproduces them"
              + "".join(f"\n  new: {row['subject']} {row['fingerprint']}" for row in fresh))
    if args.save_regressions:
        print(f"{len(saved)} regression fixtures in {args.save_regressions}")
    if report:
        print(f"report: open {(args.out / 'index.html').resolve()} in a browser")
    return code


def _fuzz_stopped(out: Path, progress, phase: str) -> str:
    """What a fuzz run stopped by Ctrl-C leaves, in words, as it is on disk."""
    from minecheck.campaigns.shrinking import read_shrunk

    if not (out / "campaign.json").exists():
        return f"stopped before the run began: nothing written in {out}"
    kept = len(read_shrunk(out))
    done = (f"{_n(progress.boards, 'board')} checked, {_n(progress.findings, 'finding')}, " if progress is not None
            else "")
    return (f"stopped while {'checking boards' if phase == 'boards' else phase}: {done}"
            f"{_n(kept, 'shrink')} kept in {out}; fuzz --resume goes on from there")


def _baseline(args: argparse.Namespace) -> int:
    from minecheck.campaigns.baseline import Baseline, from_bugs
    from minecheck.campaigns.baseline import load as load_baseline
    from minecheck.campaigns.bugs import bugs
    from minecheck.campaigns.publish import shrunk_boards
    from minecheck.campaigns.shrinking import read_shrunk
    from minecheck.running.workqueue import executor

    if not (args.out / "campaign.json").exists():
        raise BadFile(f"{args.out} holds no campaign (no campaign.json)")
    with executor(os.cpu_count() or 1, None) as pool:
        findings, _ = shrunk_boards(args.out, args.shrink_per_signature, pool)
    written = from_bugs(bugs(findings, read_shrunk(args.out)))
    refuse_foreign(args.write, _is_baseline, "--write", args.force)
    if args.merge and args.write.exists():
        old = load_baseline(args.write)
        written = Baseline(old.signatures, written.bugs | old.bugs)
    args.write.parent.mkdir(parents=True, exist_ok=True)
    write_text(args.write, written.to_json())
    print(f"{len({(b.subject, b.key) for b in written.bugs})} bug fingerprints in {args.write}"
          + (f", and {len(written.signatures)} signatures of an older baseline" if written.signatures else ""))
    return EXIT_OK


def _is_baseline(path: Path) -> bool:
    from minecheck.campaigns.baseline import load as load_baseline

    try:
        load_baseline(path)
    except (MinecheckError, OSError, ValueError):
        return False
    return True


def _solvers(args: argparse.Namespace) -> int:
    """Every solver by name: what it answers and its modes, or why it cannot run here; where it comes from."""
    from minecheck.model.errors import Unavailable
    from minecheck.running import jail
    from minecheck.running.discovery import build, grants, named

    rows = []
    for name, definition in named().items():
        row = {"name": name, "origin": definition.origin, "target": definition.target, "available": True,
               "sandbox": jail.runs_in(definition.origin != "built-in")}
        if definition.origin != "built-in":
            row |= grants(definition)
        try:
            made = require_runnable(build(definition))
            row |= {"answers": sorted(a.value for a in made.answers), "modes": sorted(m.value for m in made.modes)}
            if getattr(made, "runs_own_process", False):
                row["persistent"] = definition.persistent
        except Unavailable as err:
            row |= {"available": False, "error": err.message, "fix": err.fix}
        except UnknownSolver as err:
            row |= {"available": False, "error": str(err)}
        rows.append(row)
    rows += [{"name": n, "origin": "built-in", "target": "checked on LP relaxations and random LPs against cbc",
              "available": True, "answers": ["lp"], "modes": ["local"], "sandbox": jail.runs_in(False)}
             for n in LP_SOLVERS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    width = max(len(r["name"]) for r in rows)
    pad = " " * (width + 2)
    for r in rows:  # the name, then what it answers or why it cannot run; where it comes from below, when not built in
        if r["available"]:
            print(f"{r['name']:<{width}}  {', '.join(r['answers'])}; modes {', '.join(r['modes'])}")
        else:
            print(f"{r['name']:<{width}}  UNAVAILABLE: {r['error']}")
            if r.get("fix"):
                print(f"{pad}to fix: {r['fix']}")
        if r["origin"] != "built-in":
            print(f"{pad}{r['origin']}: {r['target']}" + (" (persistent)" if r.get("persistent") else ""))
            print(f"{pad}runs as {r['runs_as']}; writes {', '.join(r['writable']) or 'only its own /tmp'}; "
                  f"sees {', '.join(r['env'])} of the environment")
    print("\nAlso: an import path (pkg.module:Thing), cmd:COMMAND (a program speaking the protocol), NAME=either.")
    print(jail.status().describe())  # never silently weaker: a sandbox refused here is said with the list
    return EXIT_OK


def _save_regression(args: argparse.Namespace) -> int:
    from minecheck.campaigns.regressions import save_numbered

    print(save_numbered(args.out, args.number, args.to, force=args.force))
    return EXIT_OK


def _warn(message: str) -> None:
    print(f"minecheck: warning: {printable(message)}", file=sys.stderr)


def _resolve(args: argparse.Namespace) -> tuple[list[str], list[str], tuple[str, ...]]:
    """Subjects and references as results name them, and how workers make those not built in."""
    def names(text: str) -> tuple[list[str], tuple[str, ...]]:
        given = _names(text)
        lp = [n for n in given if is_lp_solver(n)]
        shown, definitions = resolve([n for n in given if not is_lp_solver(n)], args.persistent)
        return list(shown) + lp, definitions

    subjects, own = names(args.solvers)
    references, theirs = names(args.references)
    check_grants(own + theirs, run_folders(args))
    return subjects, references, own + theirs


def run_folders(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The folders and files this run writes or reads as its own (``--out``, ``--baseline``...): no solver's
    ``writable`` may grant them, nor a folder holding them."""
    return [(f"--{name.replace('_', '-')}", Path(getattr(args, name)).resolve())
            for name in ("out", "baseline", "save_regressions", "export", "write")
            if isinstance(getattr(args, name, None), str | Path)]


def _ready(names) -> None:
    """Make every named solver once, before any work: an unknown name, a library not installed or a program
    that is not there is bad input (exit 2) with the reason and the fix, not a finding on every board."""
    from minecheck.check.crosscheck import solver

    for name in names:
        if not is_lp_solver(name):
            require_runnable(solver(name))


def _names(text: str) -> list[str]:
    from minecheck.running.discovery import split_names

    return split_names(text)


if __name__ == "__main__":
    sys.exit(main())
