"""Starts a child that sleeps (its output detached), answers and exits: the child must not outlive the run."""

from _hostile import answer_each_request, options, start_child


def main() -> None:
    args = options()
    start_child("sleep", args.pids)
    answer_each_request(args)


if __name__ == "__main__":
    main()
