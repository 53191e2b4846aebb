"""A persistent program that answers every request, then ignores the end of its input and sleeps on,
with a child asleep too: both must end with the campaign (or when the solver is closed)."""

import sys
import time

from _hostile import EMPTY, options, start_child


def main() -> None:
    args = options()
    start_child("sleep", args.pids)
    for _ in sys.stdin:
        print(EMPTY, flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main()
