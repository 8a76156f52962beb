"""World sampling speed: microseconds per world of ``goat.sample_world`` and ``WorldSampler.fast``.

    python benchmarks/worlds.py [--views N] [--calls C] [--repeat R] [--seed S]

The views are those of the seat to move in seeded greedy-vs-greedy games, taken
in turn with at most 12 cards left in the stock, at most 4, and none (with at
most 3 cards in each hand): mid-game views.  For each view the script times ``goat.sample_world(view, rng)`` called
again and again with the same view object (as a search or a resampling adapter
calls it), and ``WorldSampler(view).fast(rng)`` on one sampler (as ISMCTS calls
it), both in this one process, in ``--repeat`` batches of ``--calls`` calls; it
prints each batch's mean per call, the median over batches, per view, and the
median over views.  It names the core that ran; run it with
``GOAT_PURE_PYTHON=1`` for the pure-Python core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import goat
from goat.bots.worlds import WorldSampler

# Where in a game the views are taken, in turn: (most cards left in the stock, most cards left in each hand).
STAGES = ((12, 4), (4, 4), (0, 3))


def mid_game_views(count: int, seed: int) -> list[goat.PlayerView]:
    """Views of the seat to move at the first decision of each stage of :data:`STAGES`, from seeded greedy games."""
    views: list[goat.PlayerView] = []
    game = 0
    while len(views) < count:
        bots = [goat.load_strategy("greedy", seed=seed + seat) for seat in range(4)]
        state = goat.new_game(seed=seed + game)
        game += 1
        stock, hand = STAGES[len(views) % len(STAGES)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            seen = goat.view(state, seat)
            if seen.tricks and seen.stock_size <= stock and seen.hand_sizes[seat] <= hand and len(seen.legal_moves) > 1:
                views.append(seen)
                break
            state = goat.play(state, bots[seat].choose(seen, seen.legal_moves))
    return views


def per_call_us(call: Callable[[], object], calls: int, repeat: int) -> float:
    """The median over ``repeat`` batches of the mean microseconds of one ``call()`` in a batch of ``calls``."""
    call()  # warm: caches, the first analysis
    batches = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        batches.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(batches)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=9)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    views = mid_game_views(args.views, args.seed)
    info = goat.build_info()
    print(f"python {sys.version.split()[0]}, goat {goat.__version__}, core {info}")
    print(f"{len(views)} views; median of {args.repeat} batches of {args.calls} calls, microseconds per world")
    print(f"{'view':>4}  {'tricks':>6}  {'stock':>5}  {'hidden':>6}  {'sample_world':>12}  {'fast':>8}")
    sample_us, fast_us = [], []
    for n, seen in enumerate(views):
        rng = random.Random(args.seed + n)
        sampler = WorldSampler(seen)
        hidden = sum(1 for move in seen.history if move.hidden)
        one = per_call_us(lambda: goat.sample_world(seen, rng), args.calls, args.repeat)  # noqa: B023
        two = per_call_us(lambda: sampler.fast(rng), args.calls, args.repeat)  # noqa: B023
        sample_us.append(one)
        fast_us.append(two)
        print(f"{n:>4}  {len(seen.tricks):>6}  {seen.stock_size:>5}  {hidden:>6}  {one:>12.1f}  {two:>8.1f}")
    print(f"{'median':>30}  {statistics.median(sample_us):>12.1f}  {statistics.median(fast_us):>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
