"""Decisions per second of goat's PettingZoo environment, and of PettingZoo's own classic games the same way.

    python benchmarks/pettingzoo_env.py [--env NAME] [--games N] [--repeat R] [--adapter FILE] [--wall]

Every agent plays a uniformly random legal action (drawn from the observation's action mask with a seeded
numpy generator), through the wrapped environment that ``env()`` returns, in the loop PettingZoo's
documentation shows (``agent_iter``, ``last``, ``step``); ``reset(seed=...)`` starts each game.  A decision is
a ``step`` with an action (not the ``None`` steps of finished agents).  The figure is decisions per second of
the process's CPU time (``time.process_time``; ``--wall`` for wall-clock time), the median of R runs of N
games.  One core.

``--env`` is ``goat`` (the default) or a module of ``pettingzoo.classic`` such as ``connect_four_v3``,
``tictactoe_v3``, ``chess_v6``, ``leduc_holdem_v4`` or ``texas_holdem_v4`` (the last two need ``rlcard``).
``--adapter FILE`` imports another version of goat's adapter from a file, to measure two versions side by
side, e.g. that of an older commit::

    git show d95dcd0:goat/adapters/pettingzoo.py > /tmp/old_pettingzoo.py
    python benchmarks/pettingzoo_env.py --adapter /tmp/old_pettingzoo.py
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def env_factory(name: str, adapter: str | None) -> Callable[[], Any]:
    if name != "goat":
        module = importlib.import_module(f"pettingzoo.classic.{name}")
        return module.env  # type: ignore[no-any-return]
    if adapter is None:
        from goat.adapters.pettingzoo import env

        return env
    spec = importlib.util.spec_from_file_location("goat_pettingzoo_under_test", adapter)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.env  # type: ignore[no-any-return]


def run(make: Callable[[], Any], games: int, seed: int, clock: Callable[[], float]) -> tuple[int, float]:
    """Decisions made and seconds taken by ``games`` random games."""
    game = make()
    rng = np.random.default_rng(seed)
    decisions = 0
    start = clock()
    for number in range(games):
        game.reset(seed=seed + number)
        for _agent in game.agent_iter():
            observation, _reward, termination, truncation, info = game.last()
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"] if isinstance(observation, dict) else info["action_mask"]
                action = int(rng.choice(np.flatnonzero(mask)))
                decisions += 1
            game.step(action)
    return decisions, clock() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="goat", help="goat, or a pettingzoo.classic module such as chess_v6")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--adapter", help="import goat's PettingZoo adapter from this file instead")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock, not the process's CPU time")
    args = parser.parse_args(argv)
    make = env_factory(args.env, args.adapter)
    clock = time.perf_counter if args.wall else time.process_time
    rates = []
    decisions = 0
    for _ in range(args.repeat):
        decisions, seconds = run(make, args.games, args.seed, clock)
        rates.append(decisions / seconds)
    print(f"python {sys.version.split()[0]}, {args.env}: {args.games} random games per run, {decisions} decisions")
    print(f"decisions/s: median {statistics.median(rates):,.0f} of {args.repeat} runs (min {min(rates):,.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
