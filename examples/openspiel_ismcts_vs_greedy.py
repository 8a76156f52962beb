"""OpenSpiel's ISMCTS (seats 0 and 2) against goat's greedy bot (seats 1 and 3), through the
python_goat OpenSpiel game (needs goat-cards[openspiel]).

    python examples/openspiel_ismcts_vs_greedy.py [GAMES] [SIMULATIONS]

OpenSpiel's Python ISMCTS (open_spiel.python.algorithms.ismcts) searches the game through the adapter,
resampling worlds consistent with its perfect-recall information state; greedy, wrapped as an OpenSpiel bot
by goat.adapters.openspiel.StrategyBot, sees only its goat.PlayerView.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from goat.adapters.openspiel import StrategyBot


def main(games: int = 2, simulations: int = 30) -> list[float]:
    game = pyspiel.load_game("python_goat")
    rng = np.random.RandomState(1)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng)
    bots = [searcher, StrategyBot("greedy", seed=1), searcher, StrategyBot("greedy", seed=3)]
    totals = []
    for number in range(1, games + 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        totals.append(returns[0])
        print(f"game {number}: OpenSpiel ISMCTS {returns[0]:+.0f}, greedy {returns[1]:+.0f} (defeat-scores)")
    print(f"ISMCTS team, total over {games} games: {sum(totals):+.0f}")
    return totals


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
