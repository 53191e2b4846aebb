"""The watchdog: waits for a call's answer while its process tree stays within its budget, and says which
limit it crossed (CPU, resident memory, idling) when it does not.

Idling is judged by what the tree's processes are doing, not by how much CPU a busy machine lets them have:
a tree with a runnable process (state R: computing, or waiting for a core) is never idle; one whose
processes all sleep, wait or are stopped (SIGSTOP) and gain no CPU for the idle window is.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable

from minecheck.model.budget import Budget
from minecheck.running.proctree import Usage, group_usage
from minecheck.running.stops import Stop

IDLE_PROGRESS = 0.05  # CPU seconds the group must use in an idle window to count as computing
FIRST_POLL = 0.02  # seconds to wait for an answer before reading the group's usage
WATCHDOG_STALL = 1.0  # seconds a poll may come late before the idle window restarts (the watchdog was stopped)


def watch(root: int, budget: Budget, answered: Callable[[float], bool],
          resident_cap_mib: float | None = None, seen: list[str] | None = None,
          usage: Callable[[], Usage] | None = None) -> Stop | None:
    """Wait until ``answered(seconds)`` reports an answer, or the root's process tree crosses a limit (which).

    The tree's usage is read by ``usage`` (default ``group_usage(root)``): the root, its descendants
    and its process group, so that a child in a session of its own computes on the run's budget.
    Resident memory stops the tree above ``resident_cap_mib`` (default: the memory limit plus
    what a forked copy of this process starts with).

    Most calls answer within the first poll, before the group's usage is read at all; the CPU
    used before that first reading (at most FIRST_POLL seconds) is counted as if used.
    """
    if answered(FIRST_POLL):
        return None
    read = usage or (lambda: group_usage(root))
    start = read().cpu - FIRST_POLL
    progress_cpu, progress_at = start, time.monotonic()
    began, wait = time.monotonic(), FIRST_POLL
    polled = began
    while not answered(wait):
        now_using = read()
        now = time.monotonic()
        if now - polled > wait + WATCHDOG_STALL:  # the watchdog itself did not run (the whole job stopped,
            progress_at = now                      # or starved): no evidence that the solver was idle
        polled, wait = now, min(0.2, wait * 2)
        if seen is not None:
            seen[:] = [f"tree CPU {now_using.cpu - start:.2f} s (from {start:.2f}), resident "
                       f"{now_using.rss_mib:.0f} MiB, {now - began:.2f} s of wall"]
        if budget.cpu is not None and now_using.cpu - start > budget.cpu + budget.grace:
            return Stop.CPU
        if budget.memory_mib is not None and now_using.rss_mib > (resident_cap_mib or _resident_cap(budget)):
            return Stop.MEMORY
        if now_using.cpu - progress_cpu >= IDLE_PROGRESS or now_using.runnable:
            progress_cpu, progress_at = now_using.cpu, now  # computing, however slowly the load lets it
        elif now - progress_at > budget.idle_after:
            return Stop.IDLE
    return None


def _resident_cap(budget: Budget) -> float:
    """The tree's resident memory that stops it: the limit plus what a forked Python child starts with."""
    return (budget.memory_mib or 0) + _baseline_rss_mib()


def _baseline_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
