"""The win-rate tables of docs/play.md are what bench/play_table.py renders from the summaries in fixtures/play."""

from __future__ import annotations

import json
import sys

from shared import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import play_table  # noqa: E402


def between(text: str, marker: str) -> str:
    start = text.index(marker) + len(marker)
    return text[start:text.index("<!-- play:end -->", start)].strip()


def test_the_docs_tables_are_rendered_from_the_fixtures():
    readme = play_table.PAGE.read_text()
    for marker, names in play_table.TABLES.items():
        runs = [json.loads((ROOT / "fixtures/play" / f"{n}.json").read_text()) for n in names]
        assert between(readme, marker) == play_table.table(runs)


def test_a_cell_states_wins_games_rate_and_interval():
    row = {"wins": 956, "games": 1000, "win_rate": 0.956, "ci95": [0.941448, 0.967062]}
    assert play_table.cell(row) == "956/1000 = **95.6%** (94.1-96.7)"
    assert play_table.cell(None) == "-"


def test_the_10000_game_rates_in_the_docs_are_the_fixtures():
    """Each 10,000-game Expert summary in fixtures/play appears in docs/play.md as wins/games = rate (interval)."""
    page = play_table.PAGE.read_text()
    summaries = sorted((ROOT / "fixtures/play").glob("expert-10k-*.json"))
    assert len(summaries) == 4
    for path in summaries:
        for row in json.loads(path.read_text())["solvers"].values():
            lo, hi = row["ci95"]
            rate = f"**{100 * row['win_rate']:.1f}%** ({100 * lo:.1f}-{100 * hi:.1f})"
            shown = f"{row['wins']:,}/{row['games']:,} = {rate}"
            assert shown in page, (path.name, shown)
