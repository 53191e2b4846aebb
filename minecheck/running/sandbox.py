"""Solvers run where they cannot take minecheck down, under budgets that do not depend on load.

A solver call runs in a *sandbox*: a child forked from the calling thread, kept for the next
call, in a process group of its own (so the group holds any program it starts).  Each call has:

* a CPU-time budget: the group's CPU seconds, not wall-clock seconds, so a busy machine and a
  quiet one stop the same solvers (inside the child an ITIMER_PROF signal stops Python code at
  the budget; the watchdog in the caller kills the group a little past it, for code that never
  returns to Python; and the child dies with the thread that forked it, so none is left behind.
  RLIMIT_CPU is not used: raised call after call in a long-lived process, Linux sent SIGXCPU
  seconds before the limit, stopping innocent runs);
* a memory limit: the address space the call may add (RLIMIT_AS in the child, so Python raises
  MemoryError), and the group's resident memory for programs it starts;
* an idle stop: a solver whose group uses no CPU for ``idle`` seconds is blocked or asleep, not
  computing, and is stopped (a load-independent answer too: a computing solver on a busy
  machine still gets some CPU in every window).

What stopped a call is part of its answer (``Stop``, with a message that names the budget and
holds no measured time, so findings are the same on every run).  A stopped or dead sandbox is
replaced by a new fork on the next call; nothing else the worker holds is lost.

Linux only (``/proc`` and ``fork``); elsewhere ``run`` calls in-process without limits.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import resource
import select
import signal
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from minecheck.model.answers import Failure, FailureKind

DEFAULT_MEMORY_MIB = 2048
IDLE_FLOOR = 5.0  # seconds: the shortest idle stop, whatever the CPU budget
IDLE_PROGRESS = 0.05  # CPU seconds the group must use in an idle window to count as computing
FIRST_POLL = 0.02  # seconds to wait for an answer before reading the group's usage
WATCHDOG_STALL = 1.0  # seconds a poll may come late before the idle window restarts (the watchdog was stopped)
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
SUPPORTED = sys.platform.startswith("linux") and hasattr(os, "fork")


@dataclass(frozen=True)
class Limits:
    """What one solver call may use; None means no limit of that kind."""

    cpu: float | None = 10.0  # CPU seconds of the solver's process group
    memory_mib: int | None = DEFAULT_MEMORY_MIB  # memory the call may add
    idle: float | None = None  # seconds without CPU progress; default max(IDLE_FLOOR, cpu)

    @property
    def idle_after(self) -> float:
        if self.idle is not None:
            return self.idle
        return max(IDLE_FLOOR, self.cpu or 0.0)

    @property
    def grace(self) -> float:
        """How far past the CPU budget the watchdog waits for the child to stop itself."""
        return 0.5 + 0.1 * (self.cpu or 0.0)


class Stop(StrEnum):
    """Why a call was stopped before it answered."""

    CPU = "cpu"  # ran out of its CPU-time budget
    IDLE = "idle"  # used no CPU for too long: blocked or asleep
    MEMORY = "memory"  # went over its memory limit
    DIED = "died"  # the process ended without answering (a signal, os._exit, a crash below Python)


def stop_message(stop: Stop, limits: Limits, detail: str = "") -> str:
    """The error text of a stopped call: names the budget, never a measured time (findings stay identical)."""
    if stop is Stop.CPU:
        return f"Timeout: stopped at its CPU-time budget of {limits.cpu:g} s"
    if stop is Stop.IDLE:
        return (f"Timeout: stopped after {limits.idle_after:g} s without using the CPU (blocked or asleep; "
                f"the CPU-time budget is {limits.cpu:g} s)")
    if stop is Stop.MEMORY:
        said = f" ({detail})" if detail else ""
        return f"MemoryError: stopped at its memory limit of {limits.memory_mib} MiB{said}"
    return f"Died: {detail}" if detail else "Died: the solver's process ended without answering"


STOPPED_BY = {Stop.CPU: FailureKind.TIMEOUT, Stop.IDLE: FailureKind.TIMEOUT, Stop.MEMORY: FailureKind.CRASH,
              Stop.DIED: FailureKind.CRASH}  # the kind of failure each stop is


def stop_failure(stop: Stop, limits: Limits, detail: str = "") -> Failure:
    """A stopped call as a failure: its kind, the budget that stopped it, the message naming that budget."""
    return Failure(STOPPED_BY[stop], stop_message(stop, limits, detail), None if stop is Stop.DIED else stop.value)


@dataclass(frozen=True)
class Outcome:
    """What a call gave: a value, or the error text of an exception or a stop; CPU and wall seconds used."""

    value: Any = None
    error: str | None = None
    stop: Stop | None = None
    cpu: float = 0.0
    wall: float = 0.0
    how: str = ""  # for people, never in a finding: which mechanism stopped the call, with what it measured

    @property
    def failure(self) -> Failure | None:
        """The error as a typed failure: a stop's kind and budget, else an exception raised (a crash)."""
        if self.error is None:
            return None
        kind = STOPPED_BY[self.stop] if self.stop is not None else FailureKind.CRASH
        return Failure(kind, self.error, None if self.stop in (None, Stop.DIED) else self.stop.value)


class CpuBudget(BaseException):
    """Raised inside the sandbox at the CPU budget; a BaseException so `except Exception` cannot swallow it."""


def describe_error(err: BaseException) -> str:
    """An exception as 'Type: message (at function:line)', the innermost frame being where it was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    where = f" (at {frames[-1].name}:{frames[-1].lineno})" if frames else ""
    return f"{type(err).__name__}: {err}{where}"


# -- the process group's usage, read from /proc ----------------------------------------------------

@dataclass(frozen=True)
class Usage:
    cpu: float  # seconds, user + system, of the group's processes and the children they waited for
    rss_mib: float


def group_usage(pgid: int) -> Usage:
    """CPU and resident memory of every process in a process group (0 for a group that is gone)."""
    ticks, pages = 0, 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return Usage(0.0, 0.0)
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if int(fields[2]) != pgid:  # fields after the command: state, ppid, pgrp, ...
            continue
        ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        pages += int(fields[21])
    return Usage(ticks / _TICK, pages * _PAGE / 2**20)


def watch(pgid: int, limits: Limits, answered: Callable[[float], bool],
          resident_cap_mib: float | None = None, seen: list[str] | None = None) -> Stop | None:
    """Wait until ``answered(seconds)`` reports an answer, or the group crosses a limit (which one).

    Resident memory stops the group above ``resident_cap_mib`` (default: the memory limit plus
    what a forked copy of this process starts with).

    Most calls answer within the first poll, before the group's usage is read at all; the CPU
    used before that first reading (at most FIRST_POLL seconds) is counted as if used.
    """
    if answered(FIRST_POLL):
        return None
    start = group_usage(pgid).cpu - FIRST_POLL
    progress_cpu, progress_at = start, time.monotonic()
    began, wait = time.monotonic(), FIRST_POLL
    polled = began
    while not answered(wait):
        usage = group_usage(pgid)
        now = time.monotonic()
        if now - polled > wait + WATCHDOG_STALL:  # the watchdog itself did not run (the whole job stopped,
            progress_at = now                      # or starved): no evidence that the solver was idle
        polled, wait = now, min(0.2, wait * 2)
        if seen is not None:
            seen[:] = [f"group CPU {usage.cpu - start:.2f} s (from {start:.2f}), resident {usage.rss_mib:.0f} MiB, "
                       f"{now - began:.2f} s of wall"]
        if limits.cpu is not None and usage.cpu - start > limits.cpu + limits.grace:
            return Stop.CPU
        if limits.memory_mib is not None and usage.rss_mib > (resident_cap_mib or _resident_cap(limits)):
            return Stop.MEMORY
        if usage.cpu - progress_cpu >= IDLE_PROGRESS:
            progress_cpu, progress_at = usage.cpu, now
        elif now - progress_at > limits.idle_after:
            return Stop.IDLE
    return None


def _resident_cap(limits: Limits) -> float:
    """The group's resident memory that stops it: the limit plus what a forked Python child starts with."""
    return (limits.memory_mib or 0) + _baseline_rss_mib()


def _baseline_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# -- the sandbox ------------------------------------------------------------------------------------

class Channel:
    """One end of a pair of pipes carrying pickled messages, each prefixed by its length.

    (multiprocessing.connection would do, at the price of importing sockets and temporary files on
    every start of the command line.)
    """

    def __init__(self, read_fd: int, write_fd: int):
        self.read_fd, self.write_fd = read_fd, write_fd

    def send(self, message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(struct.pack("<Q", len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def recv(self) -> Any:
        (size,) = struct.unpack("<Q", self._read(8))
        return pickle.loads(self._read(size))

    def _read(self, size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(self.read_fd, min(left, 1 << 20))
            if not chunk:
                raise EOFError("the other end closed the channel")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def poll(self, seconds: float) -> bool:
        return bool(select.select([self.read_fd], [], [], seconds)[0])

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass


def channel_pair() -> tuple[Channel, Channel]:
    down_read, down_write = os.pipe()
    up_read, up_write = os.pipe()
    return Channel(up_read, down_write), Channel(down_read, up_write)


class Sandbox:
    """A forked child that runs calls one at a time for the thread that made it.

    Objects are not sent to the child: the child inherits them when it is forked, and a call
    names the object and its method.  A call on an object the current child does not hold forks
    a new child (in a campaign: once per solver and worker, on the first board).
    """

    def __init__(self) -> None:
        self.pid: int | None = None
        self.conn: Channel | None = None
        self.known: dict[int, object] = {}  # id -> object, kept alive so that ids are not reused
        self.forked_with: frozenset[int] = frozenset()
        self.reaped = 0.0  # CPU seconds of the children this sandbox has waited for (and of theirs)

    def cpu(self) -> float:
        """CPU seconds its children have spent so far, the live one's included (os.times() counts a
        child only once it is waited for, whatever caller it worked for)."""
        return self.reaped + (group_usage(self.pid).cpu if self.pid is not None else 0.0)

    def call(self, owner: object, method: str, args: tuple, limits: Limits) -> Outcome:
        outcome = self._call(owner, method, args, limits)
        if outcome.stop is Stop.CPU and limits.cpu and outcome.wall * (os.cpu_count() or 1) < limits.cpu:
            # a CPU budget cannot run out faster than the cores can spend it: whatever stopped this
            # run, it was not the solver's computing.  Once more in a fresh sandbox, so that a finding
            # never rests on it; a solver that really runs out runs out again.
            first = outcome.how
            outcome = self._call(owner, method, args, limits)
            outcome = replace(outcome, how=f"{outcome.how} (run again: the first stop, after {first}, came "
                                           "sooner than the cores could spend the budget)".strip())
        return outcome

    def _call(self, owner: object, method: str, args: tuple, limits: Limits) -> Outcome:
        self.known.setdefault(id(owner), owner)
        if self.pid is None or id(owner) not in self.forked_with:
            self._fork()
        assert self.conn is not None and self.pid is not None
        start = time.perf_counter()
        try:
            self.conn.send((id(owner), method, args, limits))
        except (BrokenPipeError, ConnectionResetError, OSError):
            return self._died(start, limits)
        seen: list[str] = []
        stop = watch(self.pid, limits, self._ready, seen=seen)
        if stop is not None:
            self.close()
            return Outcome(error=stop_message(stop, limits), stop=stop, cpu=limits.cpu or 0.0,
                           wall=time.perf_counter() - start, how=f"the watchdog outside: {' '.join(seen)}")
        try:
            reply: Outcome = self.conn.recv()
        except (EOFError, ConnectionResetError, OSError):
            return self._died(start, limits)
        if reply.stop is not None:  # the child stopped itself (CPU budget, MemoryError): start afresh
            self.close()
        return replace(reply, wall=time.perf_counter() - start) if reply.stop is Stop.CPU else reply

    def _ready(self, seconds: float) -> bool:
        assert self.conn is not None
        try:
            return self.conn.poll(seconds)
        except (EOFError, OSError):
            return True  # the child is gone: recv() will say so

    def _fork(self) -> None:
        self.close()
        parent, child = channel_pair()
        for stream in (sys.stdout, sys.stderr):  # else the child would print the caller's pending output again
            _flush(stream)
        caller = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: serve calls until the caller goes away
            parent.close()
            code = 0
            try:
                _serve(child, dict(self.known), caller)
            except BaseException:  # noqa: BLE001 - nothing may escape a forked child
                code = 70
            finally:
                os._exit(code)
        child.close()
        try:
            os.setpgid(pid, pid)  # also done in the child; whichever runs first wins the race
        except (ProcessLookupError, PermissionError):
            pass
        self.pid, self.conn, self.forked_with = pid, parent, frozenset(self.known)

    def _died(self, start: float, limits: Limits) -> Outcome:
        detail = self._exit_status()
        self.close()
        return Outcome(error=stop_message(Stop.DIED, limits, detail), stop=Stop.DIED,
                       wall=time.perf_counter() - start, how=detail)

    def _exit_status(self) -> str:
        if self.pid is None:
            return ""
        try:
            status = self._reap()
        except ChildProcessError:
            return "the solver's process ended without answering"
        self.pid = None
        return describe_status(status)

    def _reap(self) -> int:
        """Wait for the child; its wait status, its CPU added to ``reaped``."""
        assert self.pid is not None
        _, status, usage = os.wait4(self.pid, 0)
        self.reaped += usage.ru_utime + usage.ru_stime
        return status

    def close(self) -> None:
        """Stop the child (and anything it started) and forget it."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.pid is not None:
            kill_group(self.pid)
            try:
                os.kill(self.pid, signal.SIGKILL)
                self._reap()
            except (ProcessLookupError, ChildProcessError):
                pass
            self.pid = None


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


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this child when the thread that forked it ends (PR_SET_PDEATHSIG), so that no
    sandbox outlives its caller, even one stuck in C when the caller is killed."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the caller was gone before the request took effect
        os._exit(0)


def _serve(conn: Channel, owners: dict[int, object], parent: int) -> None:
    """The child's loop: receive (object id, method, args, limits), answer an Outcome, until the pipe closes."""
    _die_with_parent(parent)
    os.setpgid(0, 0)
    os.dup2(2, 1)  # a solver's prints go to stderr: the caller's stdout may be JSON
    faulthandler.disable()  # a native crash is reported as the signal that ended the child, not a dump
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle; it kills this group

    def budget(signum, frame):
        raise CpuBudget()

    signal.signal(signal.SIGPROF, budget)
    memory_soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            key, method, args, limits = conn.recv()
        except (EOFError, OSError):
            return
        outcome = _run_limited(getattr(owners[key], method), args, limits, memory_soft)
        for stream in (sys.stdout, sys.stderr):
            _flush(stream)
        try:
            conn.send(outcome)
        except Exception as err:  # noqa: BLE001 - an answer that cannot be sent back is an answer too
            conn.send(Outcome(error=f"UnpicklableAnswer: {describe_error(err)}", cpu=outcome.cpu, wall=outcome.wall))
        if outcome.stop is not None:
            return  # after a stop the heap may be in any state: the caller forks afresh


def _flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _run_limited(fn: Callable, args: tuple, limits: Limits, memory_soft: int) -> Outcome:
    """One call under the limits; the budget's signal may land anywhere, even in the finally clause."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    stop, error, value = None, None, None
    try:
        try:
            _set_limits(limits)
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
        return Outcome(error=stop_message(stop, limits, "" if stop is Stop.CPU else _short(error)), stop=stop,
                       cpu=cpu, wall=wall, how=f"inside the sandbox: {cpu:.2f} s CPU in {wall:.2f} s of wall "
                                               f"(from {cpu0:.2f} s CPU)")
    return Outcome(value=value, error=error, cpu=cpu, wall=wall)


def _short(error: str | None) -> str:
    return (error or "").split(" (at ")[0].removeprefix("MemoryError: ").removeprefix("MemoryError")


def _set_limits(limits: Limits) -> None:
    if limits.cpu is not None:
        signal.setitimer(signal.ITIMER_PROF, limits.cpu)
    if limits.memory_mib is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = _address_space() + limits.memory_mib * 2**20
        if hard == resource.RLIM_INFINITY or soft <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _restore_memory_limit(soft: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * _PAGE


_local = threading.local()


def sandbox() -> Sandbox:
    """This thread's sandbox (threads of a dask worker each get their own)."""
    box = getattr(_local, "box", None)
    if box is None or getattr(_local, "pid", None) != os.getpid():  # a forked worker gets its own, too
        box = _local.box = Sandbox()
        _local.pid = os.getpid()
    return box


def thread_cpu() -> float:
    """CPU seconds of this thread and of the solver runs its sandbox made, live or ended: a budget
    that other threads' work, and solver runs ended later for earlier callers, do not eat."""
    return time.thread_time() + sandbox().cpu()


def run(owner: object, method: str, args: tuple, limits: Limits | None) -> Outcome:
    """Call owner.method(*args) within the limits in this thread's sandbox (in-process when limits is None)."""
    if limits is None or not SUPPORTED:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        try:
            value, error = getattr(owner, method)(*args), None
        except RecursionError as err:
            value, error = None, f"RecursionError: {err}"
        except Exception as err:  # noqa: BLE001 - whatever the solver raised is its answer
            value, error = None, describe_error(err)
        return Outcome(value=value, error=error, cpu=time.process_time() - cpu0, wall=time.perf_counter() - wall0)
    return sandbox().call(owner, method, args, limits)
