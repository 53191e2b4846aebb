"""The sandbox's own side: the loop that serves one object's calls under their budgets, forked or jailed alike.

Each call comes as ``(method, args, budget)`` (``messages``: a pickle from minecheck) and its outcome goes back as
JSON.  Inside, a call runs under its budget's CPU timer (ITIMER_PROF raises ``CpuBudget`` in Python code) and
its memory limit (RLIMIT_AS: Python raises MemoryError); whatever it raises is its answer; whatever it starts is
killed and waited for when it ends (the process is a subreaper: ``end_descendants``).  An outcome that cannot
cross as data (an object of the solver's own) is an error of the call, and one longer than the call's output
budget is its output stop, said in a few bytes instead.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from minecheck.model.budget import Budget
from minecheck.running.messages import Channel, encode_outcome
from minecheck.running.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, end_descendants, prctl
from minecheck.running.stops import CpuBudget, Outcome, Stop, describe_error, stop_message

ANSWER_TOO_LONG = "its answer held"  # as the output stop says it: "its answer held more than its output budget ..."
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def die_with_parent(parent: int | None) -> None:
    """Ask Linux to kill this process when the thread that forked it ends (PR_SET_PDEATHSIG), so that no
    sandbox outlives its caller, even one stuck in C when the caller is killed (``parent`` None: in a
    namespace, where the parent has no number to check)."""
    if not prctl(PR_SET_PDEATHSIG, signal.SIGKILL):
        return
    if parent is not None and os.getppid() != parent:  # the caller was gone before the request took effect
        os._exit(0)


def serve(conn: Channel, owner: object, parent: int | None) -> None:
    """Receive (method, args, budget), answer an outcome, until the pipe closes.

    The process is a subreaper: whatever a call starts stays below it, however it forks, changes its
    session or exits, and is killed and waited for when the call ends (``end_descendants``).  A solver
    that wants a program to outlive its calls is a ``cmd:`` solver in persistent mode.
    """
    die_with_parent(parent)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    os.setpgid(0, 0)
    os.dup2(2, 1)  # a solver's prints go to stderr: the caller's stdout may be JSON
    faulthandler.disable()  # a native crash is reported as the signal that ended the child, not a dump
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle; it kills this group

    def spent(signum, frame):
        raise CpuBudget()

    signal.signal(signal.SIGPROF, spent)
    memory_soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            method, args, budget = pickle.loads(conn.recv())  # from minecheck: trusted (``messages``)
        except (EOFError, OSError):
            end_descendants()
            return
        children = children_cpu()
        outcome = run_limited(getattr(owner, method), args, budget, memory_soft)
        end_descendants()  # nothing a call started outlives it
        outcome = replace(outcome, cpu=outcome.cpu + children_cpu() - children)
        for stream in (sys.stdout, sys.stderr):
            flush(stream)
        conn.send(crossing(outcome, budget, bool(getattr(owner, "untrusted", False))))
        if outcome.stop is not None:
            return  # after a stop the heap may be in any state: the caller forks afresh


def crossing(outcome: Outcome, budget: Budget, untrusted: bool = True) -> bytes:
    """The outcome's message: its JSON, or an error said in its place (a value that is no data, an answer longer
    than ``message_limit``)."""
    try:
        data = encode_outcome(outcome)
    except (TypeError, ValueError, RecursionError) as err:
        return encode_outcome(Outcome(error=f"UnsendableAnswer: {describe_error(err)}", cpu=outcome.cpu,
                                      wall=outcome.wall))
    limit = message_limit(budget, untrusted)
    if limit is not None and len(data) > limit:
        return encode_outcome(Outcome(error=stop_message(Stop.OUTPUT, budget, ANSWER_TOO_LONG), stop=Stop.OUTPUT,
                                      cpu=outcome.cpu, wall=outcome.wall))
    return data


def message_limit(budget: Budget | None, untrusted: bool = True) -> int | None:
    """Bytes of an outcome's message that a call may send back: a solver not minecheck's own, its output budget
    (as a program's answer has); minecheck's own (a reference's exact answer on a huge board), or one without an
    output budget, the memory it may add (it could make no longer answer); None where that is not limited."""
    if budget is None:
        return None
    if untrusted and budget.output_bytes is not None:
        return budget.output_bytes + 4096  # and the outcome's own few fields
    return None if budget.memory_mib is None else budget.memory_mib * 2**20


def children_cpu() -> float:
    """CPU seconds of the processes this one has waited for (and of theirs)."""
    times = os.times()
    return times.children_user + times.children_system


def flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


def run_limited(fn: Callable, args: tuple, budget: Budget, memory_soft: int) -> Outcome:
    """One call under the budget; the budget's signal may land anywhere, even in the finally clause."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    stop, error, value = None, None, None
    try:
        try:
            _set_limits(budget)
            value = fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            _restore_memory_limit(memory_soft)
    except CpuBudget:
        stop = Stop.CPU
    except MemoryError as err:
        stop, error = Stop.MEMORY, describe_error(err)
    except RecursionError as err:
        error = f"RecursionError: {err}"
    except BaseException as err:  # noqa: BLE001 - whatever the solver raised is its answer
        error = describe_error(err)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if stop is not None:
        return Outcome(error=stop_message(stop, budget, "" if stop is Stop.CPU else _short(error)), stop=stop,
                       cpu=cpu, wall=wall, how=f"inside the sandbox: {cpu:.2f} s CPU in {wall:.2f} s of wall "
                                               f"(from {cpu0:.2f} s CPU)")
    return Outcome(value=value, error=error, cpu=cpu, wall=wall)


def _short(error: str | None) -> str:
    return (error or "").split(" (at ")[0].removeprefix("MemoryError: ").removeprefix("MemoryError")


def _set_limits(budget: Budget) -> None:
    if budget.cpu is not None:
        signal.setitimer(signal.ITIMER_PROF, budget.cpu)
    if budget.memory_mib is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = _address_space() + budget.memory_mib * 2**20
        if hard == resource.RLIM_INFINITY or soft <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _restore_memory_limit(soft: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * _PAGE
