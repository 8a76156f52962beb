"""How fast game records are written and read: a JSON Lines file of N games, written and read one record at a time.

    python benchmarks/records.py [--games N]

Plays N random games (default 20,000; not timed), writes them with goat.records.write, then reads them back
with goat.records.read three ways: verifying every game (its replay, as loads does by default), without the
replay (verify=False), and headers only (read_headers). Memory stays flat whatever N: nothing holds the
whole file. Reports records per second, medians of 3 runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator

import goat
from goat import records


def games(count: int) -> Iterator[records.GameRecord]:
    rng = random.Random(1)
    for seed in range(count):
        state = goat.new_game(seed=seed)
        while not state.is_over:
            state = goat.play(state, rng.choice(goat.legal_moves(state)))
        yield records.from_state(state, seed=seed, players=("random",) * 4, headers={"event": "benchmark"})


def timed(action: object) -> float:
    started = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    made = list(games(args.games))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "games.jsonl")
        figures: dict[str, list[float]] = {"write": [], "read": [], "read, verify=False": [], "read_headers": []}
        for _ in range(3):
            with open(path, "w", encoding="utf-8") as file:
                figures["write"].append(timed(lambda file=file: records.write(file, made)))
            for name, reader in (
                ("read", lambda file: sum(1 for _ in records.read(file))),
                ("read, verify=False", lambda file: sum(1 for _ in records.read(file, verify=False))),
                ("read_headers", lambda file: sum(1 for _ in records.read_headers(file))),
            ):
                with open(path, "rb") as file:
                    figures[name].append(timed(lambda file=file, reader=reader: reader(file)))
        size = os.path.getsize(path)
    version = sys.version.split()[0]
    print(f"python {version}, goat {goat.__version__}, {args.games} games, {size / args.games:.0f} bytes each")
    for name, seconds in figures.items():
        rate = args.games / statistics.median(seconds)
        print(f"{name:<20} {rate:>10,.0f} records/s   (a million in {1e6 / rate / 60:.1f} min)")


if __name__ == "__main__":
    main()
