"""A sandbox forked from the calling thread: how minecheck's own solvers and references run, and a solver not
minecheck's own where bubblewrap's jail cannot be had (``jail`` says why, and ``minecheck solvers`` says so).

The child inherits the object it serves (nothing is sent to it), so whatever a solver changes in its interpreter
stays in its own child.  Its children go in PID, mount and network namespaces of their own where Linux allows
(``namespace``): no process of minecheck has a number there.  A child serving code not minecheck's own also gets
a pipe for its standard output and error (``output``), and the environment a jailed solver would get
(``jail.environment``); it still shares the worker's user and files, which only the jail takes away.
"""

from __future__ import annotations

import os
import signal

from minecheck.running import namespace
from minecheck.running.messages import Channel, channel_pair
from minecheck.running.proctree import FORK_LOCK
from minecheck.running.reaper import PR_SET_PDEATHSIG, prctl
from minecheck.running.serving import die_with_parent, serve


def start(owner: object, environment: dict[str, str] | None = None) -> tuple[int, Channel, int | None]:
    """Fork the child that serves ``owner``: its id, the caller's end of its channel, and the read end of its
    output's pipe (``environment`` given: an untrusted owner, served with that environment and that pipe)."""
    caller = os.getpid()
    with FORK_LOCK:  # no other thread's child is forked holding this child's end of the channel or pipe
        fenced = namespace.enter_allowed()
        parent, child = channel_pair()
        out_read, out_write = os.pipe() if environment is not None else (None, None)
        pid = os.fork()
        if pid != 0:
            child.close()
            if out_write is not None:
                os.close(out_write)
    if pid == 0:  # the child: serve calls until the caller goes away
        parent.close()
        code = 0
        try:
            if environment is not None:
                _own_streams(out_read, out_write, environment)
            if fenced and namespace.enter():
                _serve_in_namespace(child, owner, caller)
            else:
                serve(child, owner, caller)
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            code = 70
        finally:
            os._exit(code)
    if out_read is not None:
        os.set_blocking(out_read, False)
    try:
        os.setpgid(pid, pid)  # also done in the child; whichever runs first wins the race
    except (ProcessLookupError, PermissionError):
        pass
    return pid, parent, out_read


def _own_streams(out_read: int, out_write: int, environment: dict[str, str]) -> None:
    """In the child of an untrusted owner: standard output and error on the pipe, nothing to read on standard
    input, and only the environment it is allowed."""
    os.close(out_read)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(out_write, 1)
    os.dup2(out_write, 2)
    os.close(out_write)
    os.environ.clear()
    os.environ.update(environment)


def _serve_in_namespace(conn: Channel, owner: object, caller: int) -> None:
    """The sandbox's child, its children in a PID namespace of their own (``minecheck.running.namespace``):
    fork the namespace's init, which forks the process that serves the calls; end as that one ends."""
    die_with_parent(caller)
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init = os.fork()
    if init == 0:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the namespace (and all in it) ends with this child
        namespace.mount_proc()
        server = os.fork()
        if server == 0:
            serve(conn, owner, None)
            os._exit(0)
        conn.close()
        namespace.run_init(server)
    conn.close()  # only the serving process holds the channel: its end is the channel's end
    namespace.exit_as(namespace.wait_for(init))
