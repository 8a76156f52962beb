"""What a tournament costs beyond playing its matches: the share of its time spent outside play.

    python benchmarks/tournament.py [--matches N] [--runs R]

Runs a tournament of random against greedy, in-process, on an executor that runs every job at once in this
process (so that one clock sees all of it), and times the calls of ``play_match`` inside it.  Everything else
— planning, the probe, building four bots per match (``load_strategy``), summarising outcomes, the results
table — is the overhead.  Random and greedy bots are the cheapest there are, so this is the worst case: with
bots that think, the share is smaller.  Reports the median over R runs of the overhead's share and the
milliseconds per match outside play.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

import goat
from goat.arena import tournament

T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs each job when it is submitted, in this process: one clock for the whole tournament."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def run(matches: int) -> tuple[float, float, int]:
    """(total seconds, seconds inside play_match, matches played)."""
    inside = [0.0]
    names = vars(tournament)  # the module's own binding of play_match, which _run_job calls
    real = names["play_match"]

    def timed_play_match(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            inside[0] += time.perf_counter() - started

    names["play_match"] = timed_play_match
    try:
        started = time.perf_counter()
        result = tournament.run_tournament(
            ["random", "greedy"], matches=matches, seed=1, executor=InlineExecutor(), isolation="none"
        )
        total = time.perf_counter() - started
    finally:
        names["play_match"] = real
    return total, inside[0], result.matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (even; default 40)")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    options = parser.parse_args()
    run(2)  # warm: imports, plugin discovery
    shares, per_match = [], []
    for _ in range(options.runs):
        total, inside, played = run(options.matches)
        shares.append((total - inside) / total)
        per_match.append((total - inside) / played * 1000)
    print(f"goat {goat.__version__}, {goat.build_info()}")
    print(f"{played} matches per run, {options.runs} runs")
    print(f"overhead outside play: {statistics.median(shares):.1%} of the tournament's time (median)")
    print(f"  {statistics.median(per_match):.3f} ms per match outside play (median)")


if __name__ == "__main__":
    main()
