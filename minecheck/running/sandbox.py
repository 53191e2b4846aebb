"""Solvers run where they cannot take minecheck down, under budgets that do not depend on load.

A solver call runs in a *sandbox*: a child forked from the calling thread, kept for the next
call, in a process group of its own and a *subreaper* (PR_SET_CHILD_SUBREAPER): every process a
call starts stays below it, whatever it does (forks twice, moves to a session of its own, exits
leaving children), and all are killed and waited for when the call ends.  Its *tree* - the child,
what descends from it, its group (``members``) - is what the limits apply to.  Each call has:

* a CPU-time budget: the tree's CPU seconds, not wall-clock seconds, so a busy machine and a
  quiet one stop the same solvers (inside the child an ITIMER_PROF signal stops Python code at
  the budget; the watchdog in the caller kills the tree a little past it, for code that never
  returns to Python and for children computing; and the child dies with the thread that forked
  it, so none is left behind.  RLIMIT_CPU is not used: raised call after call in a long-lived
  process, Linux sent SIGXCPU seconds before the limit, stopping innocent runs);
* a memory limit: the address space the call may add (RLIMIT_AS in the child, so Python raises
  MemoryError), and the tree's resident memory for programs it starts;
* an idle stop: a solver whose tree uses no CPU for ``idle`` seconds is blocked or asleep, not
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
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


# -- a solver's processes, read from /proc ---------------------------------------------------------

@dataclass(frozen=True)
class Usage:
    cpu: float  # seconds, user + system, of the tree's processes and the children they waited for
    rss_mib: float


@dataclass(frozen=True)
class Proc:
    """One line of /proc/<pid>/stat, the fields the watchdog reads."""

    pid: int
    ppid: int
    pgid: int
    zombie: bool
    own_ticks: int  # user + system time of the process itself (all its threads)
    child_ticks: int  # ... of the children it has waited for, and of theirs
    pages: int  # resident
    start: int  # clock ticks after boot: with the pid, names the process (ids are reused)


def processes() -> dict[int, Proc]:
    """Every process of the machine, read from /proc (an empty table where there is no /proc)."""
    table: dict[int, Proc] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return table
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()  # after the command: state, ppid, pgrp, ...
        table[int(entry)] = Proc(int(entry), int(fields[1]), int(fields[2]), fields[0] in (b"Z", b"X"),
                                 int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14]),
                                 int(fields[21]), int(fields[19]))
    return table


def members(table: dict[int, Proc], root: int, seen: dict[int, int] | None = None) -> list[Proc]:
    """The root, every process descended from it, every process in its process group, and the processes
    of ``seen`` (pid -> start time) that still run, with theirs: all that a solver's run started.

    A process whose parent exits is re-parented (to the nearest subreaper, else to init), out of the
    root's descent; the group and ``seen`` find it again unless it also left the group early.
    """
    children: dict[int, list[int]] = {}
    for proc in table.values():
        children.setdefault(proc.ppid, []).append(proc.pid)
    todo = [root] + [p.pid for p in table.values() if p.pgid == root]
    todo += [pid for pid, start in (seen or {}).items() if pid in table and table[pid].start == start]
    found: dict[int, Proc] = {}
    while todo:
        pid = todo.pop()
        if pid in found or pid not in table:
            continue
        found[pid] = table[pid]
        todo += children.get(pid, ())
    return list(found.values())


def group_usage(root: int, own: bool = True) -> Usage:
    """CPU and resident memory of a process, of everything descended from it and of its process group
    (0 for one that is gone); without the root's own CPU and memory when ``own`` is False (a runner
    that only waits, such as the guardian of a program)."""
    return _usage(members(processes(), root), root, own)


def _usage(procs: list[Proc], root: int, own: bool) -> Usage:
    ticks = sum(p.child_ticks + (p.own_ticks if own or p.pid != root else 0) for p in procs)
    pages = sum(p.pages for p in procs if own or p.pid != root)
    return Usage(ticks / _TICK, pages * _PAGE / 2**20)


class Tree:
    """A solver's processes as its watchdog sees them (``members``), remembered from one look to the next
    so that those a dying root leaves behind are found and killed too."""

    def __init__(self, root: int, own: bool = True):
        self.root, self.own = root, own
        self.seen: dict[int, int] = {}  # pid -> start time, of the processes below the root seen alive

    def usage(self) -> Usage:
        """The tree's usage now (``group_usage``); it also remembers the processes it holds."""
        table = processes()
        procs = members(table, self.root, self.seen)
        self.seen = {p.pid: p.start for p in procs if p.pid != self.root}
        return _usage(procs, self.root, self.own)

    def kill(self, include_root: bool = True) -> set[int]:
        """Kill the tree (the root too, unless ``include_root`` is False); the ids of the processes killed."""
        return kill_tree(self.root, include_root, self.seen)


KILL_WAIT = 2.0  # seconds a tree may take to die (a process in the kernel dies when it comes out)


def kill_tree(root: int, include_root: bool = True, seen: dict[int, int] | None = None) -> set[int]:
    """SIGKILL a process tree (``members``), the root last; the ids of the processes killed.

    The root is stopped first (SIGSTOP), so it starts nothing while its descendants die; they are
    killed round after round until none is left alive, as one may fork between a look and a kill.
    Killed, they are zombies until their parent waits for them (``reap_adopted``).
    """
    if include_root:
        _send(root, signal.SIGSTOP)
    killed: set[int] = set()
    deadline = time.monotonic() + KILL_WAIT
    while True:
        live = [p.pid for p in members(processes(), root, seen) if p.pid != root and not p.zombie]
        if not live or time.monotonic() > deadline:
            break
        for pid in live:
            _send(pid, signal.SIGKILL)
        killed.update(live)
        time.sleep(0.002)
    if include_root:
        _send(root, signal.SIGKILL)
    return killed


def ended(pid: int, wait: float = 0.0) -> bool:
    """Whether a child of this process has ended (within ``wait`` seconds), without waiting for it:
    until it is waited for, its id is not given to another process, so its tree can still be named."""
    deadline = time.monotonic() + wait
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:  # waited for already
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(min(0.001, max(0.0, deadline - time.monotonic())))


def _send(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# -- subreapers: a process that orphans of its tree are re-parented to, to kill and reap them ---------

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37


@cache
def _libc():
    import ctypes  # here: the command line starts without it

    return ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> bool:
    """Linux's prctl(2) through libc; False where it cannot be called."""
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def is_subreaper() -> bool:
    """Whether orphans below this process come to it (PR_SET_CHILD_SUBREAPER) rather than to init."""
    try:
        import ctypes

        flag = ctypes.c_int(0)
        _libc().prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
        return bool(flag.value)
    except (OSError, AttributeError):
        return False


def end_descendants() -> None:
    """Kill every process descended from this one and wait for each, until this process has no child.

    Only for a subreaper that owns all its children (a sandbox after a call, a pool worker ending):
    orphans of its tree are re-parented to it, so no child left means no descendant left.
    """
    deadline = time.monotonic() + KILL_WAIT
    me = os.getpid()
    while _reap_any() and time.monotonic() < deadline:
        for proc in members(processes(), me):
            if proc.pid != me and not proc.zombie:
                _send(proc.pid, signal.SIGKILL)
        time.sleep(0.002)


def _reap_any() -> bool:
    """Wait for every child that has ended; False when this process has no child at all."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def pool_worker_start(parent: int) -> None:
    """Make this process (a campaign's pool worker) end with ``parent``, its sandboxes and programs with it.

    ``parent``'s death, even by SIGKILL, sends SIGTERM here (PR_SET_PDEATHSIG, checked at once against a
    parent already gone); SIGTERM, from there or from the pool, kills every process below and exits.
    A subreaper, the worker keeps below it what a dying sandbox leaves, so that nothing escapes that.
    (PR_SET_PDEATHSIG fires when the *thread* that forked the worker ends: the pool's workers are
    forked by the thread that submits to it, which outlives the pool.)
    """
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _end_worker)
    if prctl(PR_SET_PDEATHSIG, signal.SIGTERM) and os.getppid() != parent:
        _end_worker(signal.SIGTERM, None)


def _end_worker(signum, frame) -> None:
    """SIGTERM in a pool worker: kill and reap everything below it, then end (whatever it was doing)."""
    end_descendants()
    os._exit(128 + signal.SIGTERM)


_adopting_lock = threading.Lock()  # one thread at a time makes this process a subreaper, and unmakes it
# Held while a pipe meant for one child has both ends in this process, until that child holds its end
# and this process has closed it, and around every fork of a sandbox: a child forked by another thread
# in between would hold a copy of the pipe's write end, and the reader would never see its end (a
# thread of a dask worker starting a program while another forks a sandbox waited forever).
FORK_LOCK = threading.Lock()


def _fresh_locks() -> None:
    """After a fork: the child's copies of the locks may be held by threads that did not come along."""
    global _adopting_lock, FORK_LOCK
    _adopting_lock, FORK_LOCK = threading.Lock(), threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks)


def reap_adopted(pids: set[int]) -> None:
    """Wait for those of ``pids`` that were re-parented to this process (killed orphans, see ``adopting``)."""
    deadline = time.monotonic() + KILL_WAIT / 4
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not this process's child (init took it), or already waited for
                done = pid
            if done:
                left.discard(pid)
        if left:
            time.sleep(0.002)


@contextmanager
def adopting() -> Iterator[None]:
    """Make this process a subreaper while a killed tree's root dies, so that its zombies come here and
    are waited for (``reap_adopted``) rather than left to init, which in some containers waits for none.

    Only for that moment: a subreaper for good would take in orphans of whatever else the process runs.
    """
    with _adopting_lock:
        was = is_subreaper()
        if not was:
            prctl(PR_SET_CHILD_SUBREAPER, 1)
        try:
            yield
        finally:
            if not was:
                prctl(PR_SET_CHILD_SUBREAPER, 0)


def watch(root: int, limits: Limits, answered: Callable[[float], bool],
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
        if limits.cpu is not None and now_using.cpu - start > limits.cpu + limits.grace:
            return Stop.CPU
        if limits.memory_mib is not None and now_using.rss_mib > (resident_cap_mib or _resident_cap(limits)):
            return Stop.MEMORY
        if now_using.cpu - progress_cpu >= IDLE_PROGRESS:
            progress_cpu, progress_at = now_using.cpu, now
        elif now - progress_at > limits.idle_after:
            return Stop.IDLE
    return None


def _resident_cap(limits: Limits) -> float:
    """The tree's resident memory that stops it: the limit plus what a forked Python child starts with."""
    return (limits.memory_mib or 0) + _baseline_rss_mib()


def _baseline_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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
        self.tree: Tree | None = None  # the live child's processes

    def cpu(self) -> float:
        """CPU seconds its children have spent so far, the live one's included, with what they started
        (os.times() counts a child only once it is waited for, whatever caller it worked for)."""
        return self.reaped + (self.tree.usage().cpu if self.tree is not None and self.pid is not None else 0.0)

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
        assert self.tree is not None
        stop = watch(self.pid, limits, self._ready, seen=seen, usage=self.tree.usage)
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
        for stream in (sys.stdout, sys.stderr):  # else the child would print the caller's pending output again
            _flush(stream)
        caller = os.getpid()
        with FORK_LOCK:  # no other thread's child is forked holding this child's end of the channel
            parent, child = channel_pair()
            pid = os.fork()
            if pid != 0:
                child.close()
        if pid == 0:  # the child: serve calls until the caller goes away
            parent.close()
            code = 0
            try:
                _serve(child, dict(self.known), caller)
            except BaseException:  # noqa: BLE001 - nothing may escape a forked child
                code = 70
            finally:
                os._exit(code)
        try:
            os.setpgid(pid, pid)  # also done in the child; whichever runs first wins the race
        except (ProcessLookupError, PermissionError):
            pass
        self.pid, self.conn, self.forked_with = pid, parent, frozenset(self.known)
        self.tree = Tree(pid)

    def _died(self, start: float, limits: Limits) -> Outcome:
        detail = self._exit_status()
        self.close()
        return Outcome(error=stop_message(Stop.DIED, limits, detail), stop=Stop.DIED,
                       wall=time.perf_counter() - start, how=detail)

    def _exit_status(self) -> str:
        """How the child ended (it closed its end of the channel), once what it left running is killed."""
        if self.pid is None:
            return ""
        assert self.tree is not None
        if not ended(self.pid, KILL_WAIT):  # it closed the channel and lives on: no answer will come
            self.close()
            return "the solver's process closed its channel to minecheck without answering"
        # its zombie still holds its id, so the tree's root cannot be another process yet
        reap_adopted(self.tree.kill(include_root=False))
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
        """Stop the child and every process it started (``kill_tree``), wait for them, and forget them."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.pid is not None:
            assert self.tree is not None
            with adopting():  # the killed child's zombies come here, not to an init that may not reap
                killed = self.tree.kill()
                try:
                    self._reap()
                except ChildProcessError:
                    pass
                reap_adopted(killed)
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
    if not prctl(PR_SET_PDEATHSIG, signal.SIGKILL):
        return
    if os.getppid() != parent:  # the caller was gone before the request took effect
        os._exit(0)


def _serve(conn: Channel, owners: dict[int, object], parent: int) -> None:
    """The child's loop: receive (object id, method, args, limits), answer an Outcome, until the pipe closes.

    The child is a subreaper: whatever a call starts stays below it, however it forks, changes its
    session or exits, and is killed and waited for when the call ends (``end_descendants``).  A solver
    that wants a program to outlive its calls is a ``cmd:`` solver in persistent mode.
    """
    _die_with_parent(parent)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
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
            end_descendants()
            return
        children = _children_cpu()
        outcome = _run_limited(getattr(owners[key], method), args, limits, memory_soft)
        end_descendants()  # nothing a call started outlives it
        outcome = replace(outcome, cpu=outcome.cpu + _children_cpu() - children)
        for stream in (sys.stdout, sys.stderr):
            _flush(stream)
        try:
            conn.send(outcome)
        except Exception as err:  # noqa: BLE001 - an answer that cannot be sent back is an answer too
            conn.send(Outcome(error=f"UnpicklableAnswer: {describe_error(err)}", cpu=outcome.cpu, wall=outcome.wall))
        if outcome.stop is not None:
            return  # after a stop the heap may be in any state: the caller forks afresh


def _children_cpu() -> float:
    """CPU seconds of the processes this one has waited for (and of theirs)."""
    times = os.times()
    return times.children_user + times.children_system


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
