"""Wilson's 95% interval: known values, and the properties that make it the interval to report."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from minecheck.play.winrate import WinRate, wilson


@pytest.mark.parametrize("wins, games, low, high", [
    (5, 10, 0.236593, 0.763407),  # the textbook example
    (0, 10, 0.0, 0.277533),  # z^2 / (n + z^2): the normal interval would say [0, 0]
    (10, 10, 0.722467, 1.0),
    (971, 1000, 0.958662, 0.979734),
])
def test_known_values(wins, games, low, high):
    assert wilson(wins, games) == pytest.approx((low, high), abs=1e-6)


@pytest.mark.parametrize("wins, games", [(3, 7), (528, 1000), (889, 1000), (299, 300)])
def test_the_same_as_scipy(wins, games):
    expected = binomtest(wins, games).proportion_ci(0.95, method="wilson")
    assert wilson(wins, games) == pytest.approx((expected.low, expected.high), abs=1e-9)


def test_no_games_say_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_interval_holds_the_rate_stays_in_0_1_and_mirrors_losses(pair):
    wins, games = pair
    low, high = wilson(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    mirror_low, mirror_high = wilson(games - wins, games)
    assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low), abs=1e-12)


def test_a_win_rate_row_as_summary_json_writes_it():
    row = WinRate("exact", games=10, wins=5, errors=1, play_seconds=1.5, check_seconds=0.5, decision_findings=2)
    assert row.as_json() == {"games": 10, "wins": 5, "win_rate": 0.5, "ci95": [0.236593, 0.763407],
                             "games_per_s": 5.0, "decision_findings": 2, "errors": 1, "check_share": 0.25}
