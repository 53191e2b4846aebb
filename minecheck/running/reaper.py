"""Subreapers: a process that the orphans of its tree are re-parented to, so that it can kill and reap them.

A sandbox (after each call), a pool worker (when it ends) and a program's guardian (when the program
ends) all end the same way: kill every process below them and wait for each, until no child is left.
This module imports nothing but ``os`` and ``time`` and defines only functions and numbers, because the
guardian runs its source as it is, in a bare ``python -I -S`` that must start in milliseconds and load
nothing of minecheck (``minecheck.running.external``).  Linux only (``/proc``, prctl).
"""

import os
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
SIGKILL = 9
KILL_WAIT = 2.0  # seconds a tree may take to die (a process in the kernel dies when it comes out)
_LIBC = []  # libc through ctypes, loaded on first use (the command line starts without ctypes)


def _libc():
    if not _LIBC:
        import ctypes

        _LIBC.append(ctypes.CDLL(None, use_errno=True))
    return _LIBC[0]


def prctl(option, value):
    """Linux's prctl(2) through libc; False where it cannot be called."""
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def is_subreaper():
    """Whether orphans below this process come to it (PR_SET_CHILD_SUBREAPER) rather than to init."""
    try:
        import ctypes

        flag = ctypes.c_int(0)
        _libc().prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
        return bool(flag.value)
    except (OSError, AttributeError):
        return False


def descendants(root):
    """The live processes descended from ``root``, read from /proc (zombies left out)."""
    children = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):  # gone meanwhile
            continue
        if fields[0] not in (b"Z", b"X"):
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, ())
    return found


def reap_ended(on_exit=None):
    """Wait for every child that has ended (``on_exit(pid, status)`` hears of each); False when this process
    has no child at all - for a subreaper, no descendant at all."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        if on_exit is not None:
            on_exit(pid, status)


def end_descendants(wait=KILL_WAIT, on_exit=None):
    """Kill every process descended from this one and wait for each, until this process has no child (or
    ``wait`` seconds passed).  Only for a subreaper that owns all its children: its tree's orphans are
    re-parented to it, so no child left means nothing left."""
    deadline = time.monotonic() + wait
    me = os.getpid()
    while reap_ended(on_exit) and time.monotonic() < deadline:
        for pid in descendants(me):
            try:
                os.kill(pid, SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)
