"""Shared test settings: hypothesis profiles (ci is deterministic)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


@pytest.fixture
def unjailed(monkeypatch):
    """cmd: programs without their sandbox (MINECHECK_SANDBOX=off, as where the kernel refuses one): the only way
    for ``hanging_solver.KILL_WORKER`` to stand in for an out-of-memory killer and end a worker, so that what a
    campaign does with a dead worker stays tested.  Workers forked meanwhile inherit it."""
    monkeypatch.setenv("MINECHECK_SANDBOX", "off")
