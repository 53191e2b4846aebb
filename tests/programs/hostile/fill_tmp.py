"""Fills its /tmp (``--mib`` MiB at most, 4096 by default) a MiB at a time until a write fails, keeps what it wrote,
and then computes until it is stopped: in a jail whose /tmp is RAM, only counting that /tmp in its memory stops
it at its memory budget (else it would be a CPU timeout, the RAM held until then)."""

import os

from _hostile import options


def main() -> None:
    args = options(("--mib", {"type": int, "default": 4096}))
    block = b"x" * 2**20
    try:
        with open(f"/tmp/fill-{os.getpid()}", "wb") as f:
            for _ in range(args.mib):
                f.write(block)
                f.flush()
    except OSError:
        pass
    while True:  # computing, holding what it wrote
        sum(range(1000))


if __name__ == "__main__":
    main()
