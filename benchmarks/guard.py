"""What the in-process referee's guard costs per call of a bot: the check that the bot changed nothing it
was given (the legal moves, its view's plays, the 36 cards, the process's settings).

    python benchmarks/guard.py [--games N] [--runs R] [--against FILE]

Builds the guard (``goat.arena.seats._Guard``) and checks it after a call that changed nothing, at every
decision of N random games (default 10), the seat to move's view; prints the median over R runs (default 5)
of the microseconds per guarded call.  ``--against FILE`` measures another version of ``goat/arena/seats.py``
side by side, alternating, e.g. the one before this file was written::

    git show 30d32e6:goat/arena/seats.py > /tmp/old_seats.py
    python benchmarks/guard.py --against /tmp/old_seats.py
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import timeit
from types import ModuleType

import goat
import goat.arena.seats as current


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("seats_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="another goat/arena/seats.py to measure side by side")
    args = parser.parse_args()
    rng = random.Random(1)
    asked = []
    for game in range(args.games):
        state = goat.new_game(seed=game)
        while not state.is_over:
            legal = goat.legal_moves(state)
            seat = state.to_move
            assert seat is not None
            asked.append((goat.view(state, seat), legal))
            state = goat.play(state, rng.choice(legal))
    versions = {"this version": current}
    if args.against:
        versions[args.against] = load(args.against)
    times: dict[str, list[float]] = {name: [] for name in versions}
    for _ in range(args.runs):
        for name, module in versions.items():

            def guarded(m: ModuleType = module) -> None:
                for seen, legal in asked:
                    m._Guard(seen, legal).restore()

            best = min(timeit.repeat(guarded, number=2, repeat=3))
            times[name].append(best / 2 / len(asked) * 1e6)
    print(f"{len(asked)} guarded calls (every decision of {args.games} random games), {args.runs} runs")
    for name, found in times.items():
        spread = f"{min(found):.1f}-{max(found):.1f}"
        print(f"{name:<24} {statistics.median(found):7.1f} us per guarded call (median; {spread})")


if __name__ == "__main__":
    main()
