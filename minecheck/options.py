"""Command-line option types, and the budget's options every command that runs solvers shares: a number is
checked where it is typed, so a bad one is refused with the option's name (exit 2) before any work, never
taken and turned into a finding on every board."""

from __future__ import annotations

import argparse
import math


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
