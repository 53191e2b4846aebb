"""Benchmark: two public Minesweeper engines that are not minecheck's, checked through the protocol as their
authors would check them, and what minecheck hands each author: findings, bugs, noise, shrunk sizes.

    python bench/engines.py [--boards 200] [--seed 1] [--jobs 2] [--only zig,cpsat] [--venv DIR] [--code PATH]

The engines come from PyPI into a venv of their own (``--venv``, by default ``.minecheck/engines``, which git
ignores; made on first use, pinned versions), never into minecheck's: they are subjects, not dependencies.

* ``zig``: zig-minesolver 0.1.1, an exact-probability engine compiled from Zig (the one behind minegauler's
  probabilities), through ``bench/programs/zig_engine.py``: global mode, probabilities to 5 decimals.
* ``cpsat``: multi-puzzle-solver 1.1.10's Minesweeper, certain cells by OR-tools' CP-SAT, through
  ``bench/programs/cpsat_engine.py``: both modes, verdicts; it reads a flag as the player's mark (an
  unconstrained covered cell), which it declares as ``flags = "marks"`` where this minecheck knows the key.

Each runs the default campaign (default mix, reference ``exact``) in persistent mode.  Printed per engine:
boards, findings by kind, signatures, bugs (where the run's summary has them), findings on boards that
cannot be (in their mode: the engines declare no ``consistency``, so each of these is noise), what the summary
counts as not judged, and the shrunk boards' sizes in cells (cut-short shrinks marked ``*``).  ``--code PATH``
runs another checkout of minecheck (the "before" figures).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / ".minecheck" / "engines"
PACKAGES = ("zig-minesolver==0.1.1", "multi-puzzle-solver==1.1.10")
ENGINES = {
    "zig": {"program": "zig_engine.py", "table": {"modes": ["global"], "answers": ["probabilities"], "decimals": 5}},
    "cpsat": {"program": "cpsat_engine.py", "table": {"answers": ["verdicts"]}, "marks": True},
}


def engines_python(venv: Path) -> Path:
    """The engines' venv's python, the venv made and filled on first use."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"installing {', '.join(PACKAGES)} into {venv} (once)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    return python


def environment(code: str | None) -> dict:
    env = dict(os.environ)
    if code:
        env["PYTHONPATH"] = str(Path(code).resolve())
    return env


def knows_marks(env: dict) -> bool:
    """Whether this minecheck reads a solver's ``flags = "marks"`` declaration."""
    probe = 'probe={command = "true", flags = "marks"}'
    run = subprocess.run([sys.executable, "-c", "from minecheck.cli import main; main()", "check", "1x1/H",
                          "--solvers", probe, "--references", "exact"], env=env, capture_output=True, text=True)
    return "flags" not in run.stderr


def definition(name: str, python: Path, marks: bool) -> str:
    """The engine as a solver table on the command line (TOML inline table), persistent."""
    spec = ENGINES[name]
    table = {"command": shlex.join([str(python), str(HERE / "programs" / spec["program"])]), "persistent": True,
             **spec["table"]}
    if marks and spec.get("marks"):
        table["flags"] = "marks"
    return f"{name}={{{', '.join(f'{k} = {json.dumps(v)}' for k, v in table.items())}}}"


def lines(path: Path) -> list[str]:
    try:
        return [line for line in path.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def cells(board_text: str) -> int:
    from minecheck.model.boardtext import parse_board

    return parse_board(board_text).size


def impossible(board_text: str, mode: str) -> bool:
    """Whether the board cannot be, in the finding's mode (the exact counter of the minecheck running this)."""
    from minecheck.engine.counter import count_board
    from minecheck.model.boardtext import parse_board

    return not count_board(parse_board(board_text), mode).consistent


def summarize(name: str, out: Path, seconds: float) -> None:
    findings = [json.loads(line) for line in lines(out / "findings.jsonl")]
    summary = json.loads((out / "summary.json").read_text()) if (out / "summary.json").exists() else {}
    kinds = Counter(f["kind"] for f in findings)
    noise = sum(1 for f in findings if f.get("board") and impossible(f["board"], f["mode"]))
    shrunk = []
    for line in lines(out / "shrunk.jsonl"):
        entry = json.loads(line)
        if "finding" in entry:
            cut = entry.get("stats", {}).get("cut_short")
            shrunk.append(f"{cells(json.loads(entry['finding'])['board'])}{'*' if cut else ''}")
    bugs = summary.get("bugs")
    print(f"  {name}: {summary.get('boards', '?')} boards in {seconds:.0f} s, {len(findings)} findings "
          f"({', '.join(f'{k} {n}' for k, n in kinds.most_common())})")
    print(f"    signatures {len(summary.get('signatures', {}))}, bugs "
          f"{len(bugs) if isinstance(bugs, list) else '-'}, findings on impossible boards (noise) {noise}, "
          f"not judged {summary.get('not_judged', '-')}")
    print(f"    shrunk boards' cells: {', '.join(shrunk) or 'none'}")
    if isinstance(bugs, list):
        for bug in bugs:
            print(f"    bug: {json.dumps(bug)[:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default=",".join(ENGINES), help="engines to run, by name")
    parser.add_argument("--venv", type=Path, default=VENV, help="the engines' own venv")
    parser.add_argument("--code", help="a checkout to run instead of the installed minecheck")
    parser.add_argument("--keep", type=Path, help="keep the run folders here (default: a temporary folder)")
    args = parser.parse_args()
    python = engines_python(args.venv)
    env = environment(args.code)
    marks = knows_marks(env)
    root = args.keep or Path(tempfile.mkdtemp(prefix="engines-"))
    print(f"default campaign, {args.boards} boards (seed {args.seed}, {args.jobs} jobs), reference exact; "
          f"flags = \"marks\" {'declared' if marks else 'not known to this minecheck'}; "
          f"load {os.getloadavg()[0]:.1f}; runs in {root}")
    for name in args.only.split(","):
        out = root / name
        command = [sys.executable, "-c", "from minecheck.cli import main; main()", "fuzz", "--seed", str(args.seed),
                   "--boards", str(args.boards), "--jobs", str(args.jobs), "--references", "exact",
                   "--solvers", definition(name, python, marks), "--out", str(out), "-q", "--overwrite"]
        start = time.perf_counter()
        run = subprocess.run(command, env=env, capture_output=True, text=True)
        if run.returncode not in (0, 1):
            print(f"  {name}: the campaign failed (exit {run.returncode}): {run.stderr[-1000:]}")
            continue
        summarize(name, out, time.perf_counter() - start)


if __name__ == "__main__":
    main()
