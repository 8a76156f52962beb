"""Goat as an OpenSpiel game, ``python_goat`` (extra ``goat-cards[openspiel]``).

>>> import pyspiel
>>> import goat.adapters.openspiel  # registers the game
>>> game = pyspiel.load_game("python_goat")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 36)
>>> game.max_game_length(), game.max_chance_nodes_in_history(), game.max_history_length()
(144, 37, 181)

Built as OpenSpiel's own Python games are (``open_spiel/python/games/kuhn_poker.py``): a registered game type,
a ``pyspiel.Game`` (:class:`GoatGame`), a ``pyspiel.State`` (:class:`GoatState`) implementing the hooks of the
Python game API and no other method of pyspiel's, and an observer (:class:`GoatObserver`), the one writer of
observation and information-state strings and tensors.

Sequential, with imperfect information and explicit chance: 37 chance moves deal the game, each card of the deck
in turn (uniform over the cards left; the first 16 go to the seats as R7 deals them, the other 20 are the stock),
then the trump card (uniform over the stock, R8).  The players' actions are those of :mod:`goat.adapters.encoding`
(47 hand-relative actions), and a player acts whenever the game asks it: the seat due to play, or a molodka holder
asked before it (R14).  As in OpenSpiel's C++ games (bridge and its 52 deal moves), ``max_game_length`` counts the
players' decisions only: 144, nine tricks at most, each of at most four plays after at most three molodka answers.

Returns, at the end only, come from :func:`goat.score`, by the ``returns`` parameter: ``"defeat"`` (default),
the other team's defeat-scores minus one's own team's (R19: +6 … −6), ``ZERO_SUM`` as OpenSpiel's bridge (another
game of two teams) is; or ``"points"``, one's team's card points / 120 (R18), ``CONSTANT_SUM`` (2), a dense signal.
``game.get_type()`` follows the parameters (the registered type is the defaults'); the other is ``dealer`` (0–3).

**Information states are perfect recall.**  A player's information state is the whole sequence of what it
observed: each card dealt to it, the trump card, every move it saw (another seat's face-down pass by its
size, another holder's molodka wait not at all, R14, R23), its own moves (waits included), each trick's winner
and each card it drew, in order; the string is that sequence, one observation a line.  The observation is the
present only: the 310-number encoding of :mod:`goat.adapters.encoding`.  Public-only and all-players
observations (``private_info`` ``NONE`` or ``ALL_PLAYERS``) show no seat's private information, or every seat's.

``resample_from_infostate``, the hook that OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``)
calls, draws a world with :func:`goat.sample_world`, puts the cards the player received where it received them
(so that the world agrees with its whole information state, not only with its present view), and applies the
actions that reach it to a new state.  States hold an immutable position, so ``clone()`` copies no game data.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from goat.errors import IllegalMoveError, InvalidDealError, MissingExtraError, shown

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.openspiel", "OpenSpiel", "openspiel", error) from None

import goat
from goat._core import DEALT, HANDS, TO_MOVE, TRICKS, bits, deal, receiver, step
from goat.adapters import encoding
from goat.cards import DECK
from goat.moves import Move, MoveKind, move_by_key
from goat.seats import check_seat
from goat.state import GameState, state_of

__all__ = ["INFO_STATE_SIZE", "MAX_SEEN_MOVES", "RECEIVED", "GoatGame", "GoatObserver", "GoatState"]
__all__ += ["RolloutEvaluator", "StrategyBot"]

_DEFAULTS = {"returns": "defeat", "dealer": 0}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: The chance moves of a game: 36 cards dealt, then the trump card (R7, R8).
_CHANCE_MOVES = 36 + 1
#: The most decisions a game has: nine tricks, each of at most four plays after at most three molodka answers.
_DECISIONS = 9 * 4 * 4

#: Cards a player receives in a game: four dealt, then five drawn (the 20 stock cards go four at a time, R15).
RECEIVED = 9
#: Moves one player can see in a game: at most 36 plays (withdrawn ones included) and 27 waits of its own.
MAX_SEEN_MOVES = 64
_MOVE_SIZE = 4 + 5 + 36 + 4
#: The length of the information-state tensor (see :class:`GoatObserver`).
INFO_STATE_SIZE = encoding.OBSERVATION_SIZE + RECEIVED * 36 + MAX_SEEN_MOVES * _MOVE_SIZE
_KIND_INDEX = {kind: i for i, kind in enumerate(MoveKind)}
_PASS, _WAIT = MoveKind.PASS, MoveKind.WAIT


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name="python_goat",
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


class GoatGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_goat`` game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if params["returns"] not in _GAME_TYPES:
            raise ValueError(f"returns must be 'defeat' or 'points', not {params['returns']!r}")
        check_seat(params["dealer"], "dealer")  # an int: 1.0 and True equal seats, but are none
        defeat = params["returns"] == "defeat"
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.NUM_ACTIONS,
            max_chance_outcomes=36,
            num_players=4,
            min_utility=-6.0 if defeat else 0.0,
            max_utility=6.0 if defeat else 1.0,
            utility_sum=0.0 if defeat else 2.0,
            max_game_length=_DECISIONS,
        )
        super().__init__(_GAME_TYPES[params["returns"]], info, params)
        self.returns_kind: str = params["returns"]
        self.dealer = int(params["dealer"])
        self._start = _Node((self.returns_kind, self.dealer), None, -1, (), None)

    def new_initial_state(self) -> GoatState:
        return GoatState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoatObserver:
        return GoatObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def max_chance_nodes_in_history(self) -> int:
        return _CHANCE_MOVES


class _Node:
    """A position and the step that reached it, immutable: clones share it (``copy.deepcopy`` gives the node
    itself), and it pickles as the actions that reach it.  Its legal actions are worked out when first asked
    for; ``memo`` keeps what was worked out for a player (information-state strings, a view)."""

    __slots__ = ("_legal", "action", "dealt", "key", "memo", "parent", "player", "rules", "state")

    def __init__(
        self,
        rules: tuple[str, int],
        parent: _Node | None,
        action: int,
        dealt: tuple[int, ...],
        state: GameState | None,
        key: int = -1,
    ) -> None:
        self.rules = rules  # (returns, dealer)
        self.parent = parent
        self.action = action  # the action that reached this node (-1 for the first)
        self.dealt = dealt  # the deck's cards dealt so far, as card indices
        self.state = state  # None during the deal
        self.key = key  # the kernel key of the move that reached this node, -1 if none (a deal)
        seat = _CHANCE if state is None else state.core[TO_MOVE]
        self.player = _TERMINAL if state is not None and seat < 0 else seat  # the kernel's -1: the game is over
        self._legal: dict[int, int] | None = None
        self.memo: dict[tuple[Any, int], Any] = {}  # by (what, player)

    @property
    def move(self) -> Move | None:  # the move that reached this node, if a player's; rollouts never ask
        return None if self.key < 0 else move_by_key(self.key)

    def __deepcopy__(self, memo: Any) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Node], tuple[Any, ...]]:
        return (_replayed, (*self.rules, tuple(node.action for node in self.trail()[1:])))

    def trail(self) -> list[_Node]:
        """The nodes from the start of the game to this one."""
        nodes = [self]
        while (parent := nodes[-1].parent) is not None:
            nodes.append(parent)
        return nodes[::-1]

    def legal(self) -> dict[int, int]:
        """The kernel keys of the legal moves of the player to move, by action number (empty at chance and
        terminal nodes)."""
        if self._legal is None:
            self._legal = {} if self.state is None else encoding.action_keys(self.state)
        return self._legal

    def child(self, action: int) -> _Node:
        """The node that ``action`` leads to."""
        if self.state is None:
            if len(self.dealt) < 36:
                if not 0 <= action < 36 or action in self.dealt:
                    raise InvalidDealError(f"deal action {action} is not a card left to deal")
                return _Node(self.rules, self, action, (*self.dealt, action), None)
            if action not in self.dealt[DEALT:]:
                raise InvalidDealError(f"trump action {action} is not a card of the stock (R8)")
            state = state_of(deal(self.dealt, action, self.rules[1], (0, 0)))
            return _Node(self.rules, self, action, self.dealt, state)
        key = self.legal().get(action)
        if key is None:
            raise IllegalMoveError(f"action {action} is not legal for seat {self.player} now")
        core = step(self.state.core, key)
        assert core is not None, "a legal move steps"
        return _Node(self.rules, self, action, self.dealt, state_of(core), key)

    def trick(self) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
        """If the move that reached this node ended a trick: its winner (R13) and the cards each seat then drew
        (R15), in the order drawn; else None."""
        parent = self.parent
        if self.key < 0 or parent is None or parent.state is None or self.state is None:
            return None
        before, after = parent.state.core, self.state.core
        if len(after[TRICKS]) == len(before[TRICKS]):
            return None
        drawn = [after[HANDS][seat] & ~before[HANDS][seat] for seat in range(4)]
        return after[TRICKS][-1][1], tuple([tuple(sorted(bits(mask), key=self.dealt.index)) for mask in drawn])

    def received(self, seat: int) -> list[int]:
        """The card indices ``seat`` has received (dealt, then drawn), in order."""
        cards = [card for i, card in enumerate(self.dealt[:DEALT]) if receiver(self.rules[1], i) == seat]
        for node in self.trail():
            trick = node.trick()
            if trick is not None:
                cards.extend(trick[1][seat])
        return cards


def _replayed(returns: str, dealer: int, actions: tuple[int, ...]) -> _Node:
    """The node that ``actions`` reach from the start of a game (unpickling)."""
    node = _Node((returns, dealer), None, -1, (), None)
    for action in actions:
        node = node.child(action)
    return node


def _returns(state: GameState, kind: str) -> list[float]:
    """The four players' returns of a finished game, from :func:`goat.score` (see the module documentation)."""
    result = goat.score(state)
    if kind == "points":
        return [result.points[seat % 2] / 120 for seat in range(4)]
    return [float(result.defeat[1 - seat % 2] - result.defeat[seat % 2]) for seat in range(4)]


class GoatState(pyspiel.State):  # type: ignore[misc]
    """A ``python_goat`` state: the deal being made by chance, then a :class:`goat.GameState` (held in an
    immutable node, its one attribute, which clones share)."""

    def __init__(self, game: GoatGame) -> None:
        super().__init__(game)
        self._node = game._start

    @property
    def game_state(self) -> GameState | None:
        """The goat state once the deal is made (``None`` before)."""
        return self._node.state

    @property
    def deck(self) -> tuple[int, ...]:
        """The deck's cards dealt so far, top first, as card indices (:attr:`goat.Card.index`)."""
        return self._node.dealt

    # --- the hooks of OpenSpiel's Python game API ---------------------------------------------------------

    def current_player(self) -> int:
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._node.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._node.player == _CHANCE, "not a chance node"
        dealt = self._node.dealt
        left = sorted(set(range(36)) - set(dealt)) if len(dealt) < 36 else sorted(dealt[DEALT:])
        return [(card, 1 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        self._node = self._node.child(action)

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._node
        if player == _CHANCE and 0 <= action < 36:
            position = len(node.dealt)
            if position == 36:
                return f"trump card {DECK[action]}"
            where = f"seat {receiver(node.rules[1], position)}" if position < DEALT else "the stock"
            return f"deal {DECK[action]} to {where}"
        key = node.legal().get(action) if node.player == player else None
        return str(move_by_key(key)) if key is not None else f"seat {player} action {action}"

    def is_terminal(self) -> bool:
        return self._node.player == _TERMINAL

    def returns(self) -> list[float]:
        node = self._node
        if node.player != _TERMINAL or node.state is None:
            return [0.0, 0.0, 0.0, 0.0]
        return _returns(node.state, node.rules[0])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GoatState:
        """A new state drawn from ``player_id``'s information set, its ``history()`` the actions that reach it:
        see the module documentation (during the deal, the other seats' cards are drawn uniformly)."""
        node, player = self._node, int(player_id)
        rng = random.Random(int(probability_sampler() * 2**53))
        state = self.get_game().new_initial_state()
        # What the player saw, worked out once per node: a search resamples the same state again and again,
        # and goat.sample_world analyses a view object once.
        plan = node.memo.get(("resample", player))
        if plan is None:
            mine = node.received(player)
            seen = None if node.state is None else goat.view(node.state, player)
            plan = node.memo[("resample", player)] = (seen, mine, [node.dealt.index(card) for card in mine])
        seen, mine, where = plan
        if seen is None:
            others = [card for card in range(36) if card not in mine]
            rng.shuffle(others)
            deck = [-1 if i in where else others.pop() for i in range(len(node.dealt))]
            moves: tuple[Move, ...] = ()
        else:
            world = goat.sample_world(seen, rng)
            deck = [card.index for card in world.deck] + [world.trump_card.index]
            moves = world.history
            assert sorted(deck[i] for i in where) == sorted(mine), "sample_world keeps the cards a seat received"
        for i, card in zip(where, mine, strict=True):
            deck[i] = card
        for action in deck:
            state.apply_action(action)
        for move in moves:  # each as its action number for the hand that makes it
            state.apply_action(encoding.action_in(move, state.game_state.core[HANDS][move.seat]))
        key = (_SCOPES[_PRIVATE.SINGLE_PLAYER], player)
        if key in node.memo:  # the same information state, so the observer's same string (ISMCTS asks it first)
            state._node.memo[key] = node.memo[key]
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        node = self._node
        if node.state is None:
            return f"dealing: {len(node.dealt)} cards dealt"
        return repr(node.state)


# --- the observer ---------------------------------------------------------------------------------------------

_PRIVATE = pyspiel.PrivateInfoType
#: How many seats' private information each observation type shows (R23).
_SCOPES = {_PRIVATE.NONE: 0, _PRIVATE.SINGLE_PLAYER: 1, _PRIVATE.ALL_PLAYERS: 4}
#: The moves an observer sees in a game: the 36 plays at most, and the waits of the seats it sees (each up to 27).
_ROWS = {0: 36, 1: MAX_SEEN_MOVES, 4: _DECISIONS}
# Where the encoding (goat.adapters.encoding's documented layout) puts an observer's private information: its
# hand, its own face-up cards of the table (relative seat 0), the face-down count there, its passes in tricks.
_HAND, _OWN_TABLE, _OWN_HIDDEN, _OWN_PASSED = range(36), range(72, 108), 216, range(264, 300)


class GoatObserver:
    """Observation and information-state tensors and strings: the one writer of both.

    ``private_info`` says whose private information is shown (R23): ``SINGLE_PLAYER`` the player's (the default
    observation and information state), ``ALL_PLAYERS`` every seat's, ``NONE`` none (what every seat sees);
    ``public_info`` must be set.  With ``perfect_recall=False`` the string and tensor are the present: the tensor
    is :func:`goat.adapters.encoding.observation`'s 310 numbers of the player (during the deal, its cards so
    far), for ``ALL_PLAYERS`` 4 × 310 (each seat's, from the player's on), for ``NONE`` the player's without its
    hand and with its own face-down cards counted by size, as the others' are.

    With ``perfect_recall=True`` the string is every observation in order, one a line, and the tensor (for
    ``SINGLE_PLAYER``, :data:`INFO_STATE_SIZE` = 3,770 numbers) adds to the present ``observation``:

    - ``received`` (9 × 36; for ``ALL_PLAYERS`` 4 × 9 × 36; for ``NONE`` none): the cards each shown seat
      received, in order (four dealt, then each draw), one-hot; rows not yet reached are zero;
    - ``seen_moves`` (64 × 49; for ``NONE`` 36 × 49; for ``ALL_PLAYERS`` 144 × 49): the moves seen, in order,
      one row each: the seat that moved, relative to the player (4, one-hot: 0 itself, 1 next, 2 partner,
      3 before); the kind (5, one-hot: lead, beat, pass, molodka, wait); the cards (36, face up or a shown
      seat's); the number of cards another seat passed face down (4, one-hot: 1–4).

    The deal's order, the times of the draws and the trick winners follow from the rules (R7, R13, R15), so
    these hold the whole sequence of observations.
    """

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if not iig_obs_type.public_info:
            raise ValueError("python_goat has no observation without public information (public_info=True)")
        self.scope = _SCOPES[iig_obs_type.private_info]
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        blocks = (4,) if self.scope == 4 else ()
        pieces: list[tuple[str, tuple[int, ...]]] = [("observation", (*blocks, encoding.OBSERVATION_SIZE))]
        if self.perfect_recall:
            if self.scope:
                pieces.append(("received", (*blocks, RECEIVED, 36)))
            pieces.append(("seen_moves", (_ROWS[self.scope], _MOVE_SIZE)))
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, shape in pieces:
            self.dict[name] = self.tensor[start : start + math.prod(shape)].reshape(shape)
            start += math.prod(shape)

    def seats(self, player: int) -> tuple[int, ...]:
        """The seats whose private information is shown to ``player``, from its own on, clockwise."""
        return tuple([(player + i) % 4 for i in range(self.scope)])

    def set_from(self, state: GoatState, player: int) -> None:
        self.tensor.fill(0)
        node = state._node
        seats = self.seats(player)
        present = self.dict["observation"].reshape(-1, encoding.OBSERVATION_SIZE)
        for row, seat in enumerate(seats or (player,)):
            self._present(present[row], node, seat, bool(seats))
        if not self.perfect_recall:
            return
        if seats:
            received = self.dict["received"].reshape(-1, RECEIVED, 36)
            for row, seat in enumerate(seats):
                cards = node.received(seat)
                received[row, range(len(cards)), cards] = 1
        lines, row = self.dict["seen_moves"], 0
        for step_ in node.trail():
            move = step_.move
            if move is None or (move.kind is _WAIT and move.seat not in seats):
                continue  # another holder's wait is private (R14)
            line = lines[row]
            line[(move.seat - player) % 4] = 1
            line[4 + _KIND_INDEX[move.kind]] = 1
            if move.kind is _PASS and move.seat not in seats:
                line[45 + len(move.cards) - 1] = 1  # face down: its size only (R23)
            else:
                line[[9 + card.index for card in move.cards]] = 1
            row += 1

    @staticmethod
    def _present(out: Any, node: _Node, seat: int, private: bool) -> None:
        """``seat``'s present observation into ``out``; without its private parts if not ``private``."""
        if node.state is None:
            if private:
                out[node.received(seat)] = 1  # the hand so far
            return
        ones, values = encoding.observation_entries(node.state, seat)
        if not private:
            hidden = {*_HAND, *_OWN_PASSED}
            for move in node.state.table:
                if move.seat == seat and move.kind is _PASS:
                    hidden.update(_OWN_TABLE[card.index] for card in move.cards)
                    values[_OWN_HIDDEN] = values.get(_OWN_HIDDEN, 0.0) + len(move.cards) / 4
            ones = [index for index in ones if index not in hidden]
        out[ones] = 1
        if values:
            out[list(values)] = list(values.values())

    def string_from(self, state: GoatState, player: int) -> str:
        node = state._node
        seats = self.seats(player)
        if not self.perfect_recall:
            return self._present_text(node, player, seats)
        # The lines back to the last node whose string was written, then that string: a search asks along a
        # path, so each string costs one line more than its parent's.
        key = (self.scope, player)
        lines: list[str] = []
        top: _Node | None = node
        while top is not None and key not in top.memo:
            line = self._line(top, player, seats)
            if line is not None:
                lines.append(line)
            top = top.parent
        if top is not None:
            lines.append(top.memo[key])
        lines.reverse()
        text = node.memo[key] = "\n".join(lines)
        return text

    @staticmethod
    def _line(node: _Node, player: int, seats: tuple[int, ...]) -> str | None:
        """What the observer saw at the step that reached ``node``, as a line (None: nothing)."""
        if node.parent is None:
            return f"seat {player}, dealer {node.rules[1]}"
        if node.state is None:  # a card dealt: seen by the seat that receives it (R7); the stock is unseen
            position = len(node.dealt) - 1
            seat = receiver(node.rules[1], position) if position < DEALT else -1
            return f"dealt {DECK[node.action]} to {seat}" if seat in seats else None
        move = node.move
        if move is None:
            return f"trump card {DECK[node.action]}"
        if move.kind is _WAIT and move.seat not in seats:
            return None  # another holder's wait is private (R14)
        text = _move_text(move, seats)
        trick = node.trick()
        if trick is not None:
            winner, drawn = trick
            text += f", trick to {winner}"
            for seat in [(winner + i) % 4 for i in range(4)]:  # the winner draws first (R15)
                if seat in seats and drawn[seat]:
                    text += f", {seat} drew " + " ".join(str(DECK[card]) for card in drawn[seat])
        return text

    @staticmethod
    def _present_text(node: _Node, player: int, seats: tuple[int, ...]) -> str:
        state = node.state
        if state is None:
            hands = "".join(f" hand {seat} [{' '.join(str(DECK[c]) for c in node.received(seat))}]" for seat in seats)
            return f"seat {player} dealing:{hands}"
        hands = "".join(f" hand {seat} [{' '.join(str(c) for c in sorted(state.hands[seat]))}]" for seat in seats)
        won = [0, 0]
        for _, winner in state.core[TRICKS]:
            won[winner % 2] += 1
        sizes = [len(hand) for hand in state.hands]
        table = "; ".join(_move_text(move, seats) for move in state.table)
        return (
            f"seat {player}{hands} trump {state.trump_card} stock {len(state.stock)} hands {sizes} "
            f"tricks {won} defeat {list(state.defeat)} table: {table}"
        )


def _move_text(move: Move, seats: tuple[int, ...]) -> str:
    """A move as an observer who sees ``seats``' private information saw it: another's pass by its size (R23)."""
    if move.kind is _PASS and move.seat not in seats:
        return f"{move.seat} pass " + " ".join(["??"] * len(move.cards))
    return str(move)


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
        action = encoding.encode(move, seen)
        if node.legal().get(action) != move.key:
            raise IllegalMoveError(f"{self.strategy!r} chose {move}, which is not a legal move of seat {node.player}")
        return action

    def restart_at(self, state: GoatState) -> None:
        pass

    def inform_action(self, state: GoatState, player_id: int, action: int) -> None:
        pass


class RolloutEvaluator:
    """OpenSpiel's ``RandomRolloutEvaluator`` for ``python_goat`` (a drop-in in its MCTS and ISMCTS bots), with
    its rollouts played inside goat: the mean returns of ``n_rollouts`` games finished with uniformly random legal
    moves by :func:`goat.legal_moves` and :func:`goat.play`, and a uniform prior.  ``random_state`` is a
    ``numpy.random.RandomState`` (one is made if ``None``)."""

    def __init__(self, n_rollouts: int = 1, random_state: Any = None) -> None:
        if type(n_rollouts) is not int or not 1 <= n_rollouts <= 1_000_000:  # 0 averaged no games into NaN
            raise ValueError(f"n_rollouts must be an int from 1 to 1,000,000, not {shown(n_rollouts)}")
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
            total += _returns(game, node.rules[0])
        return total / self.n_rollouts

    def prior(self, state: GoatState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


pyspiel.register_game(_GAME_TYPES["defeat"], GoatGame)
