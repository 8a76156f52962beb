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

from goat.bots.worlds import WorldSamplingError, sample_world
from goat.cards import DECK, Card, Rank, Suit, beats, beats_set, cards
from goat.errors import (
    GameNotOverError,
    GoatError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidTrickError,
    ScoringError,
)
from goat.moves import Move, MoveKind
from goat.rules import legal_moves, new_game, play, trick_winner
from goat.scoring import GameResult, Match, defeat_scores, score
from goat.state import GameState, Trick
from goat.strategy import (
    Strategy,
    StrategyFactory,
    StrategyInfo,
    StrategyLoadError,
    StrategyNameError,
    available_strategies,
    load_strategy,
    register_strategy,
    strategy_factory,
    unregister_strategy,
)
from goat.view import PlayerView, SeenMove, SeenTrick, view

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
    "InvalidTrickError",
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
    "view",
]
