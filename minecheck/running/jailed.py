"""The process that serves a Python solver's sandbox from inside the jail (``running.jail.python_command``).

A solver that is not minecheck's own (``running.hosted``) is not forked from a worker, where it would share
the worker's user, files and processes: its sandbox starts bubblewrap, which runs
``python -m minecheck.running.jailed READ WRITE`` in namespaces of its own.  The sandbox sends the import path,
then the object to serve (pickled by minecheck: trusted), and the calls follow as in a forked sandbox
(``running.sandbox.serve``); what goes back is read as untrusted.
"""

from __future__ import annotations

import os
import sys

from minecheck.running.sandbox import Channel, serve


def main(argv: list[str]) -> None:
    conn = Channel(int(argv[0]), int(argv[1]))
    try:
        sys.path[:] = conn.recv()
        owner = conn.recv()
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
