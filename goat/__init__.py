"""goat-cards: the rules of the Russian trick-taking card game Goat (Kozel).

>>> import random, goat
>>> rng = random.Random(1)
>>> state = goat.new_game(seed=1)
>>> while not state.is_over:
...     state = goat.play(state, rng.choice(goat.legal_moves(state)))
>>> result = goat.score(state)
>>> sum(result.points)
120

The rule numbers (R1…R23) cited throughout are those of the documentation's rules page,
``docs/rules.md`` ("The rules"), where every rule and every interpretation is stated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat import _core
from goat._lazy import lazy
from goat.cards import DECK, Card, Rank, Suit, beats, beats_set, cards
from goat.errors import (
    GameNotOverError,
    GoatError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidSeatError,
    InvalidTrickError,
    InvalidViewError,
    ScoringError,
)
from goat.moves import Move, MoveKind
from goat.rules import legal_moves, new_game, play, trick_winner
from goat.scoring import GameResult, Match, defeat_scores, score
from goat.state import GameState, Trick
from goat.view import PlayerView, SeenMove, SeenTrick, view

if TYPE_CHECKING:
    from goat.bots.worlds import WorldSamplingError, sample_world
    from goat.plugins import (
        StrategyInfo,
        StrategyLoadError,
        StrategyNameError,
        available_strategies,
        load_strategy,
        register_strategy,
        strategy_factory,
        unregister_strategy,
    )
    from goat.strategy import Strategy, StrategyFactory

__version__ = "0.1.0.dev0"

__all__ = [
    "DECK",
    "Card",
    "GameNotOverError",
    "GameResult",
    "GameState",
    "GoatError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidSeatError",
    "InvalidTrickError",
    "InvalidViewError",
    "Match",
    "Move",
    "MoveKind",
    "PlayerView",
    "Rank",
    "ScoringError",
    "SeenMove",
    "SeenTrick",
    "Strategy",
    "StrategyFactory",
    "StrategyInfo",
    "StrategyLoadError",
    "StrategyNameError",
    "Suit",
    "Trick",
    "WorldSamplingError",
    "available_strategies",
    "beats",
    "beats_set",
    "build_info",
    "cards",
    "defeat_scores",
    "legal_moves",
    "load_strategy",
    "new_game",
    "play",
    "register_strategy",
    "sample_world",
    "score",
    "strategy_factory",
    "trick_winner",
    "unregister_strategy",
    "version_text",
    "view",
]

# Imported on first use, to keep ``import goat`` cheap: world sampling is for search bots, and the
# strategy protocol and plugin discovery are for programs that load bots (most simulations never do).
_LAZY = {
    "WorldSamplingError": "goat.bots.worlds",
    "sample_world": "goat.bots.worlds",
    "Strategy": "goat.strategy",
    "StrategyFactory": "goat.strategy",
    **dict.fromkeys(
        (
            "StrategyInfo",
            "StrategyLoadError",
            "StrategyNameError",
            "available_strategies",
            "load_strategy",
            "register_strategy",
            "strategy_factory",
            "unregister_strategy",
        ),
        "goat.plugins",
    ),
}


__getattr__, __dir__ = lazy(__name__, _LAZY, globals())


def build_info() -> str:
    """Which rules core runs, and why: ``"compiled (mypyc …)"``, or ``"pure (…)"`` with the reason.

    The compiled core is goat's kernel (the rules on bit masks) compiled by mypyc when goat was
    installed with a C compiler; the pure core is the same source run by Python, slower but with the
    same behaviour.  The reasons are ``GOAT_PURE_PYTHON=1`` (set when goat was imported), ``no compiled
    core built`` (no C compiler at install time, or ``GOAT_PURE_PYTHON=1`` then), ``compiled core is
    stale`` (compiled from an older ``goat/_kernel.py``: reinstall) or an import failure.

    >>> import goat
    >>> goat.build_info().startswith(("compiled (", "pure ("))
    True
    """
    return _core.BUILD


def version_text() -> str:
    """The version as ``goat --version`` prints it: goat's, the core that runs and the Python that runs it.

    >>> import goat
    >>> goat.version_text().startswith(goat.__version__ + ", core ")
    True
    """
    import platform

    return f"{__version__}, core {build_info()}, {platform.python_implementation()} {platform.python_version()}"
