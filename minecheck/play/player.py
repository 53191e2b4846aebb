"""The player contract: what plays a game, and the decision it makes on one view.

A player sees the board (never the hidden mines) and answers with a *decision*: one or more
moves, all made on that view.  A player may carry state from one decision to the next (the
articles' players keep one random stream for a whole game); the state is plain data, returned
with each decision and handed back with the next view, so any decision replays alone from its
view and the state before it.  A state that names cells (004's demo keeps its variable map) is
carried onto a cropped board by the player's optional ``relocate``; shrinking crops boards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from minecheck.model.answers import SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.play.game import Move

State = object  # a player's state between decisions: ints, strings and tuples (JSON lists read back as tuples)


@dataclass(frozen=True)
class Decision:
    """The moves a player made on one view, its state after them, and what its solver answered."""

    moves: tuple[Move, ...]
    state: State
    result: SolverResult | None = None  # the solver's answer behind the moves, for the report
    error: str | None = None  # the solver raised or ran out of time: the player loses the game
    seconds: float = 0.0
    note: str = ""  # why there is no move, when there is none


@runtime_checkable
class Player(Protocol):
    name: str

    def start(self, seed: int) -> State:
        """The state at the start of a game whose seed is ``seed``."""
        ...

    def decide(self, board: Board, state: State, budget: Budget | None = None) -> Decision:
        """The moves on this view; a solver it calls runs within ``budget`` (None: in this process)."""
        ...


def relocated(player: Player, state: State, where: Callable[[int], int | None]) -> State:
    """The state on a board whose cells moved (``where``: a cell's new index, None when it is gone);
    a player whose state names no cells has no ``relocate`` and keeps its state."""
    relocate = getattr(player, "relocate", None)
    return relocate(state, where) if relocate is not None else state
