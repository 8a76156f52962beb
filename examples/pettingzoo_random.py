"""Random agents in the PettingZoo AEC environment (needs goat-cards[pettingzoo]).

python examples/pettingzoo_random.py [SEED]
"""

from __future__ import annotations

import sys

import numpy as np

from goat.adapters.pettingzoo import env


def main(seed: int = 0) -> dict[str, float]:
    game = env(render_mode=None)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        game.step(action)
    print(f"one game of Goat in {steps} decisions; rewards (defeat-scores, other team's minus own):")
    for agent, total in totals.items():
        print(f"  {agent}: {total:+.0f}")
    return totals


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
