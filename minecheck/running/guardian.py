"""The guardian of a ``cmd:`` program: a small Python process, a subreaper, that starts the program and outlives it.

Whatever the program starts - children, grandchildren, new sessions - stays below it and is killed and waited
for when the program ends, when minecheck stops it, and when minecheck's process dies (even by SIGKILL: the
guardian notices its parent change; the program dies with the guardian by PR_SET_PDEATHSIG).  It runs as a fresh
``python -I -S -c CODE`` (``code``: the source of ``minecheck.running.reaper`` and of ``guardian``), so it starts
in milliseconds and nothing of minecheck or of the environment's Python settings is loaded.
"""

from __future__ import annotations

from functools import cache

from minecheck.running import reaper
from minecheck.running.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, end_descendants, prctl, reap_ended


@cache
def code() -> str:
    """The guardian's program: the source of ``minecheck.running.reaper`` and of ``guardian``, run alone by a
    fresh ``python -I -S`` (so it starts in milliseconds and nothing of minecheck or of the environment's
    Python settings is loaded)."""
    import inspect
    import textwrap

    return inspect.getsource(reaper) + "\n\n" + textwrap.dedent(inspect.getsource(guardian)) + "\nguardian()\n"


def guardian() -> None:  # pragma: no cover - runs in the guardian process (its tests are the hostile programs)
    """Run ``argv[4:]`` and outlive it: ``python -c CODE OWNER REPORT_FD USER PROGRAM [ARGS...]``.

    A subreaper, so every process the program starts stays below it; when the program ends, when
    asked to (SIGTERM) or when its owner is gone (its parent changes), it kills all of them, waits for
    each, and exits as the program did.  REPORT_FD receives a line: "0" once the program runs, or the
    errno of a failed exec.  USER is the unprivileged user the program starts as (``-``: the guardian's own),
    where minecheck runs as root (``jail.Plan.uid``).  Its own standard streams go to /dev/null: the pipes are the
    program's alone.
    """
    import _signal as signal  # the C module behind ``signal``: without its enums, this starts in 2/3 of the time
    import os
    import sys

    def execute(argv: list[str]) -> None:
        """os.execvp, searching PATH the same way, without the import of ``warnings`` it makes."""
        if os.sep in argv[0]:
            os.execv(argv[0], argv)
        first = last = None
        for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
            try:
                os.execv(os.path.join(folder, argv[0]), argv)
            except (FileNotFoundError, NotADirectoryError) as err:
                last = err
            except OSError as err:  # found, but not runnable: the error to report, unless another one runs
                last, first = err, first or err
        raise first or last or FileNotFoundError(2, "No such file or directory")

    owner, report, user, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # the program's orphans come here
    awaited = {signal.SIGCHLD, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, awaited)  # taken by sigtimedwait below, never by a handler
    me = os.getpid()
    if os.getppid() != owner:  # the owner died while this started
        os._exit(1)
    failed_read, failed_write = os.pipe()  # closed by a successful exec (close-on-exec), else carries errno
    program = os.fork()
    if program == 0:
        try:
            os.close(failed_read)
            os.close(report)
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            for ignored in (signal.SIGPIPE, signal.SIGXFSZ):  # ignored by Python; a program expects them default
                signal.signal(ignored, signal.SIG_DFL)
            if user != "-":  # an unprivileged user, before the request below (a change of user clears it)
                os.setgroups([])
                os.setresgid(int(user), int(user), int(user))
                os.setresuid(int(user), int(user), int(user))
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the program dies with its guardian
            if os.getppid() == me:
                execute(argv)
        except OSError as err:
            os.write(failed_write, str(err.errno or 0).encode())
        os._exit(127)
    os.close(failed_write)
    failed = os.read(failed_read, 32)
    os.close(failed_read)
    try:
        os.write(report, (failed or b"0") + b"\n")
        os.close(report)
    except OSError:  # the owner is gone: the loop below sees it
        pass
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    status = None

    def record(pid: int, code: int) -> None:
        nonlocal status
        if pid == program:
            status = code

    while reap_ended(record) and status is None and os.getppid() == owner:
        signalled = signal.sigtimedwait(awaited, 0.25)
        if signalled is not None and signalled.si_signo == signal.SIGTERM:
            break
    end_descendants(5.0, record)  # the program's whole tree, orphans and new sessions included
    if status is None or not os.WIFSIGNALED(status):
        os._exit(1 if status is None else os.waitstatus_to_exitcode(status))
    import resource

    sig = os.WTERMSIG(status)  # end as the program did: by the same signal, without a core of this process
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    try:
        signal.signal(sig, signal.SIG_DFL)
    except (OSError, ValueError):
        pass
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
    os.kill(me, sig)
    os._exit(128 + sig)
