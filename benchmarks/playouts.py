"""Uniform-random full games through the public API only: the engine's hot path.

Run:  python benchmarks/playouts.py [--games N] [--seed S] [--repeat R]

A *decision* is one ``legal_moves`` call, one random choice and one ``play``
call, exactly what a random bot costs the engine.  The script prints games/s
and decisions/s (median of ``--repeat`` runs, as this machine is noisy), then
the per-call cost of ``legal_moves`` and ``play`` measured on recorded states,
and of ``view`` as a referee asks for it: the seat to move, at every decision of
fresh random games, the median over the 10th to 20th decisions (mid-game).  It
names the core that ran (``goat.build_info()``); run it with
``GOAT_PURE_PYTHON=1`` for the pure-Python core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import goat


def playouts(games: int, seed: int) -> tuple[float, int]:
    """Play ``games`` random games; return (seconds, decisions)."""
    rng = random.Random(seed)
    choice = rng.choice
    legal_moves, play, new_game = goat.legal_moves, goat.play, goat.new_game
    decisions = 0
    start = time.perf_counter()
    for game in range(games):
        state = new_game(seed=seed + game)
        while not state.is_over:
            state = play(state, choice(legal_moves(state)))
            decisions += 1
    return time.perf_counter() - start, decisions


def per_call(samples: int, seed: int) -> tuple[float, float, float]:
    """Median microseconds of legal_moves (uncached), play and view (mid-game), on states from random games."""
    rng = random.Random(seed)
    pairs = []
    game = 0
    while len(pairs) < samples:
        state = goat.new_game(seed=seed + 10_000 + game)
        game += 1
        while not state.is_over and len(pairs) < samples:
            move = rng.choice(goat.legal_moves(state))
            pairs.append((state, move))
            state = goat.play(state, move)
    legal_us = []
    play_us = []
    for state, move in pairs:
        clone = _clone(state)  # an equal state whose legal-moves cache is empty
        t0 = time.perf_counter()
        goat.legal_moves(clone)
        t1 = time.perf_counter()
        goat.play(state, move)
        t2 = time.perf_counter()
        legal_us.append((t1 - t0) * 1e6)
        play_us.append((t2 - t1) * 1e6)
    return statistics.median(legal_us), statistics.median(play_us), statistics.median(views(samples, seed))


def views(samples: int, seed: int) -> list[float]:
    """Microseconds of view(state, state.to_move) at decisions 10-19 of fresh games, viewing every decision."""
    rng = random.Random(seed)
    times = []
    game = 0
    while len(times) < samples:
        state = goat.new_game(seed=seed + 20_000 + game)
        game += 1
        decision = 0
        while not state.is_over:
            t0 = time.perf_counter()
            seen = goat.view(state, state.to_move)
            t1 = time.perf_counter()
            if 10 <= decision < 20:
                times.append((t1 - t0) * 1e6)
            state = goat.play(state, rng.choice(seen.legal_moves))
            decision += 1
    return times


def _clone(state: goat.GameState) -> goat.GameState:
    """An equal state with an empty legal-moves cache, rebuilt by replaying its history."""
    clone = goat.new_game(deck=state.deck, trump_card=state.trump_card, dealer=state.dealer, defeat=state.defeat)
    for move in state.history:
        clone = goat.play(clone, move)
    return clone


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per run (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=20000, help="states for the per-call figures")
    args = parser.parse_args(argv)
    # Every run deals fresh games (distinct seeds), so the engine's memo tables
    # help only as much as they would in one long simulation.
    playouts(200, 10**9 + args.seed)  # warm-up
    runs = [playouts(args.games, args.seed + run * args.games) for run in range(args.repeat)]
    seconds = statistics.median(s for s, _ in runs)
    print(f"python {sys.version.split()[0]}, goat {goat.__version__}, core {goat.build_info()}")
    print(f"{args.games} games x {args.repeat} runs")
    decisions = statistics.median(d for _, d in runs)
    print(f"games/s      {args.games / seconds:12,.0f}")
    print(f"decisions/s  {decisions / seconds:12,.0f}   ({decisions / args.games:.1f} decisions per game)")
    legal_us, play_us, view_us = per_call(args.samples, args.seed)
    print(f"legal_moves  {legal_us:9.2f} us per call (median, cache empty)")
    print(f"play         {play_us:9.2f} us per call (median)")
    print(f"view         {view_us:9.2f} us per call (median, mid-game, seat to move)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
