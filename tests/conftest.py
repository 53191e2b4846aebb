"""Shared test settings: hypothesis profiles (ci is deterministic), board fixtures by name."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings

from minecheck.model.boardtext import parse_board

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def board(text: str):
    """A board from text; '/' separates rows so tests can write boards on one line."""
    return parse_board(text.replace("/", "\n"))
