"""Benchmark: what reading a sandbox's answers as JSON (``minecheck.running.messages``) costs, beside the pickle
they crossed as before issue 48, on the exact counter's answers to boards small and large.

    python bench/crossing.py [--repeats 15]

Side by side in one run, alternating: for each board, the exact answer (probabilities as exact fractions, the
count) wrapped in an outcome is made into a message and read back, (a) as JSON checked by the schema's
``outcome`` definition, (b) as a pickle read by an unpickler admitting only plain data and minecheck's own types
(the yardstick: how the answers crossed before).  Medians of the round trips, and the message's size.
"""

from __future__ import annotations

import argparse
import io
import pickle
import statistics
import time

from minecheck.boards.generators import generate_board
from minecheck.boards.recipe import Recipe
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.numbers import lift_digit_limit
from minecheck.running.messages import decode_outcome, encode_outcome
from minecheck.running.stops import Outcome
from minecheck.solvers.exact import ExactSolver


class _PlainUnpickler(pickle.Unpickler):
    """The yardstick: builtins, exact numbers and minecheck's own classes only."""

    def find_class(self, module: str, name: str):
        if module in ("builtins", "fractions") or module.startswith("minecheck"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name}")


def as_json(outcome: Outcome) -> tuple[int, object]:
    data = encode_outcome(outcome)
    return len(data), decode_outcome(data)


def as_pickle(outcome: Outcome) -> tuple[int, object]:
    data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data), _PlainUnpickler(io.BytesIO(data)).load()


def boards() -> dict[str, object]:
    out = {"3x2 (a board of the tutorial)": parse_board("HHH\n121")}
    for width, height in ((16, 16), (30, 16), (60, 60)):
        recipe = Recipe("reveal", (("width", width), ("height", height), ("density", 0.15), ("open_prob", 0.5)), 7)
        out[f"{width}x{height}, reveal"] = generate_board(recipe)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    lift_digit_limit()
    print(f"{'board':<32} {'cells':>6} {'JSON':>10} {'pickle':>10} {'ratio':>6} {'bytes JSON':>11} {'pickle':>9}")
    for name, board in boards().items():
        result = ExactSolver().solve(board, Mode.LOCAL)
        outcome = Outcome(value=result, cpu=0.01, wall=0.02)
        assert as_json(outcome)[1] == outcome and as_pickle(outcome)[1] == outcome
        times: dict[str, list[float]] = {"json": [], "pickle": []}
        for _ in range(args.repeats):
            for how, trip in (("json", as_json), ("pickle", as_pickle)):
                start = time.perf_counter()
                size = trip(outcome)[0]
                times[how].append(time.perf_counter() - start)
                if how == "json":
                    json_size = size
                else:
                    pickle_size = size
        j, p = statistics.median(times["json"]), statistics.median(times["pickle"])
        print(f"{name:<32} {len(result.cells):>6} {j * 1000:>8.3f}ms {p * 1000:>8.3f}ms {j / p:>6.2f} "
              f"{json_size:>11} {pickle_size:>9}")


if __name__ == "__main__":
    main()
