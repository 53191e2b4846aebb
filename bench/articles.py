"""The articles' own programs: what they print, against what happened in their games.

    python bench/articles.py [--games N] [--demos N]

003's ``Main`` (ported in ``minecheck.play.players.articles``) on its own 100 Intermediate deals
(game g: ``MineBoard(16, 16, 40, g)``, ``MineAi(g, 400, 100)``):

* as printed: the wins Main counts (every game: the first move opens all cells before the mines
  are laid);
* with the first move's two lines swapped: the wins Main's rule counts (``hiddenCount() == 0``,
  every mine flagged) and the games really won (every safe cell open before a mine), and each
  game that was won but counted lost, with how it ended.

004's ``MinesweeperDemo.main`` for ``--demos`` seeds (its unseeded ``Random`` seeded): how often it
prints "AI获胜！" and how the other games really ended - a mine opened (the first click or later),
or no move left (every covered cell flagged) or the 100-step cap, which it also prints as
"AI踩到地雷" (stepped on a mine).
"""

from __future__ import annotations

import argparse
from collections import Counter

from minecheck.play.players.articles import WON, demo_004, main_003
from minecheck.play.winrate import wilson


def rate(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins}/{games} = {100 * wins / games:.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)"


def article_003(games: int) -> None:
    printed = [main_003(g) for g in range(games)]
    print(f"003 Main as printed: counts {rate(sum(p.counted_win for p in printed), games)} won; "
          f"games really played: {sum(len(p.moves) > 1 for p in printed)}; e.g. game 0: {printed[0].ending}")
    swapped = []
    for g in range(games):
        swapped.append(main_003(g, lay_first=True))
        print(f"  game {g}: {'won' if swapped[-1].safe_won else 'lost'}, Main counts "
              f"{'a win' if swapped[-1].counted_win else 'a loss'} ({swapped[-1].ending}; "
              f"{len(swapped[-1].moves) - 1} decisions)", flush=True)
    counted, won = sum(p.counted_win for p in swapped), sum(p.safe_won for p in swapped)
    print(f"003 Main with layMines before the first open: Main's rule counts {rate(counted, games)}; "
          f"really won {rate(won, games)}")
    for p in swapped:
        if p.safe_won and not p.counted_win:
            print(f"  game {p.seed}: every safe cell open, then {p.ending}")


def article_004(demos: int) -> None:
    played = [demo_004(s) for s in range(demos)]
    printed_won = sum(p.counted_win for p in played)
    endings = Counter(_kind(p.ending) for p in played if not p.counted_win)
    print(f"004 MinesweeperDemo: prints {WON} in {rate(printed_won, demos)}; the rest print "
          f"'AI踩到地雷，游戏失败。' and ended: " + ", ".join(f"{k} {n}" for k, n in endings.most_common()))


def _kind(ending: str) -> str:
    if ending.startswith("the first click"):
        return "first click on a mine"
    if ending.startswith("opened a mine"):
        return "a later mine"
    return ending


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="003's games (default 100, as its Main)")
    parser.add_argument("--demos", type=int, default=1000, help="004's demo games (default 1000)")
    args = parser.parse_args()
    article_004(args.demos)
    article_003(args.games)


if __name__ == "__main__":
    main()
