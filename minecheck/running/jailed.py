"""A sandbox served from bubblewrap's jail: how a Python solver that is not minecheck's own runs (``hosted``).

It is not forked from a worker, where it would share the worker's user, files, descriptors and processes: its
sandbox starts bubblewrap (``jail.python_plan``), which runs ``python -m minecheck.running.jailed READ WRITE`` in
namespaces of its own, as an unprivileged user where minecheck runs as root, with only the environment
``jail.environment`` allows, its private /tmp sized to its memory budget, its standard output and error on a pipe
minecheck reads (``output``), and open only its channel and the shared word a batch reports its progress in.
The sandbox sends the import path, then the object to serve (both pickled by minecheck: trusted, see
``messages``), and the calls follow as in a forked sandbox (``serving.serve``); what comes back is data.
"""

from __future__ import annotations

import os
import pickle
import sys

from minecheck.model.numbers import lift_digit_limit
from minecheck.running import jail
from minecheck.running.messages import Channel, channel_pair
from minecheck.running.proctree import FORK_LOCK
from minecheck.running.serving import die_with_parent, serve


def start(owner: object, tmp_mib: int | None) -> tuple[int, Channel, int] | None:
    """Start bubblewrap serving ``owner``: its id, the caller's end of its channel and the read end of its output's
    pipe; None, starting nothing, where there is no jail (``jail`` has said why, once)."""
    parent, child = channel_pair()
    fds = (child.read_fd, child.write_fd, *getattr(owner, "shared_fds", ()))
    planned = jail.python_plan(fds, tuple(getattr(owner, "writable", ())), tuple(getattr(owner, "reads", ())),
                               tmp_mib)
    if planned is None:
        parent.close()
        child.close()
        return None
    environment = jail.environment(tuple(getattr(owner, "env", ())))
    caller = os.getpid()
    with FORK_LOCK:
        out_read, out_write = os.pipe()
        pid = os.fork()
    if pid == 0:  # bubblewrap, with only the channel, the shared memory and its output's pipe open
        try:
            os.setpgid(0, 0)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(out_write, 1)
            os.dup2(out_write, 2)
            if planned.uid is not None:  # an unprivileged user outside the jail too (minecheck runs as root)
                os.setgroups([])
                os.setresgid(planned.uid, planned.uid, planned.uid)
                os.setresuid(planned.uid, planned.uid, planned.uid)
            die_with_parent(caller)  # after the change of user, which clears the request
            for fd in fds:
                os.set_inheritable(fd, True)
            os.closerange(3, min(fds))
            for low, high in zip(sorted(fds), sorted(fds)[1:] + [os.sysconf("SC_OPEN_MAX")]):
                os.closerange(low + 1, high)
            os.execve(planned.argv[0], planned.argv, environment)
        finally:
            os._exit(70)
    child.close()
    os.close(out_write)
    os.set_blocking(out_read, False)
    try:
        os.setpgid(pid, pid)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        parent.send(pickle.dumps(list(sys.path)))
        parent.send(pickle.dumps(owner))
    except OSError:
        pass  # the first call finds the channel closed, and says how the process ended
    return pid, parent, out_read


def main(argv: list[str]) -> None:
    """In the jail: read the import path and the object to serve, then serve its calls."""
    lift_digit_limit()
    conn = Channel(int(argv[0]), int(argv[1]))
    try:
        sys.path[:] = pickle.loads(conn.recv())
        owner = pickle.loads(conn.recv())
    except (EOFError, OSError):
        os._exit(0)  # the sandbox was closed before it was served
    serve(conn, owner, None)


if __name__ == "__main__":
    code = 0
    try:
        main(sys.argv[1:])
    except BaseException as err:  # noqa: BLE001 - the sandbox reads the end of its channel, not a traceback
        print(f"minecheck: the jailed sandbox ended: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        code = 70
    os._exit(code)
