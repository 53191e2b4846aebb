"""The README's win-rate table, from the summary.json of play runs (one run per size).

    python bench/play_table.py reports/play-beginner reports/play-intermediate reports/play-expert
    python bench/play_table.py fixtures/play/beginner.json fixtures/play/intermediate.json fixtures/play/expert.json

(a run's directory or its summary.json; fixtures/play holds the summaries behind the README).
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


def table(runs: list[dict]) -> str:
    names = list(dict.fromkeys(name for run in runs for name in run["solvers"]))
    sizes = " | ".join(run["size"].capitalize() for run in runs)
    lines = [f"| solver | {sizes} | bad decisions | games/s |", "| --- |" + " --- |" * (len(runs) + 2)]
    for name in names:
        rows = [run["solvers"].get(name) for run in runs]
        bad = " / ".join("-" if r is None else str(r["decision_findings"]) for r in rows)
        rate = " / ".join("-" if r is None else f"{r['games_per_s']:.2g}" for r in rows)
        lines.append(f"| `{name}` | " + " | ".join(cell(r) for r in rows) + f" | {bad} | {rate} |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    runs = [json.loads((Path(d) / "summary.json" if Path(d).is_dir() else Path(d)).read_text()) for d in argv]
    print(table(runs))


if __name__ == "__main__":
    main(sys.argv[1:])
