"""The game state and finished tricks: frozen values, no rules.

A :class:`GameState` is made by :func:`goat.new_game` and :func:`goat.play`,
never changed.  Inside it holds one position of the kernel (a
:data:`goat._kernel.Core` tuple: hands as 36-bit masks, cards as indices, moves
as keys), so that :func:`goat.play` is cheap; the public attributes are
properties that turn those into :class:`~goat.Card` and :class:`~goat.Move` values.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from goat._core import (
    DEALER,
    DEALT,
    DEFEAT,
    FIXED,
    HANDS,
    LEADER,
    LOG,
    ORDER,
    STOCK,
    TABLE,
    TO_MOVE,
    TRICKS,
    TRUMP,
    TRUMP_CARD,
    Core,
    deal,
    mask_points,
    receiver,
    step,
)
from goat.cards import DECK, SUITS, Card, Suit, cards_of, describe, pretty_by_repr
from goat.errors import GoatError, InvalidDealError, InvalidTrickError, shown
from goat.moves import Move, move_by_key
from goat.seats import check_seat

__all__ = ["GameState", "Trick"]

#: Defeat-scores that end a match (R21): no game is dealt at them.
MATCH_LIMIT: Final = 12


@attrs.frozen(repr=False)
class Trick:
    """A finished trick: its plays since the lead (or molodka) and the seat that won it (R13).

    Plays withdrawn by a molodka (R14) are not part of the trick; they are in
    :attr:`GameState.history`.
    """

    plays: tuple[Move, ...]
    winner: int

    def __attrs_post_init__(self) -> None:  # (the engine makes each trick once: trick_of keeps them)
        check_trick(self.plays, Move, self.winner, "a trick")

    @property
    def cards(self) -> frozenset[Card]:
        """All ``4k`` cards of the trick, face up and face down."""
        return cards_of(self.mask)

    @property
    def mask(self) -> int:
        mask = 0
        for play in self.plays:
            mask |= play.mask
        return mask

    @property
    def points(self) -> int:
        """Card points in the trick (R4)."""
        return mask_points(self.mask)

    @property
    def leader(self) -> int:
        """The seat that led the trick (after a molodka: its owner)."""
        return self.plays[0].seat

    def __repr__(self) -> str:
        return f"Trick(plays={self.plays!r}, winner={self.winner!r})"

    _repr_pretty_ = pretty_by_repr

    def _repr_svg_(self) -> str:
        """The trick as a picture (who played what, the top play marked; trumps unmarked: a trick alone
        does not know its game's trump).  Jupyter and IPython-based tools show it (see :mod:`goat.svg`)."""
        from goat import svg  # imported when drawn: goat.svg builds on this module

        return svg.trick(self)


def check_trick(plays: object, kind: type, winner: object, what: str) -> None:
    """A finished trick's plays: four, one per seat, each of as many cards (R10, R11); its winner one of them."""
    if not isinstance(plays, tuple) or not all(type(play) is kind for play in plays):
        raise TypeError(f"{what}'s plays are a tuple of {kind.__name__} objects, not {shown(plays)}")
    seats = {play.seat for play in plays}
    sizes = {len(play.cards) if kind is Move else play.size for play in plays}
    if len(plays) != 4 or len(seats) != 4 or len(sizes) != 1:
        raise InvalidTrickError(
            f"{what} is four plays of as many cards, one by each seat (R10, R11), not {shown(plays)}"
        )
    check_seat(winner, f"{what}'s winner", InvalidTrickError)


_TRICKS: dict[tuple[tuple[int, ...], int], Trick] = {}


def trick_of(keys: tuple[int, ...], winner: int) -> Trick:
    """The interned :class:`Trick` of these move keys and winner."""
    found = _TRICKS.get((keys, winner))
    if found is None:
        found = Trick(tuple(map(move_by_key, keys)), winner)
        if len(_TRICKS) > 200_000:  # bounded: long simulations must not grow memory forever
            _TRICKS.clear()
        _TRICKS[keys, winner] = found
    return found


def log_keys(log: Any) -> list[int]:
    """The keys of a position's log (``core[LOG]``), oldest first."""
    keys = []
    while log is not None:
        key, log = log
        keys.append(key)
    keys.reverse()
    return keys


@attrs.frozen(repr=False)
class GameState:
    """One moment of one game (R7–R17).  Immutable and hashable.

    Read it through the properties; make the next one with :func:`goat.play`.
    Two states are equal when they hold the same deal, the same history and
    the same match context.
    """

    #: The kernel's position (see ``goat._kernel``); ``goat.state.state_of`` makes a state of one.
    core: Core

    def __attrs_post_init__(self) -> None:
        # Only a state made by hand runs this (GameState(core), attrs.evolve): the engine makes its states with
        # state_of, past __init__.  A position no game reaches would fail deep inside whatever read it next.
        _check_position(self.core)

    @property
    def hands(self) -> tuple[frozenset[Card], ...]:
        """Each seat's hand, by seat."""
        return tuple([cards_of(mask) for mask in self.core[HANDS]])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (R7)."""
        return tuple([DECK[i] for i in self.core[STOCK]])

    @property
    def trump(self) -> Suit:
        """The trump suit: the suit of :attr:`trump_card` (R8)."""
        return SUITS[self.core[FIXED][TRUMP]]

    @property
    def trump_card(self) -> Card:
        """The card the dealer showed (R8)."""
        return DECK[self.core[FIXED][TRUMP_CARD]]

    @property
    def dealer(self) -> int:
        """The seat that dealt this game."""
        dealer: int = self.core[FIXED][DEALER]
        return dealer

    @property
    def leader(self) -> int:
        """The seat that leads the current trick (after a molodka, its owner)."""
        return self.core[LEADER]

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over.

        This is either the seat due to play (:attr:`to_play`) or a molodka
        holder being asked to declare or wait before that play (R14).
        """
        seat = self.core[TO_MOVE]
        return None if seat < 0 else seat

    @property
    def to_play(self) -> int | None:
        """The seat due to make the next play of the trick, or ``None`` once the game is over."""
        core = self.core
        return None if core[TO_MOVE] < 0 else (core[LEADER] + len(core[TABLE])) % 4

    @property
    def table(self) -> tuple[Move, ...]:
        """The plays of the current trick since its lead (or molodka), in order."""
        return tuple(map(move_by_key, self.core[TABLE]))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this game, in order."""
        return tuple([trick_of(keys, winner) for keys, winner in self.core[TRICKS]])

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: stock and hands are empty (R17)."""
        return self.core[TO_MOVE] < 0

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move of this game in order, waits and withdrawn plays included."""
        return tuple(map(move_by_key, log_keys(self.core[LOG])))

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order this game was dealt from, top first (R7)."""
        return tuple([DECK[i] for i in self.core[FIXED][ORDER]])

    @property
    def defeat(self) -> tuple[int, int]:
        """The match's defeat-scores by team before this game (R21); ``(0, 0)`` outside a match."""
        defeat: tuple[int, int] = self.core[FIXED][DEFEAT]
        return defeat

    @property
    def molodka_made(self) -> bool:
        """Whether the current trick already has its molodka (R14: at most one per trick)."""
        # A molodka, or a four-card lead, which is necessarily of one suit (R10).
        table = self.core[TABLE]
        return bool(table) and (table[0] >> 5).bit_count() == 4

    def __repr__(self) -> str:
        """The call that makes this state again: the deal, then every move (see :func:`goat.new_game`).

        >>> import goat
        >>> state = goat.new_game(deck=goat.DECK, trump_card="9S")
        >>> state = goat.play(state, goat.Move.from_str("1 lead 6C"))
        >>> state
        new_game(deck='6C 7C 8C ... 10S AS', trump_card='9S', dealer=0, moves=['1 lead 6C'])
        >>> eval(repr(state), vars(goat)) == state
        True
        """
        fixed = self.core[FIXED]
        defeat = f", defeat={fixed[DEFEAT]}" if fixed[DEFEAT] != (0, 0) else ""
        moves = f", moves={[str(move) for move in self.history]}" if self.core[LOG] is not None else ""
        deck = " ".join(str(DECK[i]) for i in fixed[ORDER])
        return f"new_game(deck='{deck}', trump_card='{self.trump_card}', dealer={fixed[DEALER]}{defeat}{moves})"

    def __str__(self) -> str:
        """The state at a glance: whose turn, the trump card, every hand, the stock and the table."""
        core = self.core
        where = "game over" if self.is_over else f"trick {len(core[TRICKS]) + 1}, seat {core[TO_MOVE]} to move"
        hands = " | ".join(f"{seat}: {describe(mask) or '-'}" for seat, mask in enumerate(core[HANDS]))
        table = ", ".join(str(play) for play in self.table) or "-"
        return (
            f"{where}; trump card {self.trump_card}; dealer {self.dealer}, leader {core[LEADER]}; "
            f"hands {hands}; stock {len(core[STOCK])}; table {table}"
        )

    _repr_pretty_ = pretty_by_repr

    def _repr_svg_(self) -> str:
        """The whole table as a picture: how Jupyter and IPython-based tools show a state (:func:`goat.svg.table`)."""
        from goat import svg  # imported when drawn: goat.svg builds on this module

        return svg.table(self)


def _plain(value: object) -> bool:
    """Whether ``value`` is made of exact ints, tuples and ``None`` only, as the kernel's positions are (so that
    comparing it runs no code of another class's); read without recursion, whatever its depth."""
    waiting = [value]
    seen = 0
    while waiting:
        item = waiting.pop()
        seen += 1
        if item is None or type(item) is int:
            continue
        if type(item) is not tuple or seen > 100_000:  # no position holds that many parts
            return False
        waiting.extend(item)
    return True


def _check_position(core: object) -> None:
    """Refuse a position that is not the one its own deal and moves give (:class:`~goat.InvalidDealError`)."""
    where = "a GameState holds a position of a game (make one with goat.new_game and goat.play)"
    if type(core) is not tuple or not _plain(core) or len(core) <= max(FIXED, LOG):
        raise InvalidDealError(f"{where}, not {shown(core)}")
    try:
        fixed = core[FIXED]
        order, trump, dealer, defeat = fixed[ORDER], fixed[TRUMP_CARD], fixed[DEALER], fixed[DEFEAT]
        if sorted(order) != list(range(36)) or trump not in range(36):
            raise InvalidDealError("its deal is not the 36 cards and a trump card")
        check_seat(dealer, "dealer", InvalidDealError)
        check_defeat(defeat)
        check_trump(order, trump, dealer)
        position: Any = deal(order, trump, dealer, defeat)
        for key in log_keys(core[LOG]):
            if type(key) is not int or not 0 <= key < 1 << 41:
                raise InvalidDealError(f"{key} is no move's key")
            after = step(position, key)
            if after is None:
                raise InvalidDealError(f"the move {move_by_key(key)} is illegal where it was played")
            position = after
    except (GoatError, TypeError, ValueError, IndexError) as error:
        raise InvalidDealError(f"{where}: {error}") from None
    if position != core:
        raise InvalidDealError(f"{where}: this one is not the position its own deal and moves give")


def check_defeat(defeat: object) -> None:
    """Refuse defeat-scores no game is dealt at (:class:`~goat.InvalidDealError`): two even ints below
    :data:`MATCH_LIMIT` (R19, R21)."""
    if (
        not isinstance(defeat, tuple)
        or len(defeat) != 2
        or any(type(score) is not int or score < 0 for score in defeat)
    ):
        raise InvalidDealError(f"defeat must be two non-negative ints, not {shown(defeat)}")
    if max(defeat) >= MATCH_LIMIT:
        raise InvalidDealError(
            f"no game is dealt at defeat-scores {shown(defeat)}: a match ends at {MATCH_LIMIT} (R21)"
        )
    if defeat[0] % 2 or defeat[1] % 2:
        raise InvalidDealError(
            f"no match reaches defeat-scores {defeat}: a game adds 0, 2, 4 or 6 to them (R19, R21), so they are even"
        )


def check_trump(order: tuple[int, ...], trump: int, dealer: int) -> None:
    """Refuse a trump card (an index) dealt to a seat from the deck ``order`` (:class:`~goat.InvalidDealError`):
    it lies in the stock (R8)."""
    if trump not in order[DEALT:]:
        seat = receiver(dealer, order.index(trump))
        raise InvalidDealError(f"the trump card must lie in the stock (R8); {DECK[trump]} is dealt to seat {seat}")


_new = object.__new__
# The slot's own setter: cheaper than object.__setattr__, which must find it by name first.
_set_core = GameState.__dict__["core"].__set__


def state_of(core: Core) -> GameState:
    """A state holding the kernel position ``core``, made without attrs' ``__init__`` (the hot path)."""
    state = _new(GameState)
    _set_core(state, core)
    return state
