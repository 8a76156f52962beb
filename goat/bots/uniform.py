"""``random``: a uniformly random legal move, the baseline every bot should beat."""

from __future__ import annotations

import random
from typing import Any

from goat.moves import Move
from goat.view import PlayerView

__all__ = ["RandomBot", "factory"]


class RandomBot:
    """Chooses uniformly among the legal moves, with its own seeded generator.

    >>> import goat
    >>> bot = RandomBot(seed=1)
    >>> seen = goat.view(goat.new_game(seed=1), 1)
    >>> bot.choose(seen, seen.legal_moves) in seen.legal_moves
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self._rng.choice(legal)


def factory(*, seed: int | None = None, **options: Any) -> RandomBot:
    """The ``random`` strategy's factory; it takes no options."""
    if options:
        raise TypeError(f"the random strategy takes no options, got {', '.join(sorted(options))}")
    return RandomBot(seed)
