"""Cards, suits, ranks and the two ways one play can beat another (R1–R6).

>>> from goat import Card, Rank, Suit, beats, beats_set, cards
>>> Card.from_str("10h")
Card.from_str('10H')
>>> str(Card(Rank.QUEEN, Suit.SPADES)), Card.from_str("q♠").points
('QS', 3)
>>> beats(Card.from_str("6D"), Card.from_str("AS"), trump=Suit.DIAMONDS)
True
>>> beats_set(cards("9D JS"), cards("QS 7S"), trump=Suit.DIAMONDS)
True

Inside, a card is also a small integer, its :attr:`Card.index` in :data:`DECK`
(``suit * 9 + rank``), and a set of cards is a 36-bit mask.  The rules engine
works on those, with the tables of the kernel (:mod:`goat._kernel`); this module
turns them into cards and back (:func:`cards_of`, :func:`mask_of`, :func:`describe`:
names shared inside the package, not part of the API).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, Final

import attrs

from goat._core import BEATERS, POINTS, bits, frozen_cards, set_beats
from goat.errors import InvalidCardError, shown

__all__ = ["DECK", "Card", "Rank", "Suit", "beats", "beats_set", "cards"]


def pretty_by_repr(value: object, printer: Any, cycle: bool) -> None:
    """``_repr_pretty_`` for the values whose ``repr()`` pastes back: Hypothesis and IPython print with it.

    Without it they would print attrs classes field by field, private bit masks included.
    """
    printer.text(repr(value))


class Suit(enum.Enum):
    """The four suits (R2).  ``str()`` gives the letter, :attr:`symbol` the glyph."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @property
    def symbol(self) -> str:
        """The suit's glyph: ``"♣"``, ``"♦"``, ``"♥"`` or ``"♠"``."""
        return _SUIT_SYMBOL[self]

    @property
    def index(self) -> int:
        """Position in the canonical suit order C, D, H, S (0–3)."""
        return _SUIT_INDEX[self]

    @classmethod
    def from_str(cls, text: str) -> Suit:
        """Parse ``"C"``, ``"d"``, ``"♥"`` (or the white ``"♡"``) into a suit.

        >>> Suit.from_str("♠")
        Suit.SPADES
        """
        try:
            return _SUIT_BY_TEXT[text.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidCardError(f"not a suit: {shown(text)} (expected one of C D H S or ♣ ♦ ♥ ♠)") from None


_SUIT_SYMBOL: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(Suit)}
#: The suits by index (the kernel's suit numbers): ``SUITS[card.index // 9] is card.suit``.
SUITS: Final = tuple(Suit)
_SUIT_BY_TEXT: Final = {
    **{s.value: s for s in Suit},
    **{sym: s for s, sym in _SUIT_SYMBOL.items()},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}


class Rank(enum.IntEnum):
    """The nine ranks, valued by priority within a suit (R3): the ten ranks above the king."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    TEN = 7
    ACE = 8

    def __str__(self) -> str:
        return _RANK_LABEL[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    @property
    def points(self) -> int:
        """Card points of this rank (R4): 6–9 score 0, J 2, Q 3, K 4, 10 10, A 11."""
        return POINTS[self.value]  # the card of this rank in the first suit (index = suit * 9 + rank)

    @classmethod
    def from_str(cls, text: str) -> Rank:
        """Parse ``"6"`` … ``"10"`` (or ``"T"``), ``"J"``, ``"Q"``, ``"K"``, ``"A"``.

        >>> Rank.from_str("t"), Rank.from_str("10")
        (Rank.TEN, Rank.TEN)
        """
        try:
            return _RANK_BY_TEXT[text.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidCardError(f"not a rank: {shown(text)} (expected 6 7 8 9 10 J Q K A)") from None


_RANK_LABEL: Final = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")
_RANK_BY_TEXT: Final = {**{label: Rank(i) for i, label in enumerate(_RANK_LABEL)}, "T": Rank.TEN}


def of_type(kind: type, what: str, example: str) -> Any:  # an attrs validator, typed as the field it checks
    """An attrs validator: :class:`TypeError` saying what ``what`` must be (attrs' own gives a printed tuple)."""

    def check(instance: object, attribute: object, value: object) -> None:
        if not isinstance(value, kind):
            raise TypeError(f"{what} must be a {kind.__name__}, such as {example}, not {shown(value)}")

    return check


@attrs.frozen(eq=False, repr=False)
class Card:
    """One playing card.  Immutable, hashable, ordered as in :data:`DECK`.

    >>> Card(Rank.ACE, Suit.CLUBS) == Card.from_str("AC")
    True
    >>> sorted(cards("AH 6C 10H"))
    [Card.from_str('6C'), Card.from_str('10H'), Card.from_str('AH')]
    """

    rank: Rank = attrs.field(validator=of_type(Rank, "a card's rank", "Rank.ACE"))
    suit: Suit = attrs.field(validator=of_type(Suit, "a card's suit", "Suit.HEARTS"))
    #: Position in :data:`DECK` (0–35): ``suit.index * 9 + rank``.
    index: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:  # after the validators have run
        object.__setattr__(self, "index", _SUIT_INDEX[self.suit] * 9 + int(self.rank))

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse a card: rank then suit, e.g. ``"10H"``, ``"TH"``, ``"10♥"``, ``"th"``, ``"q♠"``.

        Raises :class:`~goat.InvalidCardError` (a :class:`ValueError`) quoting the text.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"not a card: {shown(text)} (expected text such as '10H')")
        card = _CARD_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise InvalidCardError(
                f"not a card: {shown(text)} (expected a rank 6 7 8 9 10 J Q K A, then a suit C D H S or ♣ ♦ ♥ ♠)"
                + look_alikes(text)
            )
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at ``index`` of :data:`DECK` (0–35)."""
        if type(index) is not int or not 0 <= index < 36:  # (True is no index)
            raise InvalidCardError(f"not a card index: {shown(index)} (expected 0–35)")
        return DECK[index]

    @property
    def points(self) -> int:
        """Card points (R4)."""
        return POINTS[self.index]

    @property
    def symbol(self) -> str:
        """The card with its suit glyph, e.g. ``"10♥"``."""
        return f"{self.rank}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.from_str('{self}')"

    _repr_pretty_ = pretty_by_repr

    def _repr_svg_(self) -> str:
        """The card as a picture: how Jupyter and IPython-based tools show it (see :mod:`goat.svg`)."""
        from goat import svg  # imported when drawn: goat.svg builds on this module

        return svg.card(self)

    # Equality, hashing and order go by the index alone: it is the card.
    def __eq__(self, other: object) -> bool:
        if type(other) is Card:
            return self.index == other.index
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if type(other) is Card:
            return self.index != other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if type(other) is Card:
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if type(other) is Card:
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if type(other) is Card:
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if type(other) is Card:
            return self.index >= other.index
        return NotImplemented


#: The 36 cards (R2) in canonical order: suits C, D, H, S; within a suit, ranks by priority.
DECK: Final[tuple[Card, ...]] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_CARD_BY_TEXT: Final[dict[str, Card]] = {}


def look_alikes(text: str) -> str:
    """For an error's message: the letters of ``text`` that only look Latin — Cyrillic С, Н, К, А, Т, typed on a
    Russian keyboard, look exactly like C, H, K, A, T — named, so that the message does not read like valid text."""
    import unicodedata  # only for the error message

    odd = sorted({ch for ch in text if ch.isalpha() and not ch.isascii() and ch not in "♣♦♥♠"})
    if not odd:
        return ""
    named = ", ".join(f"{ch!r} ({unicodedata.name(ch, 'unnamed').lower()})" for ch in odd[:4])
    return f"; it holds letters that are not Latin: {named}"


for _card in DECK:
    for _rank_text in [str(_card.rank)] + (["T"] if _card.rank is Rank.TEN else []):
        for _suit_text, _suit in _SUIT_BY_TEXT.items():
            if _suit is _card.suit:
                _CARD_BY_TEXT[_rank_text + _suit_text] = _card


def cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, in the given order.

    >>> cards("10H QS, 6C")
    (Card.from_str('10H'), Card.from_str('QS'), Card.from_str('6C'))
    """
    if not isinstance(text, str):
        raise TypeError(f"cards() takes text such as '10H QS', not {type(text).__name__}")
    return tuple(Card.from_str(word) for word in text.replace(",", " ").split())


def beats(a: Card, b: Card, trump: Suit) -> bool:
    """Whether card ``a`` beats card ``b`` when ``trump`` is trump (R5).

    Same suit and higher priority, or a trump on a non-trump.  Two non-trump
    cards of different suits cannot be compared: neither beats the other.

    >>> beats(Card.from_str("10C"), Card.from_str("KC"), Suit.HEARTS)
    True
    >>> beats(Card.from_str("AS"), Card.from_str("10D"), Suit.HEARTS)
    False
    """
    if type(a) is not Card or type(b) is not Card:
        raise TypeError(f"beats() compares two Card objects, not {shown(a)} and {shown(b)}")
    return bool(BEATERS[_trump_index(trump)][b.index] >> a.index & 1)


def beats_set(new: Iterable[Card], top: Iterable[Card], trump: Suit) -> bool:
    """Whether the set ``new`` beats the set ``top`` (R6).

    True when the sets have the same size and can be paired one-to-one so that
    every card of ``new`` beats its partner (R5).  ``new`` may mix suits.
    False when the sizes differ.

    >>> beats_set(cards("9D JS"), cards("QS 7S"), Suit.DIAMONDS)
    True
    >>> beats_set(cards("KS 8S"), cards("QS 9S"), Suit.DIAMONDS)
    False
    >>> beats_set("KS 10S", "QS 9S", Suit.DIAMONDS)  # card text works too
    True
    """
    if isinstance(new, str):
        new = cards(new)
    if isinstance(top, str):
        top = cards(top)
    return set_beats(mask_of(new, "beats_set(): new"), mask_of(top, "beats_set(): top"), _trump_index(trump))


def _trump_index(trump: Suit) -> int:
    if not isinstance(trump, Suit):
        raise TypeError(f"the trump must be a Suit, such as Suit.HEARTS, not {shown(trump)}")
    return _SUIT_INDEX[trump]


# --- between cards and the kernel's masks -----------------------------------


#: The frozensets :func:`cards_of` made, by mask (package-internal: goat.view's hands and face-up plays are these too).
frozen_by_mask: dict[int, frozenset[Card]] = {}


def cards_of(mask: int) -> frozenset[Card]:
    """The cards of ``mask`` as a frozenset of interned :class:`Card` objects."""
    return frozen_cards(mask, DECK, frozen_by_mask)


def mask_of(cards: Iterable[Card], what: str = "cards") -> int:
    """The mask of ``cards``: :class:`TypeError` naming ``what`` for a non-card, :class:`ValueError` for a duplicate."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise TypeError(f"{what} must be a collection of Card objects, not {shown(cards)}")
    mask = 0
    count = 0
    for card in cards:
        if type(card) is not Card:
            raise TypeError(f"{what}: expected Card objects, got {shown(card)}")
        mask |= 1 << card.index
        count += 1
    if mask.bit_count() != count:
        raise InvalidCardError(f"{what}: the same card appears twice")
    return mask


def describe(mask: int) -> str:
    """Cards of ``mask`` as text in deck order, e.g. ``"6C 10H"``."""
    return " ".join(str(DECK[i]) for i in bits(mask))
