"""Writes ``--mib`` MiB (default 200) to standard output or, with --stderr, to standard error, then answers.

On standard output it is no answer (the answer is capped); on standard error it is noise to drain and
discard, and the answer after it is a right one.
"""

import os
import sys

from _hostile import EMPTY, options

CHUNK = b"x" * 1023 + b"\n"


def main() -> None:
    args = options(("--mib", {"type": int, "default": 200}), ("--stderr", {"action": "store_true"}))
    if not args.persistent:
        sys.stdin.read()
    fd = 2 if args.stderr else 1
    block = CHUNK * 1024  # one MiB
    for _ in range(args.mib):
        view = memoryview(block)
        while view:
            view = view[os.write(fd, view):]
    print(EMPTY, flush=True)


if __name__ == "__main__":
    main()
