"""What the referee adds per decision: arena.play_game and play_match against a bare loop on the same deals.

    python benchmarks/referee.py [--games N] [--matches M] [--runs R]

With four trivial bots (each returns ``legal[0]``), times in one process, side by side and alternating:

- the bare game loop — ``view`` (which holds the legal moves), ``choose``, ``play``, and ``score`` at the end —
  over the deals of seeds 0..N-1 (default 200), against ``arena.play_game`` on the same seeds;
- the bare match loop (the same per-game seeds as the referee's match, and ``Match.record``), against
  ``arena.play_match`` on seeds 0..M-1 (default 20).

Prints, for each, the median over R runs (default 7) of the microseconds per decision, the referee's overhead
(the difference) and the ratio.  It uses the public API only, so it measures another version of goat too,
e.g. the commit before this file, from a work tree of its own (copy the compiled core in, or it runs pure)::

    git worktree add /tmp/before HEAD~1 && cp goat/*.so /tmp/before/goat/
    PYTHONPATH=/tmp/before python benchmarks/referee.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import goat
from goat import arena


class First:
    """The trivial bot: the first legal move."""

    def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
        return legal[0]


BOTS = [First() for _ in range(4)]


def bare_game(seed: int, state: goat.GameState | None = None) -> tuple[goat.GameState, int]:
    """One game without the referee; the final state and the number of decisions."""
    state = goat.new_game(seed=seed) if state is None else state
    decisions = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        seen = goat.view(state, seat)
        state = goat.play(state, BOTS[seat].choose(seen, seen.legal_moves))
        decisions += 1
    goat.score(state)
    return state, decisions


def bare_match(seed: int) -> int:
    """One match without the referee (the referee's per-game seeds); the number of decisions."""
    seeds = random.Random(seed)
    match = goat.Match()
    decisions = 0
    while not match.is_over:
        state, made = bare_game(0, match.new_game(seed=seeds.randrange(2**63)))
        decisions += made
        match = match.record(state)
    return decisions


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    game_seeds, match_seeds = range(args.games), range(args.matches)
    decisions = {
        "game": sum(bare_game(seed)[1] for seed in game_seeds),
        "match": sum(map(bare_match, match_seeds)),
    }
    pairs: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
        "game": (
            lambda: [bare_game(seed) for seed in game_seeds],
            lambda: [arena.play_game(BOTS, seed=seed) for seed in game_seeds],
        ),
        "match": (
            lambda: [bare_match(seed) for seed in match_seeds],
            lambda: [arena.play_match(BOTS, seed=seed) for seed in match_seeds],
        ),
    }
    for bare, refereed in pairs.values():  # warm up: the engine's caches of moves and views
        bare()
        refereed()
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in pairs}
    for _ in range(args.runs):
        for name, (bare, refereed) in pairs.items():
            times[name][0].append(timed(bare) / decisions[name] * 1e6)
            times[name][1].append(timed(refereed) / decisions[name] * 1e6)
    print(f"python benchmarks/referee.py --games {args.games} --matches {args.matches} --runs {args.runs}")
    print(f"goat {goat.build_info()}, Python {sys.version.split()[0]}; medians of {args.runs} runs, per decision")
    for name, (bare_times, referee_times) in times.items():
        bare_us, referee_us = statistics.median(bare_times), statistics.median(referee_times)
        what = f"{args.games} games" if name == "game" else f"{args.matches} matches"
        print(
            f"play_{name:<6} {what:>12}, {decisions[name]:6} decisions: bare {bare_us:6.1f} us, referee"
            f" {referee_us:6.1f} us, overhead {referee_us - bare_us:+6.1f} us, ratio {referee_us / bare_us:.3f}"
        )


if __name__ == "__main__":
    main()
