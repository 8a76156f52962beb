"""Play a whole match (R21) between two random teams and print a line per game.

python examples/match.py [SEED]
"""

from __future__ import annotations

import random
import sys

import goat


def main(seed: int = 1) -> goat.Match:
    rng = random.Random(seed)
    match = goat.Match()
    while not match.is_over:
        state = match.new_game(seed=rng.randrange(2**32))
        while not state.is_over:
            state = goat.play(state, rng.choice(goat.legal_moves(state)))
        match = match.record(state)
        result = match.results[-1]
        print(
            f"game {len(match.results)}: dealer {state.dealer}, points {result.points[0]:3} : {result.points[1]:<3}"
            f" defeat-scores {match.defeat[0]:2} : {match.defeat[1]}{'  (balls)' if result.balls else ''}"
        )
    title = "goat with balls" if match.with_balls else "goat"
    print(f"Team {match.goat} is the {title}.")
    return match


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
