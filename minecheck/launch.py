"""The ``minecheck`` program's entry point: it loads the command line, so that a Ctrl-C while that loads ends
quietly too (a KeyboardInterrupt raised by an import of ``minecheck.cli`` itself printed a traceback)."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from minecheck.cli import main as run

        return run()
    except KeyboardInterrupt:  # before any command began: the command's own stop says more once it runs
        print("minecheck: stopped by Ctrl-C while starting; nothing was run", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
