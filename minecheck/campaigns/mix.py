"""The default mix: which kind of board each slot of a campaign is, in a period of 51 boards (docs/campaigns.md, "The
boards"; how soon each defect shows: docs/reach.md).

Twenty slots walk the small sweep (``small:WALK``, in the order of ``boards.small.small_walk``, its first boards
visited in ``WALK_FIRST``'s order), the same boards in every campaign and checked in a blink.  Four are the
campaign's search (``SEARCH_SLOTS``, ``campaigns.search``): the boards a subject came closest to being wrong on,
changed; a slot with nothing to search keeps the walk board it would have had.  The others are drawn from the
campaign's seed:

* the deep reveal (board 1: 5,000 to 10,000 layouts), the wide numeric board (board 3: past 1000 columns, every
  numeric edge), a guess position of 8 to 12 cells (board 4), a digit no layout meets (boards 5, 16 and 28), the
  4x5 reveal (board 9): each the first to show some row of the reach table, so among the first ten;
* the positions real engines are asked (issue 51, ``boards.positions``): a finished game (board 11), an endgame
  (18), a position the total decides (23), and a first click on a large board, 1,000 covered cells or more
  (47: after the README's forty boards);
* samples of 8 to 12 cells (12, 26), games without flags (beginner at 14, intermediate at 29), a played guess
  position (36), reveals with thousands of layouts (13, 22, 34), swarm boards (19, 31), real games at each level
  (25, 41, 45), the other boards people forget (edge, 37), an impossible board (43), a numeric edge the seed picks
  (49).

The walk's first boards are those that each first show some row of docs/reach.md: walk board 1 (5x1x2/F102H, board
0) and 74 (2x1x1/F0, board 2: a finished position with its total, impossible), then 124 (3x1x1/Hm1: an endgame the
total decides), 4 (2x2x2/FH/12), 5 (1x1/H) and 56 (1x1x0/1); the walk goes on in its own order from its board 0.
"""

from __future__ import annotations

WALK = 7
Entry = tuple[str, tuple[tuple[str, object], ...]]
SMALL: Entry = ("small", ())
SEARCH: Entry = ("search", ())  # a search slot (campaigns.search); the walk board of its step when nothing is near
MANY_LAYOUTS: Entry = ("reveal", (("density", 0.2), ("height", 10), ("open_prob", 0.35), ("width", 12)))
# The same, drawn until it has 5,000 to 10,000 layouts: enough to overflow a search that recurses once per
# model (article 004's Java overflows past 4,371), few enough for one that enumerates them to finish.
DEEP: Entry = ("reveal", tuple(sorted(MANY_LAYOUTS[1] + (("fewest_layouts", 5000), ("most_layouts", 10000)))))
DIGIT_CHANGED: Entry = ("contradict", (("change", "digit"),))  # a digit no layout meets (a total: the walk has them)
NUMERIC_WIDE: Entry = ("numeric", (("edge", "wide"),))  # past 1000 columns, as the wide edge board, every numeric edge
NUMERIC: Entry = ("numeric", ())  # the seed picks the edge
GUESS: Entry = ("guess", ())  # must guess, 10 to 1,000 layouts, proved mines covered
SAMPLE: Entry = ("sample", ())  # 8 to 12 cells
GUESS_SAMPLE: Entry = ("sample", (("guess", True),))  # 8 to 12 cells, drawn until the player must guess, as on GUESS
NO_FLAGS: Entry = ("play", (("flags", False), ("level", "beginner")))  # a game as a player without flags leaves it
NO_FLAGS_INTERMEDIATE: Entry = ("play", (("flags", False), ("level", "intermediate")))
REVEAL_4X5: Entry = ("reveal", (("height", 4), ("width", 5)))
SWARM: Entry = ("swarm", ())
FINISHED: Entry = ("finished", ())
ENDGAME: Entry = ("endgame", ())
DECIDED: Entry = ("decided", ())
OPENING: Entry = ("opening", ())
MIX: tuple[Entry, ...] = (
    SMALL, DEEP, SMALL, NUMERIC_WIDE, GUESS_SAMPLE, DIGIT_CHANGED, SMALL, SMALL, SMALL, REVEAL_4X5,  # 0-9
    SMALL, FINISHED, SAMPLE, MANY_LAYOUTS, NO_FLAGS, SMALL, DIGIT_CHANGED, SMALL, ENDGAME, SWARM,  # 10-19
    SEARCH, SMALL, MANY_LAYOUTS, DECIDED, SMALL, ("play", (("level", "beginner"),)), SAMPLE, SMALL,  # 20-27
    DIGIT_CHANGED, NO_FLAGS_INTERMEDIATE, SMALL, SWARM, SEARCH, SMALL, MANY_LAYOUTS, SMALL, GUESS,  # 28-36
    ("edge", ()), SMALL, SMALL, SEARCH, ("play", (("level", "intermediate"),)), SMALL, ("contradict", ()),  # 37-43
    SMALL, ("play", (("level", "expert"),)), SEARCH, OPENING, SMALL, NUMERIC, SMALL,  # 44-50
)
SEARCH_SLOTS = tuple(i for i, entry in enumerate(MIX) if entry == SEARCH)
WALK_FIRST = (1, 74, 124, 4, 5, 56)  # the walk boards the mix visits first, in this order (see the module)


def walk_step(index: int) -> int:
    """Which board of the walk mix board ``index`` is (a SMALL or SEARCH slot): the walk slots before it (past the
    walk's last board, a million boards into a campaign, it starts again)."""
    walks = [i for i, entry in enumerate(MIX) if entry in (SMALL, SEARCH)]
    return index // len(MIX) * len(walks) + sum(1 for i in walks if i < index % len(MIX))


def walk_board(step: int) -> int:
    """Which board of the walk the mix visits at walk ``step``: WALK_FIRST, then the walk in its own order without
    them."""
    if step < len(WALK_FIRST):
        return WALK_FIRST[step]
    k = step - len(WALK_FIRST)
    for first in sorted(WALK_FIRST):  # the k-th walk board not in WALK_FIRST
        if first <= k:
            k += 1
    return k


def is_search_slot(index: int) -> bool:
    return index % len(MIX) in SEARCH_SLOTS


def search_turn(index: int) -> int:
    """How many search slots come before board ``index`` (a search slot): the turn it takes among the targets."""
    return index // len(MIX) * len(SEARCH_SLOTS) + SEARCH_SLOTS.index(index % len(MIX))
