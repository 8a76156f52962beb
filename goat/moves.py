"""Moves and their notation (R10–R14).

A move is what one seat does at one decision: ``LEAD`` a trick (R10), answer
it with a face-up ``BEAT`` or a face-down ``PASS`` (R11), declare a
``MOLODKA`` out of turn, or ``WAIT`` when asked whether to declare (R14).

>>> from goat import Move, MoveKind, cards
>>> move = Move(MoveKind.LEAD, 1, cards("QH 10H"))
>>> str(move)
'1 lead QH 10H'
>>> Move.from_str("1 lead 10h qh") == move
True
>>> move
Move.from_str('1 lead QH 10H')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

import attrs

from goat.cards import DECK, Card, cards, cards_of, describe, look_alikes, mask_of, of_type, pretty_by_repr
from goat.errors import InvalidCardError, InvalidMoveError, shown
from goat.seats import check_seat

__all__ = ["Move", "MoveKind", "canonical_move"]


class MoveKind(enum.Enum):
    """What a move does.  ``str()`` gives the word used in move notation."""

    LEAD = "lead"  #: open a trick with k >= 1 cards of one suit (R10)
    BEAT = "beat"  #: k cards face up that beat the top play (R6, R11)
    PASS = "pass"  #: any k cards face down (R11)
    MOLODKA = "molodka"  #: declare four cards of one suit out of turn (R14)
    WAIT = "wait"  #: a molodka holder's "not now" (R14); holds no cards

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"MoveKind.{self.name}"


_KINDS: Final = tuple(MoveKind)  # by the kernel's kind code (goat._kernel.LEAD ... WAIT): MoveKind order
_KIND_INDEX: Final = {kind: i for i, kind in enumerate(_KINDS)}
_KIND_CODE: Final = {kind.value: i for i, kind in enumerate(_KINDS)}  # by the word of move notation
_WAIT_CODE: Final = _KIND_INDEX[MoveKind.WAIT]
_CARD_BIT: Final = {str(card): 1 << card.index for card in DECK}  # by the card's text as str() writes it


def _to_cards(value: Iterable[Card] | str) -> frozenset[Card]:
    if type(value) is frozenset:
        return value
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise TypeError(f"a move's cards are Card objects or card text such as '10H QH', not {shown(value)}")
    listed = cards(value) if isinstance(value, str) else list(value)
    for card in listed:
        if type(card) is not Card:
            raise TypeError(f"a move holds Card objects, not {shown(card)}")
    found = frozenset(listed)
    if len(found) != len(listed):  # a set holds each card once: one given twice is a mistake, not a move
        raise InvalidMoveError(f"a move holds each card once, not {' '.join(map(str, listed))[:80]}")
    return found


def _check_seat(instance: object, attribute: object, seat: int) -> None:
    check_seat(seat, "a move's seat", InvalidMoveError)


def _check_cards(instance: object, attribute: object, value: frozenset[Card]) -> None:
    for card in value:
        if type(card) is not Card:
            raise TypeError(f"a move holds Card objects, not {shown(card)}")


@attrs.frozen(eq=False, repr=False)
class Move:
    """One decision of one seat: ``Move(kind, seat, cards)``.

    ``cards`` is a frozenset (any iterable of cards, or card text, is
    accepted); it is empty for ``WAIT``.  Whether a move is *legal* is a
    question for :func:`goat.legal_moves` and :func:`goat.play`, not for the
    constructor, which checks types, the seat number, and that a ``WAIT``
    holds no cards (raising :class:`~goat.InvalidMoveError` otherwise: it
    could not be written down).
    """

    kind: MoveKind = attrs.field(validator=of_type(MoveKind, "a move's kind", "MoveKind.LEAD"))
    seat: int = attrs.field(validator=_check_seat)
    cards: frozenset[Card] = attrs.field(factory=frozenset, converter=_to_cards, validator=_check_cards)
    #: The engine's key: card mask << 5 | kind code << 2 | seat.  Equality and hashing use it.
    key: int = attrs.field(init=False)
    #: The cards as a 36-bit mask of :attr:`Card.index` bits (a plain slot: the engine reads it constantly).
    mask: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:  # after the validators have run
        mask = mask_of(self.cards)
        if mask and self.kind is MoveKind.WAIT:
            # Not merely illegal: such a move has no notation (str() would drop the cards).
            raise InvalidMoveError(f"a wait holds no cards (R14), not {describe(mask)}")
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "key", mask << 5 | _KIND_INDEX[self.kind] << 2 | self.seat)

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse ``"<seat> <kind> <cards…>"``, e.g. ``"1 lead 10H QH"``, ``"3 wait"``.

        Raises :class:`~goat.InvalidMoveError` (a :class:`ValueError`) quoting the text.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"not a move: {shown(text)} (expected text such as '1 lead 10H QH')")
        words = text.split()
        if len(words) < 2 or words[0] not in ("0", "1", "2", "3"):
            raise InvalidMoveError(
                f"not a move: {shown(text)} (expected '<seat 0-3> <kind> <cards>'){look_alikes(text)}"
            )
        code = _KIND_CODE.get(words[1])
        if code is not None and cls is Move and len(words) <= 6:
            # Notation as str() writes it (the bot protocol's, every message), of no more cards than a hand
            # holds (R7): the interned move, found from its key without building a Move to validate.  Anything
            # else takes the general reading below, which interns nothing (text from anywhere, a hostile bot's
            # included, must not fill the engine's table of moves).
            mask = 0
            for word in words[2:]:
                bit = _CARD_BIT.get(word)
                if bit is None or mask & bit:
                    break
                mask |= bit
            else:
                if not (mask and code == _WAIT_CODE):
                    return move_by_key(mask << 5 | code << 2 | int(words[0]))
        try:
            kind = MoveKind(words[1].lower())
        except ValueError:
            kinds = ", ".join(k.value for k in MoveKind)
            raise InvalidMoveError(
                f"not a move: {shown(text)} (the kind must be one of {kinds}){look_alikes(text)}"
            ) from None
        try:
            held = cards(" ".join(words[2:]))
        except InvalidCardError as error:
            raise InvalidMoveError(f"not a move: {shown(text)} ({error})") from None
        if len(set(held)) != len(held):
            raise InvalidMoveError(f"not a move: {shown(text)} (a card appears twice)")
        if kind is MoveKind.WAIT and held:
            raise InvalidMoveError(f"not a move: {shown(text)} (a wait holds no cards)")
        return cls(kind, int(words[0]), held)

    def __str__(self) -> str:
        if self.kind is MoveKind.WAIT:
            return f"{self.seat} wait"
        return f"{self.seat} {self.kind.value} {describe(self.mask)}"

    def __repr__(self) -> str:
        return f"Move.from_str('{self}')"

    _repr_pretty_ = pretty_by_repr

    def __eq__(self, other: object) -> bool:
        if type(other) is Move:
            return self.key == other.key
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if type(other) is Move:
            return self.key != other.key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)


# --- interned moves, for the engine ------------------------------------------

#: Every move the engine has handed out, by key: one object per move, so that equal moves are
#: usually the same object.  Shared inside the package (the kernel fills it through make_move).
MOVES: Final[dict[int, Move]] = {}
_new = object.__new__
_set = object.__setattr__


def make_move(key: int) -> Move:
    """Make, intern and return the move of the kernel's ``key`` (no validation: the kernel's keys are valid)."""
    mask = key >> 5
    move = _new(Move)
    _set(move, "kind", _KINDS[key >> 2 & 7])
    _set(move, "seat", key & 3)
    _set(move, "cards", cards_of(mask))
    _set(move, "key", key)
    _set(move, "mask", mask)
    if len(MOVES) > 500_000:  # bounded: long simulations must not grow memory forever
        MOVES.clear()
    MOVES[key] = move
    return move


def move_by_key(key: int) -> Move:
    """The interned move of the kernel's ``key``."""
    return MOVES.get(key) or make_move(key)


def move_of(kind: int, seat: int, mask: int) -> Move:
    """The interned move with this kernel kind code, seat and card mask (no validation)."""
    return move_by_key(mask << 5 | kind << 2 | seat)


# --- a bot's answer, looked up among the legal moves --------------------------------------------------


def canonical_move(move: object, legal: tuple[Move, ...]) -> Move | None:
    """The referee's own object among ``legal`` for a bot's ``move``, or ``None`` if it is not one of them.

    A bot's object is never played: only a real :class:`~goat.Move` (its type, not what its
    ``__class__`` claims) is looked up, by the value it holds, so a subclass with a lying ``__eq__``
    or a look-alike cannot pass for a legal move.
    """
    key = move_key(move)
    if key is None:
        return None
    for candidate in legal:
        if candidate.key == key:
            return candidate
    return None


def move_key(move: object) -> int | None:
    """The value a real :class:`~goat.Move` holds, or ``None`` for anything else: a subclass, a look-alike, or a
    move whose key a bot replaced (``object.__setattr__``) with an ``int`` subclass whose ``__eq__`` lies."""
    if type(move) is not Move:
        return None
    key = object.__getattribute__(move, "key")
    return key if type(key) is int else None
