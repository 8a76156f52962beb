"""Goat as an OpenSpiel game, ``python_goat`` (extra ``goat-cards[openspiel]``).

>>> import pyspiel
>>> import goat.adapters.openspiel  # registers the game
>>> game = pyspiel.load_game("python_goat")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 36)
>>> game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
True

Sequential, with imperfect information and explicit chance: the deal is 36 chance moves, each the next
card of the deck (uniform over the cards left), then one for the trump card (uniform over the 20 stock
cards, R8).  The ``i``-th card of the deck goes to seat ``(dealer + 1 + i) % 4`` for ``i < 16`` (R7); the
other 20 are the stock.  The players' actions are those of :mod:`goat.adapters.encoding` (47
hand-relative actions), and a player acts whenever the game asks it: the seat due to play, or a molodka
holder asked before it (R14).

Returns, at the end only (``returns`` parameter), and the utility type each gives:

- ``"defeat"`` (default): each player gets the other team's defeat-scores minus its own team's (R19):
  +6 … −6, 0 for balls.  The four returns add up to zero: the game is ``ZERO_SUM`` (as OpenSpiel's bridge,
  another game of two teams, declares).
- ``"points"``: each player gets its team's card points / 120 (R18), so partners share a return and the
  four add up to 2: ``CONSTANT_SUM`` with a utility sum of 2, a dense signal for algorithms that want one.

The utility type is computed from the parameters (``game.get_type()``); the registered type is that of the
defaults.  Parameters: ``returns`` and ``dealer`` (0–3).

**Information states are perfect recall.**  A player's information state is the whole sequence of what it
observed: each card dealt to it, the trump card, every move it saw (another seat's face-down pass by its
size, another seat's private molodka wait not at all, R14, R23), its own moves (waits included), each
trick's winner and each card it drew, in order.  It changes exactly when the player observes something,
and two histories in which the player observed different things never share it.  The string is that
sequence, one observation a line; the tensor encodes it in a fixed size (layout in :class:`GoatObserver`).
The observation string and tensor are the present only (hand, trump card, table, sizes, tricks, match
score): the 310-number encoding of :mod:`goat.adapters.encoding`.

``resample_from_infostate`` draws a world with :func:`goat.sample_world`, orders the player's own
cards in the deck as it received them (the world then agrees with its whole information state, not only
with its present view), and builds the state whose ``history()`` is the action sequence that reaches it — 36
deal actions, the trump card, every move — as OpenSpiel deserializes a state (from its history, without
applying it action by action).  OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``) searches the game this way.  States hold immutable values, so
``clone()`` copies no game data.
"""

from __future__ import annotations

import base64
import operator
import pickle
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from goat.errors import InvalidSeatError, MissingExtraError

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.openspiel", "OpenSpiel", "openspiel", error) from None

import goat
from goat._core import HANDS, TO_MOVE, TRICKS, bits, deal, mask_points
from goat._core import step as kernel_step
from goat.adapters import encoding
from goat.cards import DECK
from goat.moves import Move, MoveKind, move_by_key
from goat.state import GameState, state_of

__all__ = [
    "INFO_STATE_SIZE",
    "MAX_SEEN_MOVES",
    "RECEIVED",
    "GoatGame",
    "GoatObserver",
    "GoatState",
    "RolloutEvaluator",
    "StrategyBot",
]

_SHORT_NAME = "python_goat"
_DEFAULTS = {"returns": "defeat", "dealer": 0}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: Cards a player receives in a game: four dealt, then five drawn (the 20 stock cards go four at a time, R15).
RECEIVED = 9
#: Moves one player can see in a game: at most 36 plays (withdrawn ones included) and 27 waits of its own.
MAX_SEEN_MOVES = 64
_MOVE_SIZE = 4 + 5 + 36 + 4
#: The length of the information-state tensor (see :class:`GoatObserver`).
INFO_STATE_SIZE = encoding.OBSERVATION_SIZE + RECEIVED * 36 + MAX_SEEN_MOVES * _MOVE_SIZE
_KIND_INDEX = {kind: i for i, kind in enumerate(MoveKind)}
_LEAD, _PASS, _MOLODKA, _WAIT = MoveKind.LEAD, MoveKind.PASS, MoveKind.MOLODKA, MoveKind.WAIT
_CARD_TEXT = tuple(str(card) for card in DECK)


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=_SHORT_NAME,
        long_name="Goat (Kozel), by goat-cards",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


#: The game type of each ``returns`` parameter; the first is registered (the default parameters).
_GAME_TYPES = {
    "defeat": _game_type(pyspiel.GameType.Utility.ZERO_SUM),
    "points": _game_type(pyspiel.GameType.Utility.CONSTANT_SUM),
}


def _game_info(returns: str) -> Any:
    defeat = returns == "defeat"
    return pyspiel.GameInfo(
        num_distinct_actions=encoding.NUM_ACTIONS,
        max_chance_outcomes=36,
        num_players=4,
        min_utility=-6.0 if defeat else 0.0,
        max_utility=6.0 if defeat else 1.0,
        utility_sum=0.0 if defeat else 2.0,
        # 37 chance moves, at most 36 plays, and at most three waits before each play.
        max_game_length=37 + 36 * 4,
    )


class GoatGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_goat`` game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if params["returns"] not in _GAME_TYPES:
            raise ValueError(f"returns must be 'defeat' or 'points', not {params['returns']!r}")
        if params["dealer"] not in range(4):
            raise InvalidSeatError(f"dealer must be a seat 0–3, not {params['dealer']!r}")
        super().__init__(_GAME_TYPES[params["returns"]], _game_info(params["returns"]), params)
        self.returns_kind: str = params["returns"]
        self.dealer = int(params["dealer"])
        self._first = _first_node(_Rules(self.returns_kind, self.dealer))

    def new_initial_state(self) -> GoatState:
        return GoatState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoatObserver:
        return GoatObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


# --- positions: immutable, shared between clones -----------------------------------------------------------


class _Rules:
    """A game's parameters, shared by all its positions."""

    __slots__ = ("dealer", "returns")

    def __init__(self, returns: str, dealer: int) -> None:
        self.returns = returns
        self.dealer = dealer

    def __deepcopy__(self, memo: Any) -> _Rules:
        return self


class _Node:
    """One position of a game and the step that reached it: a persistent, immutable trail of positions.

    Clones share nodes (``__deepcopy__`` returns the node itself, so OpenSpiel's ``clone()`` copies nothing).
    The legal actions, the cards each seat drew after a trick and the information-state strings are worked
    out when first asked for, and kept.
    """

    __slots__ = (
        "_actions",
        "_draws",
        "_info",
        "_memo",
        "_parent",
        "_pending",
        "action",
        "dealt",
        "ended",
        "move",
        "player",
        "plays",
        "rules",
        "state",
    )

    def __init__(
        self,
        rules: _Rules,
        parent: _Node | None,
        action: int,
        dealt: tuple[int, ...],
        state: GameState | None,
        move: Move | None,
        plays: int,
        ended: bool,
    ) -> None:
        self.rules = rules
        self._parent = parent  # None for the first node, and for a resampled world's (see parent)
        # A resampled world's last node: the node after its deal, and the (action, move) steps from there to
        # the node before this one.
        self._pending: tuple[_Node, list[tuple[int, Move]]] | None = None
        self.action = action  # the action that reached this node (-1 for the first)
        self.dealt = dealt  # the deck's cards dealt so far, as card indices
        self.state = state  # None during the deal
        self.move = move  # the move that reached this node, if a player's
        self.plays = plays  # plays standing in the current trick (0 when it has none)
        self.ended = ended  # whether ``move`` ended a trick
        if state is None:
            self.player = _CHANCE
        else:
            seat = state.core[TO_MOVE]  # state.to_move, read from the kernel's position: -1 once the game is over
            self.player = seat if seat >= 0 else _TERMINAL
        self._actions: dict[int, int] | None = None  # action -> move key
        # After a trick: its winner and the cards each seat drew, in order.
        self._draws: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        self._info: list[str | None] = [None, None, None, None]
        self._memo: dict[int, Any] | None = None  # per player: what resampling needs, worked out once

    def __deepcopy__(self, memo: Any) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Node], tuple[Any, ...]]:
        return (_replayed, (self.rules.returns, self.rules.dealer, tuple(self.actions_so_far())))

    def actions_so_far(self) -> list[int]:
        """The actions from the start of the game to this node."""
        return [node.action for node in self.trail()[1:]]

    @property
    def parent(self) -> _Node | None:
        """The node before this one (None for the first).

        A resampled world is made as two nodes, the one after its deal and its last (see _resampled): the
        nodes before each follow from the deck and the moves, and are made only if asked for (a search never
        asks).
        """
        parent = self._parent
        if parent is None and self.action >= 0:
            pending = self._pending
            if pending is None:  # the node after a deal: the deal's 36 nodes
                node = _first_node(self.rules)
                for i, card in enumerate(self.dealt):
                    node = _Node(self.rules, node, card, self.dealt[: i + 1], None, None, 0, False)
            else:
                node, steps = pending
                for action, move in steps:
                    assert node.state is not None
                    node = node.after(action, move, _stepped(node.state, move))
                self._pending = None
            parent = self._parent = node
        return parent

    def trail(self) -> list[_Node]:
        """The nodes from the start of the game to this one."""
        nodes = []
        node: _Node | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def keys(self) -> dict[int, int]:
        """The kernel keys of the legal moves of the player to move, by action number (empty at chance and
        terminal nodes): a rollout asks for the actions at every step, and makes one of them."""
        found = self._actions
        if found is None:
            found = self._actions = {} if self.state is None else encoding.action_keys(self.state)
        return found

    def legal(self) -> dict[int, Move]:
        """The legal moves of the player to move, by action number (empty at chance and terminal nodes)."""
        return {action: move_by_key(key) for action, key in self.keys().items()}

    def child(self, action: int) -> _Node:
        """The node that ``action`` leads to."""
        if self.state is None:
            if len(self.dealt) < 36:
                if not 0 <= action < 36 or action in self.dealt:
                    raise ValueError(f"deal action {action} is not a card left to deal")
                return _Node(self.rules, self, action, (*self.dealt, action), None, None, 0, False)
            if action not in self.dealt[16:]:
                raise ValueError(f"trump action {action} is not a card of the stock (R8)")
            return _dealt_node(self.rules, self, self.dealt, action)
        key = self.keys().get(action)
        if key is None:
            raise ValueError(f"action {action} is not legal for seat {self.player} now")
        move = move_by_key(key)
        return self.after(action, move, _stepped(self.state, move))

    def after(self, action: int, move: Move, state: GameState) -> _Node:
        """The node after ``move`` (action number ``action``), already played: ``state``."""
        plays = _plays_after(self.plays, move.kind)
        ended = plays == 4
        return _Node(self.rules, self, action, self.dealt, state, move, 0 if ended else plays, ended)

    def draws(self) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """After a trick: its winner and the card indices each seat drew, in the order drawn."""
        found = self._draws
        if found is None:
            parent = self.parent
            assert self.ended and self.state is not None and parent is not None and parent.state is not None
            where = {card: position for position, card in enumerate(self.dealt)}
            before, after = parent.state.core[HANDS], self.state.core[HANDS]
            drawn = tuple([_drawn(after[s] & ~before[s], where) for s in range(4)])
            found = self._draws = (self.state.core[TRICKS][-1][1], drawn)
        return found

    # --- what each player observed ----------------------------------------------------------------------

    def line(self, player: int) -> str | None:
        """What ``player`` observed at the step that reached this node, as a line of text (None: nothing)."""
        parent = self.parent
        if parent is None:
            return _header(player, self.rules.dealer)
        if self.state is None:
            position = len(self.dealt) - 1
            if position < 16 and (self.rules.dealer + 1 + position) % 4 == player:  # R7; the stock is unseen
                return _dealt_text(self.action)
            return None
        move = self.move
        if move is None:
            return _trump_text(self.action)
        if move.seat == player:
            text = _own_text(move)
        elif move.kind is _WAIT:
            return None  # another holder's wait is private (R14)
        else:
            text = _public_text(move)
        if self.ended:
            winner, drawn = self.draws()
            text += _trick_text(winner, drawn[player])
        return text

    def info(self, player: int) -> str:
        """The player's information-state string."""
        found = self._info[player]
        if found is not None:
            return found
        lines = []
        node: _Node | None = self
        while node is not None:
            known = node._info[player]
            if known is not None:
                lines.append(known)
                break
            line = node.line(player)
            if line is not None:
                lines.append(line)
            node = node.parent
        lines.reverse()
        found = self._info[player] = "\n".join(lines)
        return found

    def received(self, player: int) -> list[int]:
        """The card indices ``player`` has received (dealt, then drawn), in order."""
        cards = []
        dealer = self.rules.dealer
        for node in self.trail()[1:]:
            if node.state is None:
                position = len(node.dealt) - 1
                if position < 16 and (dealer + 1 + position) % 4 == player:
                    cards.append(node.action)
            elif node.ended:
                cards.extend(node.draws()[1][player])
        return cards


# The lines of an information-state string (see _Node.line; _resampled writes the same lines).


def _header(player: int, dealer: int) -> str:
    return f"seat {player}, dealer {dealer}"


def _dealt_text(card: int) -> str:
    return _DEALT_TEXT[card]


def _trump_text(card: int) -> str:
    return f"trump card {_CARD_TEXT[card]}"


_DEALT_TEXT = tuple(f"dealt {text}" for text in _CARD_TEXT)


def _trick_text(winner: int, drawn: tuple[int, ...]) -> str:
    """What follows the move that ended a trick: its winner (R13), and the cards the player drew (R15)."""
    if drawn:
        return f", trick to {winner}, drew " + " ".join([_CARD_TEXT[i] for i in drawn])
    return f", trick to {winner}"


_OWN_TEXT: dict[Move, str] = {}
_PUBLIC_TEXT: dict[Move, str] = {}


_TEXTS: dict[int, tuple[str, str | None]] = {}  # by the move's kernel key: an int hashes at C speed


def _texts(move: Move) -> tuple[str, str | None]:
    """The move as its own seat saw it, and as the others did (None for a wait: they did not see it)."""
    found = _TEXTS.get(move.key)
    if found is None:
        if len(_TEXTS) > 100_000:  # bounded memory for long searches
            _TEXTS.clear()
        found = _TEXTS[move.key] = (_own_text(move), None if move.kind is _WAIT else _public_text(move))
    return found


def _own_text(move: Move) -> str:
    """A move as the seat that made it saw it."""
    found = _OWN_TEXT.get(move)
    if found is None:
        if len(_OWN_TEXT) > 100_000:  # bounded memory for long searches
            _OWN_TEXT.clear()
        found = _OWN_TEXT[move] = str(move)
    return found


def _public_text(move: Move) -> str:
    """A move as the other seats saw it: a face-down pass shows its size only (R23)."""
    found = _PUBLIC_TEXT.get(move)
    if found is None:
        if len(_PUBLIC_TEXT) > 100_000:
            _PUBLIC_TEXT.clear()
        hidden = move.kind is _PASS
        found = _PUBLIC_TEXT[move] = f"{move.seat} pass " + " ".join(["??"] * len(move.cards)) if hidden else str(move)
    return found


def _stepped(state: GameState, move: Move) -> GameState:
    """The state after ``move``, one of its legal moves: stepped on the kernel, without goat.play's checks."""
    core = kernel_step(state.core, move.key)
    assert core is not None, f"{move} is not legal here"
    return state_of(core)


def _plays_after(plays: int, kind: MoveKind) -> int:
    """The plays standing in a trick after a move of ``kind`` (``plays`` before it); 4: it ended the trick."""
    if kind is _LEAD or kind is _MOLODKA:
        return 1  # a molodka's lead starts the count again (R14)
    if kind is _WAIT:
        return plays
    return plays + 1  # the trick's fourth play ends it (R13)


def _dealt_node(rules: _Rules, parent: _Node | None, dealt: tuple[int, ...], trump: int) -> _Node:
    """The node after the deal of ``dealt`` (36 distinct card indices) with trump card ``trump``, a stock card."""
    # Dealt on the kernel, unchecked again: the deck is 36 distinct card indices by construction.
    return _Node(rules, parent, trump, dealt, state_of(deal(dealt, trump, rules.dealer, (0, 0))), None, 0, False)


def _first_node(rules: _Rules) -> _Node:
    return _Node(rules, None, -1, (), None, None, 0, False)


def _replayed(returns: str, dealer: int, actions: Sequence[int]) -> _Node:
    """The node that ``actions`` reach from the start of a game (unpickling)."""
    node = _first_node(_Rules(returns, dealer))
    for action in actions:
        node = node.child(action)
    return node


# --- states -------------------------------------------------------------------------------------------------


_NO_PLAYER: Any = object()  # no player given (pyspiel's methods then ask the state for the player to move)
_SHORTCUTS = ("legal_actions", "is_chance_node", "is_player_node", "information_state_string")


def _player_id(player: Any) -> int:
    """A player id as pyspiel takes one (an int or an integer of numpy, 32 bits), or pyspiel's TypeError."""
    try:
        value = operator.index(player)
    except TypeError:
        raise TypeError(f"a player id is an int, not {type(player).__name__}") from None
    if not -(2**31) <= value < 2**31:
        raise TypeError(f"a player id is a 32-bit int, not {value}")
    return value


class GoatState(pyspiel.State):  # type: ignore[misc]
    """A ``python_goat`` state: the deal being made by chance, then a :class:`goat.GameState`.

    Its only attribute is an immutable node, shared with its clones.
    """

    #: While a state is built by replaying its actions: the nodes they lead to, in order (see _replayed_state).
    _replay: Iterator[_Node] | None = None

    def __init__(self, game: GoatGame) -> None:
        super().__init__(game)
        self._node = game._first

    @property
    def game_state(self) -> GameState | None:
        """The goat state once the deal is made (``None`` before)."""
        return self._node.state

    @property
    def deck(self) -> tuple[int, ...]:
        """The deck's cards dealt so far, top first, as card indices (:attr:`goat.Card.index`)."""
        return self._node.dealt

    # --- the pyspiel.State interface ---------------------------------------------------

    def current_player(self) -> int:
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._node.keys())

    # OpenSpiel's Python algorithms call these at every step.  pyspiel's own are C++ that calls back into
    # Python, legal_actions() five times (current_player three times, is_terminal, then _legal_actions).
    # These give what pyspiel's give, for the same arguments (tests compare them along random games), from
    # the node; C++ callers still use pyspiel's.  A subclass gets pyspiel's own (see __init_subclass__), so
    # that its overrides of pyspiel's hooks (_legal_actions, current_player, ...) are heard.

    def legal_actions(self, player: Any = _NO_PLAYER, /) -> list[int]:
        """The legal actions of ``player`` (default: the player to move), as ``pyspiel.State.legal_actions``."""
        node = self._node
        seat = node.player
        if player is not _NO_PLAYER:
            player = _player_id(player)
        if seat == _TERMINAL:
            return []
        if seat == _CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        if player is _NO_PLAYER or player == seat:
            return list(node.keys())
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self._node.player == _CHANCE

    def is_player_node(self) -> bool:
        return self._node.player >= 0

    def information_state_string(self, player: Any = _NO_PLAYER, /) -> str:
        """``player``'s information-state string (default: the player to move), as pyspiel's."""
        node = self._node
        player = node.player if player is _NO_PLAYER else _player_id(player)
        if not 0 <= player < 4:
            raise pyspiel.SpielError(f"information_state_string: no player {player} (players are 0-3)")
        return node.info(player)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _SHORTCUTS:
            if name not in cls.__dict__:
                setattr(cls, name, getattr(pyspiel.State, name))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        assert node.state is None, "not a chance node"
        if len(node.dealt) < 36:
            left = sorted(set(range(36)) - set(node.dealt))
            return [(card, 1 / len(left)) for card in left]
        stock = sorted(node.dealt[16:])
        return [(card, 1 / len(stock)) for card in stock]

    def _apply_action(self, action: int) -> None:
        replay = self._replay
        self._node = next(replay) if replay is not None else self._node.child(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._node
        if player == _CHANCE:
            if len(node.dealt) < 36:
                position = len(node.dealt)
                where = f"seat {(node.rules.dealer + 1 + position) % 4}" if position < 16 else "the stock"
                return f"deal {DECK[action]} to {where}"
            return f"trump card {DECK[action]}"
        key = node.keys().get(action) if node.player == player else None
        return str(move_by_key(key)) if key is not None else f"seat {player} action {action}"

    def is_terminal(self) -> bool:
        return self._node.player == _TERMINAL

    def returns(self) -> list[float]:
        node = self._node
        if node.player != _TERMINAL:
            return [0.0, 0.0, 0.0, 0.0]
        assert node.state is not None
        return _returns(node.state, node.rules.returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GoatState:
        """A state drawn from ``player_id``'s information set, whose ``history()`` is the actions that reach it.

        The world is drawn by :func:`goat.sample_world` from the player's view; the player's own cards are
        then put in the deck where it received them, so that the state has the player's whole information
        state, draws included.  ``history()`` is the action sequence that reaches it.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        return _state_of(self.get_game(), _resampled(self._node, int(player_id), rng))

    def __str__(self) -> str:
        node = self._node
        if node.state is None:
            return f"dealing: {len(node.dealt)} cards dealt"
        return repr(node.state)


def _returns(state: GameState, kind: str) -> list[float]:
    """The four players' returns of a finished game (see the module documentation).

    The points and tricks of each team, and :func:`goat.defeat_scores` of them (R18–R20): what
    :func:`goat.score` reports, without building its result (the tests check they agree).
    """
    points, tricks = [0, 0], [0, 0]
    for keys, winner in state.core[TRICKS]:  # the kernel's (keys, winner) pairs: no Trick objects built
        cards = 0
        for key in keys:
            cards |= key >> 5
        points[winner & 1] += mask_points(cards)
        tricks[winner & 1] += 1
    if kind == "points":
        return [points[seat % 2] / 120 for seat in range(4)]
    defeat = (goat.defeat_scores(points[0], tricks[0]), goat.defeat_scores(points[1], tricks[1]))
    return [float(defeat[1 - seat % 2] - defeat[seat % 2]) for seat in range(4)]


def _state_of(game: GoatGame, node: _Node) -> GoatState:
    """A new state of ``game`` at ``node``, whose ``history()`` is the actions that reach it.

    Applying 60 or so actions one by one through ``pyspiel`` (a C++ call, and two back into Python, each) was a
    third of resampling a world.  OpenSpiel deserializes a Python game's state by reading its history from
    the text instead, and then setting the Python attributes that the text holds: given none, and the node
    set here, the state is the same for a fraction of the cost.  That text's form is OpenSpiel's
    (``PyState::Serialize``), so the first use checks it against the replay, and replays for good if an
    OpenSpiel version reads it otherwise, or refuses it.
    """
    global _BY_HISTORY
    if _BY_HISTORY:
        return _from_history(game, node)
    if _BY_HISTORY is False:
        return _replayed_state(game, node)
    try:  # first, as it will be used: before the replay makes the nodes a resampled world leaves unmade
        fast: Any = _from_history(game, node)
    except Exception:  # any failure to read the text means: replay
        fast = None
    state = _replayed_state(game, node)
    _BY_HISTORY = fast is not None and _same(state, fast)
    return state


#: Whether _state_of builds states from their history text (None: not yet checked).
_BY_HISTORY: bool | None = None
#: OpenSpiel's serialized form of a state's Python attributes (a base64 pickled dict): here, none.
_NO_ATTRIBUTES = base64.b64encode(pickle.dumps({})).decode("ascii")
_CHANCE_TEXT = tuple(f"{_CHANCE}:{card}" for card in range(36))


def _from_history(game: GoatGame, node: _Node) -> GoatState:
    """The state at ``node``, deserialized from the text of its history (see _state_of)."""
    steps = []  # each action with the player who took it (the player to move before), last first
    step = node
    while True:
        pending = step._pending
        if pending is not None:  # a resampled world's last node, the nodes before it not made
            assert step.move is not None
            steps.append(f"{step.move.seat}:{step.action}")
            steps.extend([f"{move.seat}:{action}" for action, move in reversed(pending[1])])
            step = pending[0]
            continue
        parent = step._parent
        if parent is None:
            break
        steps.append(f"{parent.player}:{step.action}")
        step = parent
    if step.action >= 0:  # a resampled world's first node after the deal, its deal not made: chance's actions
        steps.append(_CHANCE_TEXT[step.action])
        steps.extend([_CHANCE_TEXT[card] for card in reversed(step.dealt)])
    steps.reverse()
    text = f"history={','.join(steps)}\nmove_number={len(steps)}\n__dict__={_NO_ATTRIBUTES}"
    state = game.deserialize_state(text)
    state._node = node
    return state  # type: ignore[no-any-return]


def _replayed_state(game: GoatGame, node: _Node) -> GoatState:
    """The state at ``node``, by applying the actions that reach it one by one."""
    nodes = node.trail()
    state = game.new_initial_state()
    state._replay = iter(nodes[1:])
    try:
        for step in nodes[1:]:
            state.apply_action(step.action)
    finally:
        del state._replay
    state._node = node  # the same node as before (the first node of a game is the game's own otherwise)
    return state


def _same(state: GoatState, other: Any) -> bool:
    """Whether ``other`` is ``state``: the same type, players and actions, and move number."""
    return (
        type(other) is type(state)
        and other.move_number() == state.move_number()
        and [(step.player, step.action) for step in other.full_history()]
        == [(step.player, step.action) for step in state.full_history()]
    )


def _resampled(node: _Node, player: int, rng: random.Random) -> _Node:
    """A node in ``player``'s information set at ``node``."""
    rules = node.rules
    if node.state is None:  # during the deal: the other seats' cards and the stock are unknown
        mine = {i for i in range(len(node.dealt)) if i < 16 and (rules.dealer + 1 + i) % 4 == player}
        others = sorted(set(range(36)) - {node.dealt[i] for i in mine})
        rng.shuffle(others)
        fill = iter(others)
        last = _first_node(rules)
        for i in range(len(node.dealt)):
            last = last.child(node.dealt[i] if i in mine else next(fill))
        return last
    memo = node._memo
    if memo is None:
        memo = node._memo = {}
    plan = memo.get(player)
    if plan is None:
        # The deck positions of the cards the player has received (dealt, then drawn), with their cards.
        where = {card: position for position, card in enumerate(node.dealt)}
        plan = memo[player] = (goat.view(node.state, player), [(where[c], c) for c in node.received(player)])
    seen, received = plan
    world = goat.sample_world(seen, rng)
    # The world agrees with the player's view; put the cards it received where they really were, so that it
    # received them in the same order.  A seat's cards come from deck positions fixed by public events (the
    # deal, R7, and the draws after each trick, R15), so in the world these positions hold the same cards in
    # some order, and nothing else moves.
    deck = [card.index for card in world.deck]
    if sorted(deck[i] for i, _ in received) != sorted(card for _, card in received):
        raise RuntimeError(f"goat.sample_world gave seat {player} a world where it did not receive its cards")
    for i, card in received:
        deck[i] = card
    dealt = tuple(deck)
    # Each player's information-state lines, written on the way (the same lines as _Node.line's).
    lines = [[_header(s, rules.dealer)] for s in range(4)]
    for i in range(16):
        lines[(rules.dealer + 1 + i) % 4].append(_dealt_text(dealt[i]))
    # The node after the deal, with no parent: the deal's nodes are made if asked for (see _Node.parent).
    last = _dealt_node(rules, None, dealt, seen.trump_card.index)
    trump = _trump_text(last.action)
    for s in range(4):
        lines[s].append(trump)
    # Replay the world's moves on that deck, on the kernel, each as its action number for the hand of the seat
    # that makes it, noting each trick's winner and draws on the way.  Only the last node is made (see parent).
    root = last
    assert root.state is not None
    core: Any = root.state.core
    where = {card: position for position, card in enumerate(dealt)}
    hands = list(core[HANDS])  # the kernel's masks: no card sets built on the way
    steps: list[tuple[int, Move]] = []
    plays, ended, draws = 0, False, None
    for move in world.history:
        seat = move.seat
        kind = move.kind
        steps.append((encoding.action_in(move, hands[seat]), move))
        core = kernel_step(core, move.key)
        assert core is not None, f"{move} of the world's history is not legal on its deck"
        plays = _plays_after(plays, kind)
        ended = plays == 4
        if kind is not _WAIT:
            hands[seat] &= ~move.mask
        own, public = _texts(move)
        if ended:
            plays = 0
            now = list(core[HANDS])
            drawn = tuple([_drawn(now[s] & ~hands[s], where) for s in range(4)])
            winner = core[TRICKS][-1][1]
            draws = (winner, drawn)
            hands = now
            for s in range(4):
                text = own if s == seat or public is None else public  # a wait never ends a trick
                lines[s].append(text + _trick_text(winner, drawn[s]))
            continue
        if kind is _MOLODKA:
            hands = list(core[HANDS])  # the cards on the table went back to their owners
        lines[seat].append(own)
        if public is not None:
            for s in _OTHERS[seat]:
                lines[s].append(public)
    if steps:
        action, move = steps.pop()
        last = _Node(rules, None, action, dealt, state_of(core), move, plays, ended)
        last._pending = (root, steps)
        if ended:
            last._draws = draws
    last._info = ["\n".join(mine) for mine in lines]
    return last


_OTHERS = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))


def _drawn(mask: int, where: dict[int, int]) -> tuple[int, ...]:
    """The cards of ``mask`` (drawn after a trick) in deck order (``where``: card -> position in the deck)."""
    if not mask & (mask - 1):  # none, or one card: the usual draw
        return (mask.bit_length() - 1,) if mask else ()
    return tuple(sorted(bits(mask), key=where.__getitem__))


# --- observers ----------------------------------------------------------------------------------------------


class GoatObserver:
    """Observation and information-state tensors and strings.

    With ``perfect_recall=False`` (the observation), the tensor is the 310 numbers of
    :func:`goat.adapters.encoding.observation` (during the deal, only the player's cards so far are set) and
    the string is the present: hand, trump card, table, sizes, tricks, match score.

    With ``perfect_recall=True`` (the information state), the string is every observation of the player in
    order, one a line, and the tensor has :data:`INFO_STATE_SIZE` = 3,770 numbers:

    ======  ===========  ================================================================================
    offset  shape        meaning
    ======  ===========  ================================================================================
    0       310          ``observation``: the present, as the observation tensor
    310     9 × 36       ``received``: the cards the player received, in order (four dealt, then each
                         draw), one-hot; rows not yet reached are zero
    634     64 × 49      ``seen_moves``: the moves the player saw, in order, one row each: the seat that
                         moved, relative to the player (4, one-hot: 0 itself, 1 next, 2 partner, 3 before);
                         the kind (5, one-hot: lead, beat, pass, molodka, wait); the cards (36, face up or
                         the player's own); the number of cards passed face down by another seat (4,
                         one-hot: 1–4).  Rows not yet reached are zero.
    ======  ===========  ================================================================================

    The deal's order, the times of the draws and the trick winners follow from the rules (R7, R13, R15), so
    the received cards and the seen moves hold the player's whole sequence of observations.
    """

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_goat observes what one player sees: private_info=SINGLE_PLAYER, public_info")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFO_STATE_SIZE if self.perfect_recall else encoding.OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: encoding.OBSERVATION_SIZE]}
        if self.perfect_recall:
            start = encoding.OBSERVATION_SIZE
            self.dict["received"] = self.tensor[start : start + RECEIVED * 36].reshape(RECEIVED, 36)
            self.dict["seen_moves"] = self.tensor[start + RECEIVED * 36 :].reshape(MAX_SEEN_MOVES, _MOVE_SIZE)

    def set_from(self, state: GoatState, player: int) -> None:
        self.tensor.fill(0)
        node = state._node
        if node.state is None:
            for index in node.received(player):
                self.tensor[index] = 1  # the hand so far
        else:
            ones, values = encoding.observation_entries(node.state, player)  # = observation(view(...))
            self.tensor[ones] = 1
            if values:
                self.tensor[list(values)] = list(values.values())
        if not self.perfect_recall:
            return
        received, moves = self.dict["received"], self.dict["seen_moves"]
        for row, index in enumerate(node.received(player)):
            received[row, index] = 1
        row = 0
        for step in node.trail():
            move = step.move
            if move is None or (move.seat != player and move.kind is _WAIT):
                continue
            if row == MAX_SEEN_MOVES:  # pragma: no cover - the rules allow no more (see MAX_SEEN_MOVES)
                raise RuntimeError(f"seat {player} has seen more than {MAX_SEEN_MOVES} moves")
            line = moves[row]
            line[(move.seat - player) % 4] = 1
            line[4 + _KIND_INDEX[move.kind]] = 1
            if move.kind is _PASS and move.seat != player:
                line[45 + len(move.cards) - 1] = 1
            else:
                for card in move.cards:
                    line[9 + card.index] = 1
            row += 1

    def string_from(self, state: GoatState, player: int) -> str:
        node = state._node
        if self.perfect_recall:
            return node.info(player)
        if node.state is None:
            mine = " ".join(str(DECK[card]) for card in node.received(player))
            return f"seat {player} dealing: hand [{mine}]"
        seen = goat.view(node.state, player)
        hand = " ".join(str(card) for card in sorted(seen.hand))
        return (
            f"seat {player} hand [{hand}] trump {seen.trump_card} stock {seen.stock_size} "
            f"hands {list(seen.hand_sizes)} tricks {list(seen.tricks_won)} defeat {list(seen.defeat)} "
            "table: " + "; ".join(str(move) for move in seen.table)
        )


# --- bots and evaluators ------------------------------------------------------------------------------------


class StrategyBot(pyspiel.Bot):  # type: ignore[misc]
    """A goat strategy (any name :func:`goat.load_strategy` takes, or a strategy object) as an OpenSpiel bot.

    It sees only its seat's :class:`goat.PlayerView`, as in goat's own arena, so OpenSpiel's
    ``evaluate_bots`` can pit goat's bots against OpenSpiel's:

    >>> import numpy as np, pyspiel
    >>> from open_spiel.python.algorithms import evaluate_bots
    >>> from goat.adapters.openspiel import StrategyBot
    >>> game = pyspiel.load_game("python_goat")
    >>> bots = [StrategyBot("greedy", seed=seat) for seat in range(4)]
    >>> returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    >>> sum(returns), returns[0] == returns[2]
    (0.0, True)
    """

    def __init__(self, strategy: Any, *, seed: int | None = None, **options: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.strategy = goat.load_strategy(strategy, seed=seed, **options) if isinstance(strategy, str) else strategy

    def step(self, state: GoatState) -> int:
        node = state._node
        assert node.state is not None and node.player >= 0, "a bot is asked only when a player must decide"
        seen = goat.view(node.state, node.player)
        move = self.strategy.choose(seen, seen.legal_moves)
        for action, legal in node.legal().items():
            if legal == move:
                return action
        raise ValueError(f"{self.strategy!r} chose {move}, which is not a legal move of seat {node.player}")

    def restart_at(self, state: GoatState) -> None:
        pass

    def inform_action(self, state: GoatState, player_id: int, action: int) -> None:
        pass


class RolloutEvaluator:
    """OpenSpiel's ``RandomRolloutEvaluator`` for ``python_goat``, with its rollouts played inside goat.

    The same evaluation (the mean returns of ``n_rollouts`` games finished with uniformly random legal
    moves, and a uniform prior), but each rollout runs on the :class:`goat.GameState` with
    :func:`goat.legal_moves` and :func:`goat.play` instead of through ``pyspiel`` states: a drop-in for
    ``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator`` in OpenSpiel's MCTS and ISMCTS bots.
    ``random_state`` is a ``numpy.random.RandomState`` (one is made if ``None``).
    """

    def __init__(self, n_rollouts: int = 1, random_state: Any = None) -> None:
        self.n_rollouts = n_rollouts
        seed = (random_state or np.random.RandomState()).randint(2**31)
        self._rng = random.Random(int(seed))

    def evaluate(self, state: GoatState) -> Any:
        node = state._node
        if node.state is None:  # during the deal: OpenSpiel's way, through the pyspiel state
            from open_spiel.python.algorithms import mcts

            return mcts.RandomRolloutEvaluator(self.n_rollouts).evaluate(state)
        choice = self._rng.choice
        total = np.zeros(4)
        for _ in range(self.n_rollouts):
            game = node.state
            while not game.is_over:
                game = goat.play(game, choice(goat.legal_moves(game)))
            total += _returns(game, node.rules.returns)
        return total / self.n_rollouts

    def prior(self, state: GoatState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


pyspiel.register_game(_GAME_TYPES["defeat"], GoatGame)
