"""Win rates with their uncertainty: the Wilson score interval, and a run's table of them.

Wilson's interval (1927) inverts the normal test of a proportion instead of putting a normal
curve around the observed rate, so it stays inside [0, 1] and keeps close to its nominal
coverage at rates near 0 or 1 and for small samples, where the textbook p +- z sqrt(p(1-p)/n)
does not (Brown, Cai and DasGupta 2001).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games``; (0, 1) when there are no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2n = z * z / games
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * sqrt(p * (1 - p) / games + z2n / (4 * games))
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not rounding noise
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class WinRate:
    """One player's games in a run: wins, the interval, speed, and what the cross-check found."""

    player: str
    games: int
    wins: int
    errors: int  # games lost because the player crashed, hung or died
    play_seconds: float  # in the player's decisions
    check_seconds: float  # in the cross-check of those decisions
    decision_findings: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def games_per_s(self) -> float:
        """Games one worker plays per second, cross-check included."""
        spent = self.play_seconds + self.check_seconds
        return self.games / spent if spent > 0 else 0.0

    @property
    def check_share(self) -> float:
        spent = self.play_seconds + self.check_seconds
        return self.check_seconds / spent if spent > 0 else 0.0

    def as_json(self) -> dict:
        lo, hi = self.interval
        return {"games": self.games, "wins": self.wins, "win_rate": round(self.rate, 6),
                "ci95": [round(lo, 6), round(hi, 6)], "games_per_s": round(self.games_per_s, 4),
                "decision_findings": self.decision_findings, "errors": self.errors,
                "check_share": round(self.check_share, 4)}
