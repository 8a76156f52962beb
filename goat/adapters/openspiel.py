"""Goat as an OpenSpiel game, ``python_goat`` (extra ``goat-cards[openspiel]``).

>>> import pyspiel
>>> import goat.adapters.openspiel  # registers the game
>>> game = pyspiel.load_game("python_goat")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 36)

Sequential, with imperfect information and explicit chance: the deal is 36 chance moves, each the next
card of the deck (uniform over the cards left), then one for the trump card (uniform over the 20 stock
cards, R8).  The players' actions are those of :mod:`goat.adapters.encoding` (47 hand-relative actions),
and a player acts whenever the game asks it: the seat due to play, or a molodka holder asked before it
(R14).

Returns, at the end only (``returns`` parameter):

- ``"defeat"`` (default): each player gets the other team's defeat-scores minus its own team's (R19):
  +6 … −6, 0 for balls.  The four returns add up to zero.
- ``"points"``: each player gets its team's card points / 120 (R18), so partners share a return and the
  four add up to 2: a general-sum view for algorithms that want a dense signal.

The game is declared general-sum, covering both.  Parameters: ``returns`` and ``dealer`` (0–3).

Information: the information-state string is the player's whole view of the game, its own waits included
(perfect recall); the observation string is the present only (hand, trump card, table, sizes, tricks, match
score).  Both tensors start with the 310-number observation encoding of :mod:`goat.adapters.encoding`; the
information-state tensor adds, for each seat relative to the player, every card it has played face up
(4 × 36) — a summary, not perfect recall.  ``resample_from_infostate`` draws a world with
:func:`goat.sample_world`, so OpenSpiel's ISMCTS bot can search this game.
"""

from __future__ import annotations

import random
from typing import Any

from goat.errors import MissingExtraError

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.openspiel", "OpenSpiel", "openspiel", error) from None

import goat
from goat.adapters import encoding
from goat.cards import DECK
from goat.state import GameState

__all__ = ["GoatGame", "GoatObserver", "GoatState"]

_SHORT_NAME = "python_goat"
_INFO_EXTRA = 4 * 36
_DEFAULTS = {"returns": "defeat", "dealer": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="Goat (Kozel), by goat-cards",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _game_info(returns: str) -> pyspiel.GameInfo:
    defeat = returns == "defeat"
    return pyspiel.GameInfo(
        num_distinct_actions=encoding.NUM_ACTIONS,
        max_chance_outcomes=36,
        num_players=4,
        min_utility=-6.0 if defeat else 0.0,
        max_utility=6.0 if defeat else 1.0,
        utility_sum=None,  # general-sum games declare none, whatever the returns add up to
        # 37 chance moves, at most 36 plays, and at most three waits before each play.
        max_game_length=37 + 36 * 4,
    )


class GoatGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_goat`` game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if params["returns"] not in ("defeat", "points"):
            raise ValueError(f"returns must be 'defeat' or 'points', not {params['returns']!r}")
        if params["dealer"] not in range(4):
            raise ValueError(f"dealer must be a seat 0–3, not {params['dealer']!r}")
        super().__init__(_GAME_TYPE, _game_info(params["returns"]), params)
        self.returns_kind = params["returns"]
        self.dealer = int(params["dealer"])

    def new_initial_state(self) -> GoatState:
        return GoatState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoatObserver:
        return GoatObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class GoatState(pyspiel.State):  # type: ignore[misc]
    """A ``python_goat`` state: the deal being made by chance, then a :class:`goat.GameState`."""

    def __init__(self, game: GoatGame, world: GameState | None = None) -> None:
        super().__init__(game)
        self._returns_kind = game.returns_kind
        self._dealer = game.dealer
        self.deck: list[int] = [] if world is None else [card.index for card in world.deck]
        self.game_state: GameState | None = world

    # --- the pyspiel.State interface ---------------------------------------------------

    def current_player(self) -> int:
        if self.game_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game_state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.game_state.to_move)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game_state is not None and player == self.game_state.to_move
        return encoding.legal_actions(goat.view(self.game_state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.game_state is None
        if len(self.deck) < 36:
            left = sorted(set(range(36)) - set(self.deck))
            return [(card, 1 / len(left)) for card in left]
        stock = sorted(self.deck[16:])
        return [(card, 1 / len(stock)) for card in stock]

    def _apply_action(self, action: int) -> None:
        if self.game_state is None:
            if len(self.deck) < 36:
                self.deck.append(int(action))
            else:
                self.game_state = goat.new_game(
                    deck=[DECK[i] for i in self.deck], trump_card=DECK[int(action)], dealer=self._dealer
                )
            return
        seat = self.game_state.to_move
        assert seat is not None
        self.game_state = goat.play(self.game_state, encoding.decode(int(action), goat.view(self.game_state, seat)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'trump card' if len(self.deck) == 36 else 'deal'} {DECK[action]}"
        if self.game_state is not None and self.game_state.to_move == player:
            try:
                return str(encoding.decode(action, goat.view(self.game_state, player)))
            except ValueError:
                pass
        return f"seat {player} action {action}"

    def is_terminal(self) -> bool:
        return self.game_state is not None and self.game_state.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0, 0.0, 0.0]
        assert self.game_state is not None
        result = goat.score(self.game_state)
        if self._returns_kind == "points":
            return [result.points[seat % 2] / 120 for seat in range(4)]
        return [float(result.defeat[1 - seat % 2] - result.defeat[seat % 2]) for seat in range(4)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GoatState:
        """A state drawn from ``player_id``'s information set, by :func:`goat.sample_world`."""
        if self.game_state is None:  # pragma: no cover - nobody decides during the deal
            copy: GoatState = self.clone()
            return copy
        rng = random.Random(int(probability_sampler() * 2**53))
        world = goat.sample_world(goat.view(self.game_state, player_id), rng)
        return GoatState(self.get_game(), world)

    def __str__(self) -> str:
        if self.game_state is None:
            return f"dealing: {len(self.deck)} cards"
        return repr(self.game_state)


class GoatObserver:
    """Observation and information-state tensors and strings (see the module documentation)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = encoding.OBSERVATION_SIZE + (_INFO_EXTRA if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: encoding.OBSERVATION_SIZE]}
        if self.perfect_recall:
            self.dict["played_face_up"] = self.tensor[encoding.OBSERVATION_SIZE :].reshape(4, 36)

    def set_from(self, state: GoatState, player: int) -> None:
        self.tensor.fill(0)
        if state.game_state is None:
            return
        seen = goat.view(state.game_state, player)
        self.tensor[: encoding.OBSERVATION_SIZE] = encoding.observation(seen)
        if self.perfect_recall:
            for move in seen.history:
                for card in move.cards:
                    if not (move.kind is goat.MoveKind.PASS and move.seat == player):
                        self.dict["played_face_up"][(move.seat - player) % 4, card.index] = 1

    def string_from(self, state: GoatState, player: int) -> str:
        if state.game_state is None:
            return f"seat {player}: the deal is being made"
        seen = goat.view(state.game_state, player)
        hand = " ".join(str(card) for card in sorted(seen.hand))
        head = (
            f"seat {player} hand [{hand}] trump {seen.trump_card} stock {seen.stock_size} "
            f"hands {list(seen.hand_sizes)} tricks {list(seen.tricks_won)} defeat {list(seen.defeat)}"
        )
        if self.perfect_recall:
            return head + " history: " + "; ".join(str(move) for move in seen.history)
        return head + " table: " + "; ".join(str(move) for move in seen.table)


pyspiel.register_game(_GAME_TYPE, GoatGame)
