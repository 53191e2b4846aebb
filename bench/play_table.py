"""The win-rate tables of docs/play.md, from the summary.json of play runs (one run per size).

    python bench/play_table.py reports/play-beginner reports/play-intermediate reports/play-expert
    python bench/play_table.py fixtures/play/beginner.json fixtures/play/intermediate.json fixtures/play/expert.json

    python bench/play_table.py --write   # reports/play-* -> fixtures/play and the two tables in docs/play.md
    python bench/play_table.py --merge reports/play-beginner-ilp beginner
        # a run of some players on the same games (same size, rule and seed) replaces their rows in
        # fixtures/play/beginner.json, and the tables are drawn again from fixtures/play

(a run's directory or its summary.json; fixtures/play holds the summaries behind the tables).
Each cell: wins/games = rate (Wilson's 95% interval); a solver a run did not play shows "-".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def cell(row: dict | None) -> str:
    if row is None:
        return "-"
    lo, hi = row["ci95"]
    return f"{row['wins']}/{row['games']} = **{100 * row['win_rate']:.1f}%** ({100 * lo:.1f}-{100 * hi:.1f})"


def speed(games_per_s: float) -> str:
    """Games per second in two significant figures, without an exponent (200, not 2e+02)."""
    return f"{games_per_s:.0f}" if games_per_s >= 100 else f"{games_per_s:.2g}"


def table(runs: list[dict]) -> str:
    names = list(dict.fromkeys(name for run in runs for name in run["solvers"]))
    sizes = " | ".join(run["size"].capitalize() for run in runs)
    lines = [f"| solver | {sizes} | bad decisions | games/s |", "| --- |" + " --- |" * (len(runs) + 2)]
    for name in names:
        rows = [run["solvers"].get(name) for run in runs]
        bad = " / ".join("-" if r is None else str(r["decision_findings"]) for r in rows)
        rate = " / ".join("-" if r is None else speed(r["games_per_s"]) for r in rows)
        lines.append(f"| `{name}` | " + " | ".join(cell(r) for r in rows) + f" | {bad} | {rate} |")
    return "\n".join(lines)


ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "play.md"  # the page that holds both tables
TABLES = {"<!-- play:centre -->": ("beginner", "intermediate", "expert"),
          "<!-- play:corner -->": ("beginner-3-3", "intermediate-3-3", "expert-3-3")}
END = "<!-- play:end -->"


def write() -> None:
    """Refresh each run's summary, keep it in fixtures/play, and put both tables in docs/play.md."""
    from minecheck.play.run import write_summary

    readme = PAGE.read_text()
    for marker, names in TABLES.items():
        runs = []
        for name in names:
            run = ROOT / "reports" / f"play-{name}"
            write_summary(run, json.loads((run / "summary.json").read_text()).get("seconds"))
            (ROOT / "fixtures/play" / f"{name}.json").write_text((run / "summary.json").read_text())
            runs.append(json.loads((run / "summary.json").read_text()))
        start = readme.index(marker) + len(marker)
        readme = readme[:start] + "\n" + table(runs) + "\n" + readme[readme.index(END, start):]
    PAGE.write_text(readme)


def merge(run: Path, name: str) -> None:
    """Replace the rows of the players ``run`` played in fixtures/play/NAME.json (the same games: size, rule
    and seed must match), then draw both tables again from fixtures/play."""
    fixture = ROOT / "fixtures/play" / f"{name}.json"
    kept, new = json.loads(fixture.read_text()), json.loads((run / "summary.json").read_text())
    same = ("size", "first_click", "seed", "margin")
    if any(kept[k] != new[k] for k in same):
        raise SystemExit(f"{run} played other games than {fixture}: " + ", ".join(
            f"{k} {new[k]} vs {kept[k]}" for k in same if kept[k] != new[k]))
    kept["solvers"].update(new["solvers"])
    fixture.write_text(json.dumps(kept, indent=2) + "\n")
    readme = PAGE.read_text()
    for marker, names in TABLES.items():
        runs = [json.loads((ROOT / "fixtures/play" / f"{n}.json").read_text()) for n in names]
        start = readme.index(marker) + len(marker)
        readme = readme[:start] + "\n" + table(runs) + "\n" + readme[readme.index(END, start):]
    PAGE.write_text(readme)


def main(argv: list[str]) -> None:
    if argv == ["--write"]:
        write()
        return
    if len(argv) == 3 and argv[0] == "--merge":
        merge(Path(argv[1]), argv[2])
        return
    runs = [json.loads((Path(d) / "summary.json" if Path(d).is_dir() else Path(d)).read_text()) for d in argv]
    print(table(runs))


if __name__ == "__main__":
    main(sys.argv[1:])
