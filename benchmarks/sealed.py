"""Overhead of sealed play: a decision round trip to a bot in a child process against the same bot in-process.

    python benchmarks/sealed.py [--games N]

Plays N games (default 200) of the ``random`` bot in all four seats twice, side by side in one process:
in-process, and sealed (each seat a child process speaking the bot protocol, served by this interpreter).
The bot's own work is the same both ways, so the difference per decision is what sealing costs: the view
encoded as JSON, the pipe both ways, the view read back in the child, the reply checked.  Reports medians
of 5 runs, per decision, and the per-match cost of starting four processes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import goat
from goat import arena
from goat.arena.sealed import ProcessStrategy, bot_command, import_path_env


def run(players: list[goat.Strategy], games: int, seed: int) -> tuple[float, int]:
    decisions = 0
    started = time.perf_counter()
    for number in range(games):
        record = arena.play_game(players, seed=seed + number, time_limit=None)
        decisions += len(record.moves)
    return time.perf_counter() - started, decisions


# Each game also sends every seat a start_game and an end_game: 8 round trips besides the decisions.
HOOKS_PER_GAME = 8


def sealed(seat: int) -> ProcessStrategy:
    return ProcessStrategy(bot_command("random"), seed=seat, env=import_path_env())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    inside, outside, starts, per_message = [], [], [], []
    for run_number in range(args.runs):
        seed = 1000 * run_number
        seconds, decisions = run([goat.load_strategy("random", seed=s) for s in range(4)], args.games, seed)
        inside.append(seconds / decisions)
        bots = [sealed(s) for s in range(4)]
        started = time.perf_counter()
        for seat, bot in enumerate(bots):
            bot.hello(seat)
        starts.append(time.perf_counter() - started)
        # play_game closes its bots after each game; a match keeps them, so reuse them here as a match would
        sealed_seconds, decisions = _match_like(bots, args.games, seed)
        outside.append(sealed_seconds / decisions)
        per_message.append((sealed_seconds - inside[-1] * decisions) / (decisions + HOOKS_PER_GAME * args.games))
    a, b = statistics.median(inside), statistics.median(outside)
    print(
        f"python {sys.version.split()[0]}, goat {goat.__version__}, {args.games} games x {args.runs} runs, random bots"
    )
    print(f"in-process      {a * 1e6:8.1f} us per decision")
    print(f"sealed          {b * 1e6:8.1f} us per decision")
    print(f"overhead        {(b - a) * 1e6:8.1f} us per decision, hooks included ({b / a:.1f}x)")
    print(f"round trip      {statistics.median(per_message) * 1e6:8.1f} us per message answered (decisions and hooks)")
    print(f"start 4 bots    {statistics.median(starts) * 1e3:8.1f} ms per match (processes started and greeted)")


def _match_like(bots: list[ProcessStrategy], games: int, seed: int) -> tuple[float, int]:
    from goat.arena.game import _play
    from goat.arena.seats import SealedSeat

    seats = [SealedSeat(bot, None) for bot in bots]
    decisions = 0
    started = time.perf_counter()
    try:
        for number in range(games):
            state = goat.new_game(seed=seed + number)
            import random

            record = _play(seats, state, seed=seed + number, on_fault="forfeit", names=None, rng=random.Random(0))
            decisions += len(record.moves)
    finally:
        for bot in bots:
            bot.close()
    return time.perf_counter() - started, decisions


if __name__ == "__main__":
    main()
