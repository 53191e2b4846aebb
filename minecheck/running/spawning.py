"""Starting a ``cmd:`` program, and ending it with everything it started.

A program starts in its jail (``jail.plan``: as the unprivileged user where minecheck runs as root, its /tmp
sized to its memory budget) under its guardian (``guardian``) where Linux allows, its standard streams piped
to this process; it ends - by itself, asked, or killed with its whole tree - and is waited for.  The ends of
its pipes held here are hidden from children forked by other threads (``_hide_pipes_in_child``), so that no
copy keeps a program's input open.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

from minecheck.running import guardian, jail
from minecheck.running.proctree import FORK_LOCK, KILL_WAIT, Tree, ended, kill_group, reap_adopted
from minecheck.running.sandbox import SUPPORTED

PIPE_SIZE = 1 << 20  # the pipes' capacity asked of Linux (fewer switches between a writer and minecheck)
GUARDED = SUPPORTED and bool(sys.executable)  # programs run under a guardian (else: directly, in a session)


class Process(subprocess.Popen):
    """A running program: the Popen of its guardian (of the program itself where there is none), and its
    process tree as the watchdog reads it (without the guardian's own CPU and memory)."""

    guarded: bool
    jailed: bool = False  # run by bwrap, which reports a program killed by signal N as exit status 128 + N
    tree: Tree
    spent: float = 0.0  # CPU seconds of its tree, read as it ended (before it was waited for)


def spawn(command: tuple[str, ...], env: dict, cwd: str | None, writable: tuple[str, ...] = (),
           tmp_mib: int | None = None) -> Process:
    """Start a program, its standard streams piped to this process: in its jail (``minecheck.running.jail``, its
    /tmp of ``tmp_mib`` MiB), under a guardian where Linux allows (OSError, as from Popen, when it could not
    start)."""
    planned = jail.plan(command, cwd, env, writable, tmp_mib=tmp_mib)
    command, wrapped = tuple(planned.argv), planned.argv != list(command)
    scratch = "/tmp" if wrapped else None  # its jail's /tmp, in RAM: counted in its memory
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if not GUARDED:
        with FORK_LOCK:
            as_user = {} if planned.uid is None else {"user": planned.uid, "group": planned.uid, "extra_groups": []}
            process = Process(command, **pipes, env=env, cwd=cwd, start_new_session=True, **as_user)
            _track(process)
        process.guarded, process.jailed, process.tree = False, wrapped, Tree(process.pid, scratch=scratch)
        return process
    with FORK_LOCK:  # (see there) no sandbox forked meanwhile holds the report's write end
        report_read, report_write = os.pipe()
        try:
            user = "-" if planned.uid is None else str(planned.uid)
            process = Process([sys.executable, "-I", "-S", "-c", guardian.code(), str(os.getpid()),
                                str(report_write), user, *command], **pipes, env=env, cwd=cwd, start_new_session=True,
                               pass_fds=(report_write,))
        except BaseException:
            os.close(report_read)
            raise
        finally:
            os.close(report_write)
        _track(process)
    process.guarded, process.jailed, process.tree = True, wrapped, Tree(process.pid, own=False, scratch=scratch)
    report = _read_report(report_read, process.pid)
    if report != b"0":  # an errno: the exec failed (or, empty, the guardian itself did not get that far)
        end(process, grace=KILL_WAIT)
        code = int(report) if report.isdigit() else 0
        raise OSError(code, os.strerror(code) if code else "its runner ended before starting it")
    for stream in (process.stdout, process.stderr):
        _widen(stream.fileno())
    return process


def _read_report(fd: int, guardian: int) -> bytes:
    """The guardian's one line on ``fd`` (without its newline); empty if the guardian ended without one.

    Its end of file is not awaited: a process forked elsewhere meanwhile could hold the pipe open."""
    data = b""
    try:
        while b"\n" not in data:
            if select.select([fd], [], [], 0.05)[0]:
                chunk = os.read(fd, 64)
                if not chunk:
                    break
                data += chunk
            elif ended(guardian):
                break
    finally:
        os.close(fd)
    return data.split(b"\n")[0]


def _widen(fd: int) -> None:
    """Ask for a larger pipe, so that a program writing much is switched out less often (no matter if refused)."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (OSError, AttributeError, ImportError):
        pass


def end(process: Process, grace: float = 0.0) -> int:
    """Stop a program with everything it started, unless it ends by itself within ``grace`` seconds, and
    wait for it; its exit status.

    A guardian told to stop (SIGTERM) kills the program's tree and waits for it, then exits: the
    tree ends complete and leaves no zombie.  A guardian that does not (killed itself, or none), is
    killed with the tree from here (``Tree.kill``).
    """
    if process.returncode is None:
        if not ended(process.pid, grace) and process.guarded:
            _signal(process.pid, signal.SIGTERM)
        if not ended(process.pid, KILL_WAIT if process.guarded else 0.0):
            reap_adopted(process.tree.kill())
            ended(process.pid, KILL_WAIT)
        # not waited for yet, the root still holds its id: what its tree left (a guardian killed from below)
        kill_group(process.pid)
        if process.tree.seen:
            reap_adopted(process.tree.kill(include_root=False))
    # ended, not yet waited for: the guardian's line in /proc still holds what it waited for (the program)
    process.spent = process.tree.usage().cpu
    status = process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            close_pipe(stream)
    return status


def _track(process: subprocess.Popen) -> None:
    """Remember this process's ends of a program's pipes (see ``_hide_pipes_in_child``)."""
    for stream in (process.stdin, process.stdout, process.stderr):
        _PIPES.add((stream.fileno(), os.fstat(stream.fileno()).st_ino))


def close_pipe(stream) -> None:
    """Close one of this process's ends of a program's pipes."""
    if not stream.closed:
        _PIPES.discard((stream.fileno(), os.fstat(stream.fileno()).st_ino))
    try:
        stream.close()
    except OSError:
        pass


_PIPES: set[tuple[int, int]] = set()  # (descriptor, inode) of this process's ends of its programs' pipes


def _hide_pipes_in_child() -> None:
    """In a child forked from this process (a sandbox, by another thread), point the descriptors of the
    programs' pipes at /dev/null: a copy of a program's standard input held there would keep the program
    from ever seeing its end, and it would be stopped as idle, depending on which thread forked when."""
    if not _PIPES:
        return
    null = os.open(os.devnull, os.O_RDWR)
    for fd, inode in _PIPES:  # not closed: the child's copies of the file objects will close these numbers
        try:
            if os.fstat(fd).st_ino == inode:  # still that pipe (a descriptor left unclosed may have a new use)
                os.dup2(null, fd, inheritable=False)
        except OSError:
            pass
    os.close(null)
    _PIPES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_hide_pipes_in_child)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
