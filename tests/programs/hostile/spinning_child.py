"""Starts a child that computes forever (in a session of its own with --setsid, where a process group
does not see it) and sleeps: the child's CPU is the run's, so this is a CPU timeout, not an idle stop."""

import time

from _hostile import options, start_child


def main() -> None:
    args = options(("--setsid", {"action": "store_true"}))
    start_child("spin", args.pids, new_session=args.setsid)
    time.sleep(600)


if __name__ == "__main__":
    main()
