"""A solver's processes as the watchdog sees them: read from /proc, summed, killed and reaped.

A call's *tree* is its root, what descends from it, its process group, and the processes seen below it
before (``Tree.seen``): a process whose parent exits is re-parented out of the root's descent, and the
group and the memory of earlier looks find it again.  CPU and resident memory are summed over the tree.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from minecheck.running.reaper import KILL_WAIT, PR_SET_CHILD_SUBREAPER, is_subreaper, prctl

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(frozen=True)
class Usage:
    cpu: float  # seconds, user + system, of the tree's processes and the children they waited for
    rss_mib: float
    runnable: bool = False  # some process of the tree runs or waits only for a core (state R): computing,
    # however little CPU a loaded machine gives it, so never idle


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
    runnable: bool = False  # state R: running, or ready to run and waiting for a core
    stopped: bool = False  # state T or t: stopped by a signal (SIGSTOP) or a tracer


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
                                 int(fields[21]), int(fields[19]), fields[0] == b"R", fields[0] in (b"T", b"t"))
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


def _usage(procs: list[Proc], root: int, own: bool, quiet: frozenset[int] = frozenset()) -> Usage:
    ticks = sum(p.child_ticks + (p.own_ticks if own or p.pid != root else 0) for p in procs)
    pages = sum(p.pages for p in procs if (own or p.pid != root) and p.pid not in quiet)
    runnable = any(p.runnable for p in procs if (own or p.pid != root) and p.pid not in quiet)
    return Usage(ticks / _TICK, pages * _PAGE / 2**20, runnable)


class Tree:
    """A solver's processes as its watchdog sees them (``members``), remembered from one look to the next
    so that those a dying root leaves behind are found and killed too."""

    def __init__(self, root: int, own: bool = True, quiet_depth: int = 0, scratch: str | None = None):
        self.root, self.own = root, own
        self.quiet_depth = quiet_depth  # the root and its first descendants down to this depth only wait for
        # the next (a sandbox and its namespace's init): copies of the caller, their resident memory not counted
        self.seen: dict[int, int] = {}  # pid -> start time, of the processes below the root seen alive
        self.scratch = scratch  # a folder in RAM of its own (a jail's private /tmp), counted in its memory

    def usage(self, table: dict[int, Proc] | None = None) -> Usage:
        """The tree's usage now (``group_usage``; from ``table`` when read already); it also remembers the
        processes it holds."""
        table = processes() if table is None else table
        procs = members(table, self.root, self.seen)
        self.seen = {p.pid: p.start for p in procs if p.pid != self.root}
        used = _usage(procs, self.root, self.own, self._quiet(table))
        if self.scratch is None:
            return used
        return Usage(used.cpu, used.rss_mib + self._scratch_mib(procs), used.runnable)

    def _scratch_mib(self, procs: list[Proc]) -> float:
        """``scratch_mib``, looking for the process in the jail once: then one statvfs a look (the watchdog looks
        often while a program floods its pipes)."""
        jailed = getattr(self, "_jailed", None)
        if jailed is not None and any(p.pid == jailed for p in procs):
            try:
                found = os.statvfs(f"/proc/{jailed}/root{self.scratch}")
                return (found.f_blocks - found.f_bfree) * found.f_frsize / 2**20
            except OSError:
                pass
        self._jailed = None
        for proc in procs:
            if proc.pid != self.root and not proc.zombie and _in_jail(proc.pid, self.scratch):
                self._jailed = proc.pid
                return scratch_mib([proc], self.root, self.scratch)
        return 0.0

    def _quiet(self, table: dict[int, Proc]) -> frozenset[int]:
        level, quiet = {self.root}, set()
        for _ in range(self.quiet_depth):
            quiet |= level
            level = {p.pid for p in table.values() if p.ppid in level}
        return frozenset(quiet)

    def kill(self, include_root: bool = True) -> set[int]:
        """Kill the tree (the root too, unless ``include_root`` is False); the ids of the processes killed."""
        return kill_tree(self.root, include_root, self.seen)


def scratch_mib(procs: list[Proc], root: int, folder: str) -> float:
    """MiB written into ``folder`` as a process of the tree in a mount namespace of its own sees it (a jail's tmpfs,
    in RAM: ``/proc/PID/root`` is that process's view of the files), 0 where none is seen."""
    try:
        ours = os.stat("/proc/self/ns/mnt").st_ino
    except OSError:
        return 0.0
    for proc in procs:
        if proc.pid == root or proc.zombie:
            continue
        try:
            if os.stat(f"/proc/{proc.pid}/ns/mnt").st_ino == ours or _mounted(proc.pid, folder) != "tmpfs":
                continue  # not in the jail, or its folder is something else there (a read-only view of the machine's)
            found = os.statvfs(f"/proc/{proc.pid}/root{folder}")
        except OSError:
            continue
        return (found.f_blocks - found.f_bfree) * found.f_frsize / 2**20
    return 0.0


def _in_jail(pid: int, folder: str) -> bool:
    """Whether the process is in a mount namespace not this process's, with a tmpfs at ``folder``."""
    try:
        return os.stat(f"/proc/{pid}/ns/mnt").st_ino != os.stat("/proc/self/ns/mnt").st_ino \
            and _mounted(pid, folder) == "tmpfs"
    except OSError:
        return False


def _mounted(pid: int, folder: str) -> str | None:
    """The type of the file system a process sees at ``folder`` (the last mount there), None if nothing is mounted
    there."""
    kind = None
    with open(f"/proc/{pid}/mountinfo") as f:
        for line in f:
            fields = line.split()
            if fields[4] == folder:
                kind = fields[fields.index("-") + 1]
    return kind


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
