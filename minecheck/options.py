"""Command-line option types: a number is checked where it is typed, so a bad one is refused with the
option's name (exit 2) before any work, never taken and turned into a finding on every board."""

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
