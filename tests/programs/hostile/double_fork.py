"""Starts a child that forks a grandchild into a session of its own and exits (the classic daemon), then
answers and exits: the orphaned grandchild must not outlive the run."""

from _hostile import answer_each_request, options, start_child


def main() -> None:
    args = options()
    start_child("double", args.pids).wait()
    answer_each_request(args)


if __name__ == "__main__":
    main()
