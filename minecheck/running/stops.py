"""What stopped a solver call, in words that name the budget and hold no measured time, so that the same
board gives the same finding on a busy machine and a quiet one."""

from __future__ import annotations

import os
import signal
import traceback
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from minecheck.model.answers import Failure, FailureKind
from minecheck.model.budget import Budget


class Stop(StrEnum):
    """Why a call was stopped before it answered."""

    CPU = "cpu"  # ran out of its CPU-time budget
    IDLE = "idle"  # used no CPU for too long: blocked or asleep
    MEMORY = "memory"  # went over its memory limit
    OUTPUT = "output"  # wrote or answered more than its output budget
    DIED = "died"  # the process ended without answering (a signal, os._exit, a crash below Python)


def stop_message(stop: Stop, budget: Budget, detail: str = "") -> str:
    """The error text of a stopped call: names the budget, never a measured time (findings stay identical)."""
    if stop is Stop.CPU:
        return f"Timeout: stopped at its CPU-time budget of {budget.cpu:g} s"
    if stop is Stop.IDLE:
        return (f"Timeout: stopped after {budget.idle_after:g} s without using the CPU (blocked or asleep; "
                f"the CPU-time budget is {budget.cpu:g} s)")
    if stop is Stop.MEMORY:
        said = f" ({detail})" if detail else ""
        return f"MemoryError: stopped at its memory limit of {budget.memory_mib} MiB{said}"
    if stop is Stop.OUTPUT:
        limit = (f"its output budget of {budget.output_mib} MiB" if budget.output_mib is not None
                 else f"the {budget.memory_mib} MiB of its memory limit")
        return f"Crash: {detail or 'it wrote'} more than {limit}"
    return f"Died: {detail}" if detail else "Died: the solver's process ended without answering"


STOPPED_BY = {Stop.CPU: FailureKind.TIMEOUT, Stop.IDLE: FailureKind.TIMEOUT, Stop.MEMORY: FailureKind.CRASH,
              Stop.OUTPUT: FailureKind.CRASH, Stop.DIED: FailureKind.CRASH}  # the kind of failure each stop is


def stop_failure(stop: Stop, budget: Budget, detail: str = "") -> Failure:
    """A stopped call as a failure: its kind, the budget that stopped it, the message naming that budget."""
    return Failure(STOPPED_BY[stop], stop_message(stop, budget, detail), None if stop is Stop.DIED else stop.value)


@dataclass(frozen=True)
class Outcome:
    """What a call gave: a value, or the error text of an exception or a stop; CPU and wall seconds used."""

    value: Any = None
    error: str | None = None
    stop: Stop | None = None
    cpu: float = 0.0
    wall: float = 0.0
    how: str = ""  # for people, never in a finding: which mechanism stopped the call, with what it measured
    stderr: str = ""  # the last lines an untrusted sandbox wrote to its standard output and error, with a failure

    @property
    def failure(self) -> Failure | None:
        """The error as a typed failure: a stop's kind and budget, else an exception raised (a crash)."""
        if self.error is None:
            return None
        kind = STOPPED_BY[self.stop] if self.stop is not None else FailureKind.CRASH
        return Failure(kind, self.error, None if self.stop in (None, Stop.DIED) else self.stop.value, self.stderr)


class CpuBudget(BaseException):
    """Raised inside the sandbox at the CPU budget; a BaseException so `except Exception` cannot swallow it."""


def describe_error(err: BaseException) -> str:
    """An exception as 'Type: message (at function:line)', the innermost frame being where it was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    where = f" (at {frames[-1].name}:{frames[-1].lineno})" if frames else ""
    return f"{type(err).__name__}: {err}{where}"


def describe_status(status: int) -> str:
    """A wait status in words: 'killed by SIGSEGV' or 'exited with status 3'."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        hint = " (a crash below Python: a C stack overflow or a fault in native code)" if name == "SIGSEGV" else ""
        return f"the solver's process was killed by {name}{hint}"
    if os.WIFEXITED(status):
        return f"the solver's process exited with status {os.WEXITSTATUS(status)} without answering"
    return f"the solver's process ended with wait status {status}"
