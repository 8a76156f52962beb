"""Random full games/s of goat against OpenSpiel's C++ ``oh_hell``, in one process, alternating, in both cores.

Run:  python benchmarks/versus_openspiel.py [--games N] [--rounds R] [--seed S] [--wall] [--core compiled|pure]

Both games are driven from Python the same way, the way a random bot drives an engine: ask for the
legal moves, pick one with ``random.Random.choice``, apply it, until the game is over.

* goat: ``goat.new_game(seed=...)``, then ``goat.legal_moves`` / ``goat.play`` (the public API).
  Every one of the 36 cards is played; a game has about 29 decisions.
* OpenSpiel: ``oh_hell`` with 4 players and a 36-card deck (4 suits of 9), the closest game it has.
  ``num_tricks_fixed=8`` is the most it allows (a card must stay undealt to turn up trump), so 32 of
  the 36 cards are played.  Its deal is a sequence of chance nodes, driven the same way
  (``legal_actions`` + random choice + ``apply_action``), as are the bids: 35 chance nodes and 36
  player decisions (4 bids, 32 plays), 71 ``apply_action`` calls a game.

One *round* plays ``--games`` games of each, in alternating order (goat first in even rounds,
OpenSpiel first in odd ones), so that drift in the machine's speed hits both alike.  Times are this
process's CPU time (``--wall`` for wall-clock time), steadier on a shared machine.

goat's core is chosen when goat is imported (``GOAT_PURE_PYTHON``), so each core is measured in a
process of its own: this script runs itself once per core (``--core`` runs one, in this process)
and prints, for each, the median games/s of goat and of OpenSpiel over the rounds and the median of
the per-round ratios goat / OpenSpiel, with their range.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

#: The closest oh_hell to goat: 4 players, 36 cards, as many tricks as the rules allow.
OH_HELL_PARAMS = {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8}

Runner = Callable[[int, int], tuple[float, int]]


def goat_runner(clock: Callable[[], float]) -> Runner:
    import goat

    legal_moves, play, new_game = goat.legal_moves, goat.play, goat.new_game

    def goat_games(games: int, seed: int) -> tuple[float, int]:
        """Play ``games`` random goat games; return (seconds, decisions)."""
        choice = random.Random(seed).choice
        decisions = 0
        start = clock()
        for game in range(games):
            state = new_game(seed=seed + game)
            while not state.is_over:
                state = play(state, choice(legal_moves(state)))
                decisions += 1
        return clock() - start, decisions

    return goat_games


def openspiel_runner(clock: Callable[[], float], params: dict[str, int]) -> Runner:
    import pyspiel

    game = pyspiel.load_game("oh_hell", params)
    new_state = game.new_initial_state

    def openspiel_games(games: int, seed: int) -> tuple[float, int]:
        """Play ``games`` random oh_hell games, chance nodes included; return (seconds, steps)."""
        choice = random.Random(seed).choice
        steps = 0
        start = clock()
        for _ in range(games):
            state = new_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                steps += 1
        return clock() - start, steps

    return openspiel_games


def measure(args: argparse.Namespace) -> dict[str, object]:
    """Alternating rounds of both in this process, with the core goat chose on import."""
    import goat

    clock = time.perf_counter if args.wall else time.process_time
    runners = {"goat": goat_runner(clock), "openspiel": openspiel_runner(clock, OH_HELL_PARAMS)}
    for run in runners.values():  # warm-up: interned moves and other caches, as in a long simulation
        run(300, 10**9 + args.seed)
    rates: dict[str, list[float]] = {name: [] for name in runners}
    steps: dict[str, float] = {}
    for round_ in range(args.rounds):
        for name in list(runners) if round_ % 2 == 0 else list(reversed(runners)):
            seconds, count = runners[name](args.games, args.seed + round_ * args.games)
            rates[name].append(args.games / seconds)
            steps[name] = count / args.games
    ratios = [g / o for g, o in zip(rates["goat"], rates["openspiel"], strict=True)]
    return {
        "core": goat.build_info(),
        "goat": statistics.median(rates["goat"]),
        "openspiel": statistics.median(rates["openspiel"]),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
        "steps": steps,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games of each per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds; medians are reported (default 9)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wall", action="store_true", help="time with the wall clock, not this process's CPU time")
    parser.add_argument("--core", choices=("compiled", "pure"), help="measure this core only, in this process")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one JSON line: for the parent
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install 'goat-cards[openspiel]'", file=sys.stderr)
        return 2
    import goat

    if args.core is not None:
        if (os.environ.get("GOAT_PURE_PYTHON", "") not in ("", "0")) != (args.core == "pure"):
            raise SystemExit(f"--core {args.core} needs GOAT_PURE_PYTHON={'1' if args.core == 'pure' else ''}")
        if args.core == "compiled" and not goat.build_info().startswith("compiled"):
            print(f"no compiled core: goat runs {goat.build_info()}", file=sys.stderr)
            return 2
        results = [measure(args)]
    else:
        results = []
        forwarded = ["--games", str(args.games), "--rounds", str(args.rounds), "--seed", str(args.seed)]
        forwarded += ["--wall"] if args.wall else []
        for core, pure in (("compiled", ""), ("pure", "1")):
            env = {**os.environ, "GOAT_PURE_PYTHON": pure}
            done = subprocess.run(
                [sys.executable, __file__, "--core", core, "--json", *forwarded],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode == 0:
                results.append(json.loads(done.stdout.splitlines()[-1]))
            else:
                print(f"{core} core: not measured ({done.stderr.strip()})", file=sys.stderr)
    if args.json:
        print(json.dumps(results[0]))
        return 0
    clock = "wall-clock time" if args.wall else "CPU time"
    print(
        f"python {sys.version.split()[0]}, goat {goat.__version__}, {args.games} games x {args.rounds} rounds, {clock}"
    )
    print(f"oh_hell {OH_HELL_PARAMS}")
    print(f"{'core':28} {'goat games/s':>13} {'OpenSpiel games/s':>18}  ratio goat/OpenSpiel (median, range)")
    for result in results:
        print(
            f"{result['core']:28} {result['goat']:13,.0f} {result['openspiel']:18,.0f}  "
            f"{result['ratio']:.3f} ({result['low']:.3f}-{result['high']:.3f})"
        )
    if results:
        steps = results[0]["steps"]
        assert isinstance(steps, dict)
        print(f"steps per game: goat {steps['goat']:.1f} decisions, OpenSpiel {steps['openspiel']:.1f} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
