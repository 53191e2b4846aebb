"""Never reads its input and never answers: it sleeps, so it is stopped for idling."""

import time

from _hostile import options


def main() -> None:
    options()
    time.sleep(600)


if __name__ == "__main__":
    main()
