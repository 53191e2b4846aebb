"""Benchmark: what certifying every reference verdict costs, beside checking the board, in one run.

    python bench/certify.py [--quick] [--boards N]

For N boards of each kind the campaign makes (the default mix's generators), every mode the board has:

* check: ``check_board(board, [], references=REFERENCES, budget=Config().budget)``, the campaign's check of a
  board by the default references, each in its sandbox (wall-clock seconds);
* certify: each default reference's answer (in-process, not timed: the campaign has them), each distinct
  answer certified once (``minecheck.certify.certification.certify``) and every certificate checked again
  (``minecheck.certify.verify.check_certification``), wall-clock seconds;

the two side by side per board, interleaved, and their ratio per kind and overall (the target for the
later ``fuzz --certify``: at most 2x).  The share of claims certified (verdicts, consistency claims, counts:
proved and checked, of those the answers make), the count certificates' refutations, and drat-trim's time on
every refutation exported (``verify --export``'s files) where drat-trim is installed.
Per refutation: proof steps (clauses added) and bytes, the CPU
time dratify took to check it, median and worst.  Then the proof solvers and digit encodings compared
on the same refutations (steps, bytes, checking time), and the planted shared fault (bench/faults.py):
the boards on which the four references agree with each other and are wrong, and how many of those
certification proves wrong; last, the second counter ganak beside exact on played positions.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faults import SHARED_FAULT, shared_fault  # noqa: E402

from minecheck.boards.generators import generate_board, recipe  # noqa: E402
from minecheck.campaigns.fuzz import DEEP, MANY_LAYOUTS, Config  # noqa: E402
from minecheck.certify.certification import certify  # noqa: E402
from minecheck.certify.export import export  # noqa: E402
from minecheck.certify.refute import refute  # noqa: E402
from minecheck.certify.rules import Reading  # noqa: E402
from minecheck.certify.verify import check_certification, check_refutation  # noqa: E402
from minecheck.check.crosscheck import check_board, modes_for  # noqa: E402
from minecheck.model.answers import Mode  # noqa: E402
from minecheck.running.catalogue import REFERENCES  # noqa: E402
from minecheck.running.discovery import get_solver  # noqa: E402

KINDS = {  # the default mix's generators (minecheck.campaigns.fuzz.DRAWN, and the small walk)
    "small:6": ("small:6", ()),
    "reveal 5x4": ("reveal", (("height", 4), ("width", 5))),
    "reveal 12x10": MANY_LAYOUTS,
    "reveal deep": DEEP,
    "contradict": ("contradict", ()),
    "contradict digit": ("contradict", (("change", "digit"),)),
    "swarm": ("swarm", ()),
    "edge": ("edge", ()),
    "edge wide": ("edge", (("shape", "wide"),)),
    "play beginner": ("play", (("level", "beginner"),)),
    "play intermediate": ("play", (("level", "intermediate"),)),
    "play expert": ("play", (("level", "expert"),)),
}
COMPARED = (("glucose4", "direct"), ("cadical195", "direct"), ("cadical153", "direct"), ("glucose4", "seqcounter"),
            ("cadical195", "seqcounter"))


def boards_of(kind: str, n: int) -> list:
    name, params = KINDS[kind]
    if name.startswith("small:"):
        from minecheck.boards.small import small_count, small_recipe

        step = max(1, small_count(6) // n)
        return [generate_board(small_recipe(6, i * step)) for i in range(n)]
    return [generate_board(recipe(name, 1000 + i, **dict(params))) for i in range(n)]


def signature(result) -> tuple:
    return result.mode, result.consistent, tuple((a.cell, a.verdict) for a in result.cells if a.verdict)


def answers_of(board) -> list:
    """Each default reference's answer in each mode, one of each distinct answer (what the campaign has in hand
    after checking the board: not part of the cost of certifying)."""
    distinct = {}
    for mode in modes_for(board):
        for name in REFERENCES:
            result = get_solver(name).solve(board, mode)
            if not (result.declined or result.failure):
                distinct.setdefault(signature(result), result)
    return list(distinct.values())


def certify_every_verdict(board, answers: list) -> tuple[list, float, float]:
    """Each distinct answer certified and its certificates checked: (certification, check) pairs, and the
    seconds (wall-clock) making them and checking them."""
    start = time.perf_counter()
    made = [certify(board, result) for result in answers]
    middle = time.perf_counter()
    checked = [check_certification(cert, board) for cert in made]
    return list(zip(made, checked)), middle - start, time.perf_counter() - middle


def pct(values: list[float], worst: bool = False) -> str:
    if not values:
        return "-"
    return f"{max(values):.0f}" if worst else f"{statistics.median(values):.0f}"


def shares(made: list, answers: list) -> tuple[int, int, int, int, int, int]:
    """Claims certified of claims made: verdicts, consistency, counts (a count is proved when every component is
    listed and the tally is the claim, or when the board is proved impossible and the count is 0)."""
    v = v_ok = c = c_ok = k = k_ok = 0
    for (cert, verdict), result in zip(made, answers):
        v += len(cert.cells)
        v_ok += sum(p.proven is not None and p.proven == p.claimed for p in cert.cells) if verdict.ok else 0
        c += cert.claimed_consistent is not None
        c_ok += verdict.ok and cert.claimed_consistent is not None and cert.proven_consistent == cert.claimed_consistent
        if result.layouts is not None:
            k += 1
            proved = (cert.proven_count is not None and cert.proven_count[0] == result.layouts) or (
                cert.proven_consistent is False and result.layouts == 0)
            k_ok += verdict.ok and proved
    return v, v_ok, c, c_ok, k, k_ok


def drat_trim_seconds(made: list, folder: Path) -> tuple[list[float], int]:
    """drat-trim (where installed) on every refutation exported: wall-clock seconds each, and how many it verified."""
    if shutil.which("drat-trim") is None:
        return [], 0
    shutil.rmtree(folder, ignore_errors=True)
    export([(f"c{i}", cert) for i, (cert, _) in enumerate(made)], folder)
    seconds, verified = [], 0
    for cnf in sorted(folder.glob("*.cnf")):
        start = time.perf_counter()
        run = subprocess.run(["drat-trim", str(cnf), str(cnf.with_suffix(".drat"))], capture_output=True, text=True)
        seconds.append(time.perf_counter() - start)
        verified += "s VERIFIED" in run.stdout
    return seconds, verified


def cost(kinds: list[str], n: int) -> list:
    budget = Config(seed=1).budget
    print("| kind | boards | check s | certify s | verify s | ratio | refutations | steps med/max | bytes med/max "
          "| cnf bytes med/max | check ms med/max | witnesses | certified | checked | verdicts | consistency "
          "| counts | count refutations | drat-trim ms med/max (verified) |")
    print("| --- " * 19 + "|")
    all_check = all_cert = 0.0
    refutations = []
    for kind in kinds:
        boards = boards_of(kind, n)
        t_check = t_cert = t_make = t_verify = 0.0
        steps, sizes, cnfs, times, witnesses, certified, checked, distinct = [], [], [], [], 0, 0, 0, 0
        claims = [0] * 6
        counted, trim, trimmed = 0, [], 0
        for board in boards:
            start = time.perf_counter()
            check_board(board, [], references=REFERENCES, budget=budget)
            t_check += time.perf_counter() - start
            answers = answers_of(board)
            made, making, checking = certify_every_verdict(board, answers)
            t_make, t_verify = t_make + making, t_verify + checking
            t_cert += making + checking
            distinct += len(answers)
            claims = [a + b for a, b in zip(claims, shares(made, answers))]
            seconds, ok = drat_trim_seconds(made, Path(tempfile.gettempdir()) / "minecheck-bench-export")
            trim += [1000 * s for s in seconds]
            trimmed += ok
            for cert, verdict in made:
                witnesses += len(cert.witnesses)
                certified += cert.certified
                checked += verdict.ok
                counts = [c.refutation for c in cert.count.components if c.refutation] if cert.count else []
                counted += len(counts)
                steps += [r.steps for r in cert.refutations]
                sizes += [len(r.proof) for r in cert.refutations]
                cnfs += [len(r.cnf or "") for r in cert.refutations]
                times += [1000 * s for s in verdict.seconds]
                refutations += [(board, cert.mode, r) for r in cert.refutations]
        all_check += t_check
        all_cert += t_cert
        ratio = t_cert / t_check if t_check else float("nan")
        v, v_ok, c, c_ok, k, k_ok = claims
        trimmed_text = f"{pct(trim)}/{pct(trim, True)} ({trimmed}/{len(trim)})" if trim else "not installed"
        print(f"| {kind} | {len(boards)} | {t_check:.2f} | {t_make:.2f} | {t_verify:.2f} | {ratio:.2f}x | "
              f"{len(steps)} | "
              f"{pct(steps)}/{pct(steps, True)} | {pct(sizes)}/{pct(sizes, True)} | {pct(cnfs)}/{pct(cnfs, True)} | "
              f"{pct(times)}/{pct(times, True)} | {witnesses} | {certified}/{distinct} | "
              f"{checked}/{distinct} | {v_ok}/{v} | {c_ok}/{c} | {k_ok}/{k} | {counted} | {trimmed_text} |",
              flush=True)
    print(f"\nall kinds: check {all_check:.2f} s, certify every verdict and count and check it {all_cert:.2f} s: "
          f"ratio {all_cert / all_check:.2f}x (target at most 2x)")
    return refutations


def compare(refutations: list, most: int) -> None:
    """The same refutations made again by each proof solver and digit encoding."""
    print("\n| solver | digits | refutations | steps med/max | bytes med/max | check ms med/max | make ms med |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    picked = refutations[:: max(1, len(refutations) // most)][:most]
    for solver, digits in COMPARED:
        steps, sizes, times, makes = [], [], [], []
        for board, mode, r in picked:
            start = time.process_time()
            made = refute(Reading(board, mode), r.rules, r.some, solver=solver, digits=digits)
            makes.append(1000 * (time.process_time() - start))
            problems, seconds = check_refutation(board, mode, made)
            assert not problems, problems
            steps.append(made.steps)
            sizes.append(len(made.proof))
            times.append(1000 * seconds)
        print(f"| {solver} | {digits} | {len(picked)} | {pct(steps)}/{pct(steps, True)} | "
              f"{pct(sizes)}/{pct(sizes, True)} | {pct(times)}/{pct(times, True)} | {statistics.median(makes):.1f} |")


def planted(kinds: list[str], n: int) -> None:
    """The shared fault: boards where the references agree with each other and are wrong; caught by certificates."""
    agreeing_wrong = caught = boards_seen = 0
    example = None
    for kind in kinds:
        for board in boards_of(kind, n):
            boards_seen += 1
            for mode in modes_for(board):
                right = signature(get_solver("exact").solve(board, mode))
                with shared_fault():
                    faulty = [get_solver(name).solve(board, mode) for name in REFERENCES]
                faulty = [r for r in faulty if not (r.declined or r.failure)]
                if len({signature(r) for r in faulty}) != 1 or signature(faulty[0]) == right:
                    continue
                agreeing_wrong += 1
                cert = certify(board, faulty[0])
                if cert.wrong and check_certification(cert, board).ok:
                    caught += 1
                    if example is None or board.size < example[0].size:
                        example = (board, mode, faulty[0], cert)
    print(f"\nplanted fault: {SHARED_FAULT}")
    print(f"{boards_seen} boards: {agreeing_wrong} answers on which exact, cbc, minisat and brute agree and are "
          f"wrong; certification proves {caught} of them wrong")
    if example:
        board, mode, faulty, cert = example
        print(f"smallest, {mode.value} mode:\n{board.text()}  the references say: consistent={faulty.consistent}, "
              + ", ".join(f"r{a.cell // board.width}c{a.cell % board.width} {a.verdict.value}" for a in faulty.cells)
              + f"\n  proven wrong: {', '.join(cert.wrong)}")


def second_counter(n: int) -> None:
    """ganak beside the exact counter on played positions: agreement, time ratio, boards declined."""
    from minecheck.references.ganak import make

    ganak, exact = make(), get_solver("exact")
    print("\n| level | mode | positions | agree | declined | ganak CPU s (median, worst) "
          "| ganak / exact (median, worst) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for level in ("beginner", "intermediate", "expert"):
        boards = [generate_board(recipe("play", 1000 + i, level=level)) for i in range(n)]
        for mode in (Mode.LOCAL, Mode.GLOBAL):
            agree = declined = 0
            ratios, spent = [], []
            for board in boards:
                start = time.process_time()
                theirs = exact.solve(board, mode)
                middle = time.process_time()
                ours = ganak.solve(board, mode)
                spent.append(time.process_time() - middle)
                ratios.append(spent[-1] / max(middle - start, 1e-6))
                if ours.declined:
                    declined += 1
                    continue
                agree += (ours.layouts, [(a.cell, a.probability) for a in ours.cells]) == (
                    theirs.layouts, [(a.cell, a.probability) for a in theirs.cells])
            print(f"| {level} | {mode.value} | {len(boards)} | {agree} | {declined} | {statistics.median(spent):.3f}, "
                  f"{max(spent):.3f} | {statistics.median(ratios):.0f}x, {max(ratios):.0f}x |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4 boards of each kind (not 20)")
    parser.add_argument("--boards", type=int, default=None, help="boards of each kind")
    args = parser.parse_args()
    n = args.boards or (4 if args.quick else 20)
    kinds = list(KINDS)
    refutations = cost(kinds, n)
    compare(refutations, 60 if args.quick else 300)
    planted(kinds, n)
    second_counter(max(4, n // 2))


if __name__ == "__main__":
    main()
