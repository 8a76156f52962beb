"""OpenSpiel's Python ISMCTS on python_goat, and on OpenSpiel's own card games driven from Python the same way.

    python benchmarks/openspiel_ismcts.py [--game NAME] [--decisions N] [--simulations S] [--seed SEED]
                                         [--adapter FILE] [--cpp] [--pieces] [--random-games N]

Every seat is ``open_spiel.python.algorithms.ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1), uct_c=2,
max_simulations=S)`` (a fresh world resampled for every simulation, OpenSpiel's default); chance nodes are
sampled.  Only the bots' ``step`` calls on decisions with more than one legal action are timed, until N such
decisions have been made (from as many seeded games as that takes).  The figures are simulations per second
of the process's CPU time (``time.process_time``, so that other work on a shared machine counts less; ``--wall``
for wall-clock time): the median over decisions and the total (all simulations over all timed seconds).

``--game`` takes any OpenSpiel game string: ``python_goat`` (the default), or OpenSpiel's C++ card games such
as ``hearts``, ``oh_hell``, ``euchre`` or ``bridge(use_double_dummy_result=false)``.  ``--adapter FILE``
imports another version of goat's adapter from a file before loading the game (it registers python_goat), so
that two versions can be measured side by side, e.g. the adapter of an older commit::

    git show d95dcd0:goat/adapters/openspiel.py > /tmp/old_openspiel.py
    python benchmarks/openspiel_ismcts.py --adapter /tmp/old_openspiel.py

``--pieces`` times the parts of a simulation on python_goat instead (a world resampled, a rollout);
``--random-games N`` plays N uniformly random games through the pyspiel API and gives games per second.

``--cpp`` uses OpenSpiel's C++ ``pyspiel.ISMCTSBot`` instead (C++ games only: it crashes on games written in
Python, see docs/adapters.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
import timeit
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts


def load_adapter(path: str | None) -> None:
    """Import goat's OpenSpiel adapter: the installed one, or the one in file ``path``."""
    if path is None:
        import goat.adapters.openspiel  # noqa: F401 - registers python_goat

        return
    spec = importlib.util.spec_from_file_location("goat_adapter_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


EVALUATOR = "openspiel"


def make_bot(game: Any, simulations: int, seed: int, cpp: bool) -> Any:
    if cpp:
        return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations)
    rng = np.random.RandomState(seed)
    if EVALUATOR == "goat":
        from goat.adapters.openspiel import RolloutEvaluator

        evaluator: Any = RolloutEvaluator(1, rng)
    else:
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)


def measure(
    game: Any, decisions: int, simulations: int, seed: int, cpp: bool, clock: Any = time.process_time
) -> tuple[list[float], float, int]:
    """Per-decision simulations/s, total timed seconds, games started."""
    rng = np.random.RandomState(seed)
    rates: list[float] = []
    timed = 0.0
    games = 0
    while len(rates) < decisions:
        bots = [make_bot(game, simulations, seed + 100 * games + seat, cpp) for seat in range(game.num_players())]
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal() and len(rates) < decisions:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            start = clock()
            action = bots[state.current_player()].step(state)
            elapsed = clock() - start
            timed += elapsed
            rates.append(simulations / elapsed)
            state.apply_action(int(action))
    return rates, timed, games


def pieces(game: Any, seed: int, moves: int = 12, repeat: int = 300) -> None:
    """What one simulation's parts cost, in the middle of a game (``moves`` moves after the deal): a world
    resampled (and, of it, :func:`goat.sample_world`, and the replay of its actions through ``pyspiel``), its
    information-state string written afresh, and a random rollout from it with and without ``numpy``'s choice
    (OpenSpiel's evaluator draws each action with ``RandomState.choice``, the second rollout with the standard
    library's ``random.choice``).  Public API only, so that any version of the adapter can be timed."""
    import random

    import goat

    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    for _ in range(moves):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    draws = random.Random(seed)
    seen = goat.view(state.game_state, player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    world = state.resample_from_infostate(player, sampler)

    def replay() -> Any:
        again = game.new_initial_state()
        for action in world.history():
            again.apply_action(action)
        return again

    def rollout(choose: Any) -> None:
        working = world.clone()
        while not working.is_terminal():
            working.apply_action(choose(working.legal_actions()))

    parts = {
        "resample_from_infostate": lambda: state.resample_from_infostate(player, sampler),
        "  goat.sample_world": lambda: goat.sample_world(seen, draws),
        "  the replay through apply_action": replay,
        "  the replay, then a fresh information-state string": lambda: replay().information_state_string(player),
        "rollout, numpy's choice": lambda: rollout(rng.choice),
        "rollout, random.choice": lambda: rollout(draws.choice),
    }
    for name, part in parts.items():
        best = min(timeit.repeat(part, number=repeat, repeat=3)) / repeat
        print(f"{name:<52} {best * 1e6:8.1f} us")


def random_games(game: Any, games: int, seed: int, clock: Any) -> float:
    """Uniformly random full games through the pyspiel API (chance by its outcomes, players by their legal
    actions, with ``random.Random.choice``): games per second."""
    import random

    choice = random.Random(seed).choice
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])  # uniform: every outcome is as likely
            else:
                state.apply_action(choice(state.legal_actions()))
        state.returns()
    return games / (clock() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="python_goat", help="an OpenSpiel game string (default python_goat)")
    parser.add_argument("--decisions", type=int, default=40, help="timed decisions (default 40)")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--adapter", help="import goat's OpenSpiel adapter from this file instead")
    parser.add_argument("--cpp", action="store_true", help="OpenSpiel's C++ ISMCTSBot (C++ games only)")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock, not the process's CPU time")
    parser.add_argument("--pieces", action="store_true", help="time a simulation's parts on python_goat instead")
    parser.add_argument("--random-games", type=int, metavar="N", help="time N uniformly random games instead")
    parser.add_argument(
        "--evaluator",
        choices=["openspiel", "goat"],
        default="openspiel",
        help="the rollouts: OpenSpiel's RandomRolloutEvaluator (default) or goat.adapters.openspiel.RolloutEvaluator",
    )
    args = parser.parse_args(argv)
    global EVALUATOR
    EVALUATOR = args.evaluator
    if args.game.startswith("python_goat"):
        load_adapter(args.adapter)
    game = pyspiel.load_game(args.game)
    if args.pieces:
        pieces(game, args.seed)
        return 0
    clock = time.perf_counter if args.wall else time.process_time
    if args.random_games:
        rate = random_games(game, args.random_games, args.seed, clock)
        print(f"{args.game}: {rate:,.1f} uniformly random games/s through pyspiel ({args.random_games} games)")
        return 0
    rates, timed, games = measure(game, args.decisions, args.simulations, args.seed, args.cpp, clock)
    which = "C++ pyspiel.ISMCTSBot" if args.cpp else "Python open_spiel.python.algorithms.ismcts"
    if not args.cpp:
        which += f" ({'goat' if args.evaluator == 'goat' else 'OpenSpiel'}'s random-rollout evaluator)"
    print(
        f"python {sys.version.split()[0]}, open_spiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}"
    )
    print(f"{which} on {args.game}: {len(rates)} decisions from {games} games, {args.simulations} simulations each")
    total = len(rates) * args.simulations / timed
    print(f"simulations/s: median {statistics.median(rates):,.0f} per decision, total {total:,.0f}")
    print(f"ms per decision: median {1000 * args.simulations / statistics.median(rates):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
