"""Play one game of Goat with four random players and print it trick by trick.

    python examples/random_game.py [SEED]

Everything goes through the public API: new_game, legal_moves, play, score.
"""

from __future__ import annotations

import random
import sys

import goat


def main(seed: int = 7) -> goat.GameResult:
    rng = random.Random(seed)
    state = goat.new_game(seed=seed)
    print(f"Trump card {state.trump_card.symbol}: {state.trump.name.lower()} are trumps.")
    print(f"Seat {state.dealer} deals, seat {state.leader} leads.\n")
    tricks_seen = 0
    while not state.is_over:
        move = rng.choice(goat.legal_moves(state))
        if move.kind is goat.MoveKind.MOLODKA:
            print(f"  seat {move.seat} declares a molodka!")
        state = goat.play(state, move)
        if len(state.tricks) > tricks_seen:
            trick = state.tricks[-1]
            tricks_seen += 1
            plays = ", ".join(str(play) for play in trick.plays)
            print(f"Trick {tricks_seen}: {plays}  -> seat {trick.winner} takes {trick.points} points")
    result = goat.score(state)
    print(f"\nPoints: team 0 (seats 0, 2) {result.points[0]}, team 1 (seats 1, 3) {result.points[1]}")
    if result.balls:
        print("Balls! 60 : 60, nobody gains defeat-scores.")
    else:
        loser = 1 - result.winner if result.winner is not None else None
        print(f"Team {result.winner} wins; team {loser} gains {max(result.defeat)} defeat-scores.")
    return result


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
