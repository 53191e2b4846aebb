"""Command-line option types, and the budget's options every command that runs solvers shares: a number is
checked where it is typed, so a bad one is refused with the option's name (exit 2) before any work, never
taken and turned into a finding on every board."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

from minecheck.model.errors import MinecheckError


class Stopped(MinecheckError):  # noqa: N818 - a stop, not an error
    """Ctrl-C in a command that knows what it leaves behind: the words say what it was doing and what is kept."""


def seconds(text: str) -> float:
    """A budget in seconds: positive and finite (0 would be no budget, which is not what anyone means)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a positive, finite number of seconds")
    return value


def positive(text: str) -> int:
    """A count that must be at least 1 (boards, games, jobs, MiB of memory)."""
    return _whole(text, 1)


def count(text: str) -> int:
    """A count that may be 0 (findings shrunk per signature)."""
    return _whole(text, 0)


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of at least {least}")
    return value


def add_budget_options(parser: argparse.ArgumentParser, what: str = "solver call") -> None:
    """The one budget's options, the same on every command that runs solvers (``minecheck.model.budget``)."""
    from minecheck.model.budget import DEFAULT_CPU, DEFAULT_MEMORY_MIB, DEFAULT_OUTPUT_MIB, IDLE_FLOOR

    group = parser.add_argument_group("budget of each " + what)
    group.add_argument("--timeout", type=seconds, default=DEFAULT_CPU, metavar="SECONDS",
                       help=f"CPU seconds before it is stopped (default {DEFAULT_CPU:g}): CPU time, not wall-clock, "
                            "so a busy machine stops the same solvers as a quiet one")
    group.add_argument("--memory", type=positive, default=DEFAULT_MEMORY_MIB, metavar="MIB",
                       help=f"memory it may use before it is stopped (default {DEFAULT_MEMORY_MIB} MiB)")
    group.add_argument("--idle", type=seconds, default=None, metavar="SECONDS",
                       help=f"seconds without using the CPU (blocked or asleep) before it is stopped (default: the "
                            f"CPU budget, at least {IDLE_FLOOR:g})")
    group.add_argument("--output", type=positive, default=DEFAULT_OUTPUT_MIB, metavar="MIB",
                       help=f"standard output a program may write per answer (default {DEFAULT_OUTPUT_MIB} MiB)")


def budget_of(args: argparse.Namespace):
    """The Budget the budget options give."""
    from minecheck.model.budget import Budget

    return Budget(cpu=args.timeout, memory_mib=args.memory, idle=args.idle, output_mib=args.output)


class CommandParser(argparse.ArgumentParser):
    """argparse as pytest and ruff users expect it: an error is one line naming the command it belongs to,
    with "did you mean" for a mistyped command or option, and the command's --help, never a page of usage."""

    def error(self, message: str):
        command = re.match(r"argument COMMAND: invalid choice: ('[^']*')", message)
        if command:
            message = f"unknown command {command.group(1)}" + self.suggestion(message)
        else:
            message += self.suggestion(message)
        print(f"{self.prog}: {message}; '{self.prog} --help' lists "
              f"{'the commands' if self.prog == 'minecheck' else 'its options'}", file=sys.stderr)
        self.exit(2)

    def suggestion(self, message: str) -> str:
        """" (did you mean ...?)" for the first mistyped command or option the message names."""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            known = re.findall(r"'([^']*)'", choice.group(2))
            return _close(choice.group(1), known)
        unknown = re.search(r"unrecognized arguments: (\S+)", message)
        if unknown and unknown.group(1).startswith("-"):
            return _close(unknown.group(1).split("=")[0], [o for a in self._actions for o in a.option_strings])
        return ""

    def unrecognized(self, extras: list[str]):
        """Arguments left over after parsing: the command's error, not the top level's."""
        self.error(f"unrecognized arguments: {' '.join(extras)}")


def chosen_seed(given: int | None, stored: Path | None = None) -> int:
    """The run's seed: the one given, else the one a run being resumed stored, else a new one, which is printed
    so that the same boards can be made again."""
    if given is not None:
        return given
    if stored is not None and stored.is_file():
        try:
            seed = json.loads(stored.read_text()).get("seed")
        except (OSError, ValueError, AttributeError):
            seed = None
        if isinstance(seed, int):
            return seed
    import random

    seed = random.SystemRandom().randrange(2**31)
    print(f"minecheck: seed {seed} (give --seed {seed} to make these boards again)", file=sys.stderr)
    return seed


def add_verbosity(parser: argparse.ArgumentParser) -> None:
    """-q and -v: less (no progress, the totals only) or more (each finding as it is found)."""
    parser.add_argument("-q", "--quiet", action="count", default=0, help="say less: no progress, only the totals")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="say more: each finding as it is found")


def _close(given: str, known: list[str]) -> str:
    from difflib import get_close_matches

    close = get_close_matches(given, known, n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""
