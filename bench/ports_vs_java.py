"""Each seed port against its article's Java, on positions of every size: where both answer, where both fail.

    python bench/ports_vs_java.py [--quick] [--seeds N] [--stress N] [--java-timeout S] [--port-timeout S]

Articles: 000 (ilp@seed, tests/programs/java/ilp), 003 (gibbs@seed, tests/programs/java/gibbs), 004 (dpll@seed,
tests/programs/java/dpll), each run by the driver its Java test uses, exactly as the test runs it (no
-Xss).  Sizes: Beginner, Intermediate and Expert play positions (``recipe("play", seed,
level=...)``, seeds 0 to N-1) and stress boards (``recipe("stress", seed)``, 30x16 with about
300 frontier cells).  Per article and size, each position is one of:

  agree      both answer, the same to the bit
  both fail  the same exception (dpll: the port's JavaStackOverflow where the Java's stack overflowed)
  fuzzy      dpll only: the port overflowed, the Java answered, and the Java needs a number of
             nested collectModels calls at which it overflowed in some measured runs only
  disagree   anything else; listed with the position
  timeout    a side did not finish in its time limit (which side is listed)

dpll@seed runs one fresh JVM per position (a warm JVM overflows sooner, see dpll_seed's table),
and its times are compared: the port's seconds against the Java's own (the driver's "ms",
without the JVM's start).  ilp@seed and gibbs@seed run one JVM per size.  ``--quick`` (under two
minutes) takes five cheap positions per size and one with 1123 models, and leaves dpll's stress
boards out (the Java needs hours for them).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the Java tests' drivers, board texts and comparisons

import test_dpll_java as dpll_test  # noqa: E402
import test_gibbs_java as gibbs_test  # noqa: E402
import test_ilp_java as ilp_test  # noqa: E402

from minecheck.boards.generators import generate_board, recipe  # noqa: E402
from minecheck.model.answers import Mode, Verdict  # noqa: E402
from minecheck.model.board import Board  # noqa: E402
from minecheck.solvers.dpll_seed import (  # noqa: E402
    JAVA_NESTED_COLLECT_MODELS,
    JAVA_NESTED_COLLECT_MODELS_SOMETIMES,
    seed_solver,
)

SIZES = ("beginner", "intermediate", "expert", "stress")
QUICK = {"beginner": (0, 1, 2, 3, 4), "intermediate": (1, 2, 3, 4, 20), "expert": (0, 6, 8, 11, 13), "stress": (1,)}
JAVA = ROOT / "tests" / "programs" / "java"
SOURCES = {"dpll": JAVA / "dpll", "ilp": JAVA / "ilp" / "src", "gibbs": JAVA / "gibbs" / "src"}


@dataclass
class Row:
    """One article at one size: the positions by outcome, examples of each, and (dpll) the seconds spent."""

    outcomes: Counter = field(default_factory=Counter)
    examples: dict[str, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))
    port_seconds: float = 0.0
    java_seconds: float = 0.0
    timed: int = 0

    def add(self, outcome: str, example: str, weight: float = 0.0) -> None:
        """Count a position; the three heaviest of each outcome (the first three, by default) are kept as examples."""
        self.outcomes[outcome] += 1
        kept = self.examples[outcome]
        kept.append((weight, example))
        kept.sort(key=lambda e: -e[0])
        del kept[3:]


class PortTimeout(Exception):
    pass


def with_timeout(seconds: float, fn, *args):
    """fn(*args), or PortTimeout after so many seconds of wall-clock time."""
    def alarm(signum, frame):
        raise PortTimeout
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def positions(size: str, seeds) -> list[tuple[str, Board]]:
    if size == "stress":
        return [(f"stress seed={s}", generate_board(recipe("stress", s))) for s in seeds]
    return [(f"play level={size} seed={s}", generate_board(recipe("play", s, level=size))) for s in seeds]


def compile_java(article: str, out: Path) -> Path:
    files = [str(p) for p in SOURCES[article].rglob("*.java")]
    subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(out), *files], check=True, capture_output=True)
    return out


# -- dpll@seed ----------------------------------------------------------------------------------------

def dpll_port(b: Board) -> dict:
    """What dpll_test.port_answers gives, without the registry (its budget would hide the port's own time)."""
    try:
        result = seed_solver().solve(b, Mode.LOCAL)
    except Exception as err:  # the seed's defects raise; each is an answer here
        return dpll_test._empty() | {"error": f"{type(err).__name__}: {err}"}
    return {"safe": {b.row_col(a.cell) for a in result.cells if a.verdict is Verdict.SAFE},
            "mine": {b.row_col(a.cell) for a in result.cells if a.verdict is Verdict.MINE},
            "prob": {b.row_col(a.cell): a.probability for a in result.cells},
            "models": result.layouts, "error": None}


def dpll_outcome(port: dict, java: dict) -> tuple[str, str]:
    overflowed = java.get("overflow")
    java_answer = {k: v for k, v in java.items() if k not in ("ms", "overflow")}
    port_overflowed = (port["error"] or "").startswith("JavaStackOverflow")
    if overflowed is not None and port_overflowed:
        return "both fail", (f"StackOverflowError: the Java after {overflowed} models, "
                             f"the port after {JAVA_NESTED_COLLECT_MODELS}")
    if overflowed is None and port == java_answer:
        kind = "agree" if port["error"] is None else "both fail"
        return kind, port["error"] or f"{port['models']} models"
    if port_overflowed and java["models"] is not None and java["models"] < JAVA_NESTED_COLLECT_MODELS_SOMETIMES:
        return "fuzzy", f"the Java answered {java['models']} models, the port overflowed"
    what = f"Java overflowed after {overflowed} models" if overflowed is not None else \
        java["error"] or f"Java {java['models']} models"
    return "disagree", f"{what}; port: {port['error'] or str(port['models']) + ' models'}"


def run_dpll(classes: Path, size: str, seeds, args) -> Row:
    row = Row()
    for label, b in positions(size, seeds):
        start = time.perf_counter()
        try:
            port = with_timeout(args.port_timeout, dpll_port, b)
        except PortTimeout:
            port = None
        port_seconds = time.perf_counter() - start
        try:
            [java] = dpll_test.java_answers(classes, [b], timeout=args.java_timeout)
        except subprocess.TimeoutExpired:
            java = None
        if port is None or java is None:
            side = " and ".join(s for s, r in (("port", port), ("Java", java)) if r is None)
            row.add("timeout", f"{label}: {side}")
            continue
        outcome, note = dpll_outcome(port, java)
        row.add(outcome, f"{label}: {note} (port {port_seconds:.1f} s, Java {java['ms'] / 1000:.1f} s)", java["ms"])
        if outcome in ("agree", "both fail"):
            row.port_seconds += port_seconds
            row.java_seconds += java["ms"] / 1000
            row.timed += 1
    return row


# -- ilp@seed and gibbs@seed: one JVM per size ----------------------------------------------------------

def run_ilp(classes: Path, size: str, seeds, args) -> Row:
    row = Row()
    cases = positions(size, seeds)
    java = ilp_test.run_java(classes, [ilp_test.board_text(b) for _, b in cases])
    for (label, b), lines in zip(cases, java):
        expected = ilp_test.java_values(lines)
        try:
            port = with_timeout(args.port_timeout, ilp_test.port_lines, b)
        except PortTimeout:
            row.add("timeout", f"{label}: port")
            continue
        if port != expected:
            row.add("disagree", f"{label}: Java {expected[:1]}, port {port[:1]}")
        elif port and port[0].startswith("ERROR"):
            row.add("both fail", f"{label}: {port[0][6:]}")
        else:
            row.add("agree", f"{label}: {sum(line.startswith('CELL') for line in port)} cells")
    return row


def run_gibbs(classes: Path, size: str, seeds, args) -> Row:
    row = Row()
    cases = [(label, seed * 7919 - 3, b) for seed, (label, b) in zip(seeds, positions(size, seeds))]
    java = gibbs_test.run_java(classes, [gibbs_test.board_command(seed, b) for _, seed, b in cases])
    for (label, seed, b), lines in zip(cases, java):
        try:
            differ = with_timeout(args.port_timeout, gibbs_test.differences, seed, b, lines)
        except PortTimeout:
            row.add("timeout", f"{label}: port")
            continue
        if differ:
            row.add("disagree", f"{label}: {', '.join(differ)}")
        else:
            row.add("agree", f"{label}: {sum(line.startswith('prob') for line in lines)} frontier cells")
    return row


RUNS = {"ilp": run_ilp, "gibbs": run_gibbs, "dpll": run_dpll}
OUTCOMES = ("agree", "both fail", "fuzzy", "disagree", "timeout")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="five cheap positions per size, no dpll stress")
    parser.add_argument("--seeds", type=int, default=20, help="play positions per level (seeds 0 to N-1)")
    parser.add_argument("--stress", type=int, default=3, help="stress boards (seeds 0 to N-1)")
    parser.add_argument("--java-timeout", type=float, default=900, help="seconds for the Java on one dpll position")
    parser.add_argument("--port-timeout", type=float, default=600, help="seconds for a port on one position")
    parser.add_argument("--articles", default="ilp,gibbs,dpll")
    args = parser.parse_args()
    start = time.perf_counter()
    rows: dict[tuple[str, str], Row] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for article in args.articles.split(","):
            classes = compile_java(article, Path(tmp) / article)
            for size in SIZES:
                if args.quick and article == "dpll" and size == "stress":
                    continue
                seeds = QUICK[size] if args.quick else range(args.stress if size == "stress" else args.seeds)
                rows[article, size] = RUNS[article](classes, size, seeds, args)
                print(f"  {article} {size}: {dict(rows[article, size].outcomes)}", file=sys.stderr, flush=True)
    print(f"seed ports against the articles' Java ({time.perf_counter() - start:.0f} s)")
    print(f"{'article':8} {'size':13} " + " ".join(f"{o:>9}" for o in OUTCOMES))
    for (article, size), row in rows.items():
        print(f"{article:8} {size:13} " + " ".join(f"{row.outcomes[o]:>9}" for o in OUTCOMES))
    print("\nexamples")
    for (article, size), row in rows.items():
        for outcome in OUTCOMES:
            for _, example in row.examples.get(outcome, ()):
                print(f"  {article:6} {size:13} {outcome:10} {example}")
    print("\ndpll@seed's time on the positions both sides finished (the Java's in-JVM time)")
    print(f"{'size':13} {'positions':>9} {'port s':>9} {'Java s':>9} {'Java/port':>9}")
    for (article, size), row in rows.items():
        if article == "dpll" and row.timed:
            ratio = row.java_seconds / row.port_seconds if row.port_seconds else float("inf")
            print(f"{size:13} {row.timed:>9} {row.port_seconds:>9.1f} {row.java_seconds:>9.1f} {ratio:>9.1f}")


if __name__ == "__main__":
    main()
