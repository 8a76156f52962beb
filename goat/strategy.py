"""The strategy protocol: how a bot plays (the arena and :mod:`goat.plugins` build on it).

A bot is any object with a ``choose(view, legal)`` method; ``start_game`` and
``end_game`` are optional hooks.  It is made by a factory called as
``factory(seed=..., **options)``, so that whoever runs games can hand each bot
its own seed and reproduce every game.  Finding and building bots by name is
the job of :mod:`goat.plugins`.

>>> import random, goat
>>> class FirstMove:
...     def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
...         return legal[0]
>>> isinstance(FirstMove(), goat.Strategy)
True
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from goat.moves import Move
from goat.scoring import GameResult
from goat.view import PlayerView

__all__ = ["Strategy", "StrategyFactory"]


@runtime_checkable
class Strategy(Protocol):
    """A player: given what its seat sees and the legal moves, it picks one.

    ``choose`` is called only when the seat must decide, with
    ``legal == view.legal_moves`` (never empty), and must return one of
    ``legal``.  A bot may also define ``start_game(view)``, called once per
    game before its first decision, and ``end_game(view, result)``, called once
    when the game is over; they are optional and not part of this protocol's
    runtime check.
    """

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal``."""
        ...


class StrategyFactory(Protocol):
    """Makes a :class:`Strategy`: ``factory(seed=None, **options)``."""

    def __call__(self, *, seed: int | None = None, **options: Any) -> Strategy: ...


def start_game(strategy: Strategy, view: PlayerView) -> None:
    """Call the bot's optional ``start_game`` hook."""
    hook = getattr(strategy, "start_game", None)
    if hook is not None:
        hook(view)


def end_game(strategy: Strategy, view: PlayerView, result: GameResult) -> None:
    """Call the bot's optional ``end_game`` hook."""
    hook = getattr(strategy, "end_game", None)
    if hook is not None:
        hook(view, result)
