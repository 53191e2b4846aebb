"""Looks for secrets: every variable of its environment and the files ``/var/tmp/minecheck-secret-*`` (mode 600,
root's), and prints what it found to standard error before it fails: a finding's standard error is published."""

import glob
import os
import sys

from _hostile import options


def found() -> list[str]:
    """Every variable of the environment, and each secret file's content (or why it could not be read)."""
    out = [f"{k}={v}" for k, v in sorted(os.environ.items())]
    for path in glob.glob("/var/tmp/minecheck-secret-*"):
        try:
            with open(path) as f:
                out.append(f"{path}: {f.read()}")
        except OSError as err:
            out.append(f"{path}: {err.strerror}")
    return out


def main() -> None:
    options()
    print("\n".join(found()), file=sys.stderr, flush=True)
    sys.exit(1)


if __name__ == "__main__":
    main()
