"""goat.batch against the scalar engine: decisions per second on one core, re-deal cost, memory per game.

Run:  python benchmarks/batch.py [--games 10000] [--steps 200] [--repeat 7] [--scalar-games 2000]

A *decision* is one legal-action mask, one uniformly random choice and one step, for one game: exactly what a
random bot costs.  Four figures, each the median of ``--repeat`` runs (the machine is shared and noisy):

- **batch, auto-reset**: ``--games`` games in lockstep, ``sample`` then ``step(actions, redeal=stream)``
  every step, finished games dealt again at once from a seed stream — the loop that runs forever, molodka
  declarations, waits and re-deals included; warmed up first so that the games are at every stage of play;
- **batch, no re-deal**: the same games dealt once and played to the end, no dealing inside the timing;
- **scalar**: the engine's public API (``goat.legal_moves``, ``random.choice``, ``goat.play``), fresh games,
  run between the batch runs so that the ratio compares figures measured side by side;
- **dealing**: microseconds per seed for ``goat.batch`` to deal 8,192 seeds, and for ``random.Random``.

CPU time (``time.process_time``) is reported beside wall time: on a shared machine it is the steadier one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

import goat
from goat.batch import SeedStream, new_games
from goat.batch.deal import deal_decks, python_deck


def batch_autoreset(games: int, steps: int, seed: int) -> tuple[float, float, int, int]:
    """(wall s, cpu s, decisions, deals) for ``steps`` auto-reset steps of ``games`` games, after warm-up."""
    stream = SeedStream(seed << 32)
    batch = new_games(range(seed << 40, (seed << 40) + games))
    rng = np.random.default_rng(seed)
    for _ in range(120):  # spread the games over every stage of play
        batch = batch.step(batch.sample(rng), redeal=stream)
    dealt = stream.taken
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        actions = batch.sample(rng)
        decisions += int((actions >= 0).sum())
        batch = batch.step(actions, redeal=stream)
    return time.perf_counter() - wall, time.process_time() - cpu, decisions, stream.taken - dealt


def batch_to_the_end(games: int, seed: int) -> tuple[float, float, int]:
    """(wall s, cpu s, decisions) to play ``games`` fresh games to the end in one batch, no re-deal."""
    batch = new_games(range(seed << 36, (seed << 36) + games))
    rng = np.random.default_rng(seed)
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while not batch.all_over:
        actions = batch.sample(rng)
        decisions += int((actions >= 0).sum())
        batch = batch.step(actions)
    return time.perf_counter() - wall, time.process_time() - cpu, decisions


def scalar(games: int, seed: int) -> tuple[float, float, int]:
    """(wall s, cpu s, decisions) for ``games`` uniformly random games through the scalar engine."""
    rng = random.Random(seed)
    choice, legal_moves, play, new_game = rng.choice, goat.legal_moves, goat.play, goat.new_game
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for game in range(games):
        state = new_game(seed=(seed << 32) + game)
        while not state.is_over:
            state = play(state, choice(legal_moves(state)))
            decisions += 1
    return time.perf_counter() - wall, time.process_time() - cpu, decisions


def dealing(seed: int) -> tuple[float, float]:
    """Microseconds per seed (CPU): goat.batch's vectorized deal of 8,192 seeds, and random.Random's."""
    seeds = list(range(seed << 20, (seed << 20) + 8192))
    cpu = time.process_time()
    deal_decks(seeds)
    batch_us = (time.process_time() - cpu) / len(seeds) * 1e6
    cpu = time.process_time()
    for s in seeds[:2000]:
        python_deck(s)
    return batch_us, (time.process_time() - cpu) / 2000 * 1e6


def memory_per_game(games: int) -> tuple[float, float]:
    """Bytes per game of a batch's arrays, and of its action log per step kept (one byte per game)."""
    batch = new_games(range(games))
    batch = batch.step(batch.sample(np.random.default_rng(0)))
    return (batch.nbytes - games) / games, 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the batch (default 10000)")
    parser.add_argument("--steps", type=int, default=200, help="auto-reset steps per run (default 200)")
    parser.add_argument("--repeat", type=int, default=7, help="runs; medians are reported (default 7)")
    parser.add_argument("--scalar-games", type=int, default=2000, help="scalar games per run (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    auto, end, flat, deals = [], [], [], []
    for run in range(args.repeat):
        seed = args.seed + run
        wall, cpu, decisions, dealt = batch_autoreset(args.games, args.steps, seed)
        auto.append((decisions / wall, decisions / cpu, dealt / args.steps))
        wall, cpu, decisions = scalar(args.scalar_games, seed)
        flat.append((decisions / wall, decisions / cpu))
        wall, cpu, decisions = batch_to_the_end(args.games, seed)
        end.append((decisions / wall, decisions / cpu))
        deals.append(dealing(seed))

    def median(rows: list[tuple[float, ...]], column: int) -> float:
        return statistics.median(row[column] for row in rows)

    per_game, log = memory_per_game(args.games)
    ratios = [a[1] / s[1] for a, s in zip(auto, flat, strict=True)]
    whole = [e[1] / s[1] for e, s in zip(end, flat, strict=True)]
    build = goat.build_info() if hasattr(goat, "build_info") else "?"
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, goat {goat.__version__}, scalar core: {build}")
    print(f"{args.games} games in the batch, {args.steps} steps x {args.repeat} runs (medians)")
    print(f"{'':28s} {'decisions/s (wall)':>19s} {'decisions/s (cpu)':>18s}")
    print(f"{'batch, auto-reset':28s} {median(auto, 0):19,.0f} {median(auto, 1):18,.0f}")
    print(f"{'batch, no re-deal':28s} {median(end, 0):19,.0f} {median(end, 1):18,.0f}")
    print(f"{'scalar engine':28s} {median(flat, 0):19,.0f} {median(flat, 1):18,.0f}")
    both = f"{statistics.median(ratios):.1f}x auto-reset, {statistics.median(whole):.1f}x no re-deal"
    print(f"batch / scalar (cpu, run by run): {both}")
    print(f"re-deals per step: {median(auto, 2):.0f}")
    print(f"dealing: {median(deals, 0):.2f} us per seed in goat.batch, {median(deals, 1):.2f} us with random.Random")
    print(f"memory: {per_game:.0f} bytes per game, plus {log:.0f} byte per game per step of action log kept")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
