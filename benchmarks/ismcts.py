"""ISMCTS speed: simulations (iterations) per second and milliseconds per decision at several budgets.

    python benchmarks/ismcts.py [--decisions N] [--seed S]

Decisions are taken from seeded greedy-vs-greedy games at every stage of a game,
so the figures include the world sampling of mid- and late-game views.  One core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import goat
from goat.bots.ismcts import ISMCTSBot


def decision_views(count: int, seed: int) -> list[goat.PlayerView]:
    """Views of seats that must decide, with more than one legal move, from greedy games."""
    rng = random.Random(seed)
    views: list[goat.PlayerView] = []
    game = 0
    while len(views) < count:
        bots = [goat.load_strategy("greedy", seed=seed + seat) for seat in range(4)]
        state = goat.new_game(seed=seed + game)
        game += 1
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            seen = goat.view(state, seat)
            if len(seen.legal_moves) > 1 and rng.random() < 0.5:
                views.append(seen)
            state = goat.play(state, bots[seat].choose(seen, seen.legal_moves))
    return views[:count]


def measure(views: list[goat.PlayerView], **options: Any) -> tuple[float, float]:
    """Median simulations per second and milliseconds per decision of fresh ``ISMCTSBot(**options)`` over ``views``."""
    rates, times = [], []
    for seen in views:
        bot = ISMCTSBot(seed=1, **options)
        start = time.perf_counter()
        bot.choose(seen, seen.legal_moves)
        elapsed = time.perf_counter() - start
        rates.append(bot.last_iterations / elapsed)
        times.append(elapsed * 1000)
    return statistics.median(rates), statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    views = decision_views(args.decisions, args.seed)
    print(f"python {sys.version.split()[0]}, goat {goat.__version__}, {len(views)} decisions from greedy games")
    print(f"{'budget':>16}  {'simulations/s':>13}  {'ms/decision':>11}")
    for iterations in (100, 400, 1600):
        rate, ms = measure(views, iterations=iterations)
        print(f"{iterations:>6} iterations  {rate:>13,.0f}  {ms:>11.1f}")
    for budget in (5, 20, 50, 200):
        rate, ms = measure(views[: max(10, len(views) // (1 + budget // 50))], time_ms=budget)
        print(f"{budget:>9} ms/move  {rate:>13,.0f}  {ms:>11.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
