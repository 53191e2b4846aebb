"""A sandbox's solver in a PID namespace of its own, where no process of minecheck can be named or signalled.

A solver that kills or stops the process that runs it (``os.kill(os.getppid(), SIGSTOP)``) or any other it
can read from /proc would take a campaign's worker, or the campaign itself, down with it.  In a PID
namespace of its own the solver sees only its own processes: ``getppid()`` is the namespace's init, a
process that signals from inside the namespace cannot reach, and no process outside has a number there.

The sandbox's child (``enter``) moves its children into a new PID, mount and network namespace (no network:
a solver reaches no server, nor a port of the machine; and a user namespace where minecheck does not run as
root), forks the namespace's init (``run_init``), which mounts
the namespace's own /proc (so that a subreaper's /proc walk names its own processes) and forks the
process that serves the calls.  Each waits for the next and ends as it ended (``exit_as``), so the caller
sees the solver's exit or signal as before.  Where Linux refuses a namespace (no user namespaces, a
seccomp filter) ``enter`` says so and the solver runs without one: it can then signal minecheck's
processes (docs/campaigns.md says so).
"""

from __future__ import annotations

import os
import resource
import signal

from minecheck.running.reaper import _libc

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000  # a network of its own: a loopback nothing else listens on
MS_REC, MS_PRIVATE = 0x4000, 1 << 18
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
_SIGNALLED = 128  # an init's exit code past this names the signal that ended the process it waited for

_state: dict[str, bool] = {"refused": False}  # once Linux refuses, later sandboxes of this process do not ask again


def enter() -> bool:
    """In a freshly forked sandbox child: put the children it forks from now on in a PID namespace (and a
    mount and network namespace) of their own; False (nothing changed) where Linux does not allow it."""
    if _state["refused"]:
        return False
    uid, gid = os.geteuid(), os.getegid()
    flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | (CLONE_NEWUSER if uid != 0 else 0)
    try:
        libc = _libc()
        if libc.unshare(flags) != 0:
            _state["refused"] = True
            return False
        if uid != 0:  # the user namespace maps minecheck's own user to itself: files look the same
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None)  # the /proc mounted below stays in here
    except (OSError, AttributeError):
        _state["refused"] = True
        return False
    return True


def enter_allowed() -> bool:
    """Whether sandboxes get a namespace here: asked of Linux once per process, in a throwaway child, so that a
    sandbox never finds itself half moved (a user namespace made, its mapping refused)."""
    if "allowed" not in _state:
        pid = os.fork()
        if pid == 0:
            os._exit(0 if enter() else 1)
        _, status = os.waitpid(pid, 0)
        _state["allowed"] = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    return bool(_state["allowed"])


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def mount_proc() -> None:
    """In the namespace's init: /proc of this namespace, so that a /proc walk finds only its processes,
    by the numbers they have here (best effort: without it the subreaper's walk finds nothing to kill)."""
    try:
        _libc().mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    except (OSError, AttributeError):
        pass


def run_init(server: int) -> None:
    """The namespace's init: wait for the serving process (reaping orphans meanwhile), then end as it ended.
    Its end ends every process left in the namespace (Linux kills them when an init exits)."""
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(70)
        except InterruptedError:
            continue
        if pid == server:
            os._exit(encode(status))


def encode(status: int) -> int:
    """A wait status as an exit code: the process's code, or 128 + the signal that killed it."""
    if os.WIFSIGNALED(status):
        return _SIGNALLED + os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70


def exit_as(code: int) -> None:
    """In the process outside the namespace: end as the serving process did (killed by its signal, or its code)."""
    sig = code - _SIGNALLED
    if sig > 0 and sig not in (signal.SIGSTOP, signal.SIGKILL) and sig in set(signal.Signals):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file of this copy of the worker
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
    if sig == signal.SIGKILL:
        os.kill(os.getpid(), signal.SIGKILL)
    os._exit(code)


def wait_for(child: int) -> int:
    """The exit code of ``child`` (as ``encode`` makes it), waiting as long as it takes."""
    while True:
        try:
            _, status = os.waitpid(child, 0)
            return encode(status)
        except InterruptedError:
            continue
        except ChildProcessError:
            return 70
