"""The game state and finished tricks: frozen values, no rules.

A :class:`GameState` is made by :func:`goat.new_game` and :func:`goat.play`,
never changed.  Inside it keeps hands as 36-bit masks and cards as indices so
that :func:`goat.play` is cheap; the public attributes are
properties that turn those into :class:`~goat.Card` values.
"""

from __future__ import annotations

from typing import Any

import attrs

from goat.cards import _CARDS, _SUITS, SUIT_OF, Card, Suit, cards_of, describe, mask_points, pretty_by_repr
from goat.moves import Move

__all__ = ["GameState", "Trick"]


@attrs.frozen(repr=False)
class Trick:
    """A finished trick: its plays since the lead (or molodka) and the seat that won it (R13).

    Plays withdrawn by a molodka (R14) are not part of the trick; they are in
    :attr:`GameState.history`.
    """

    plays: tuple[Move, ...]
    winner: int

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
        plays = ", ".join(repr(play) for play in self.plays)
        return f"Trick(plays=({plays}), winner={self.winner})"

    _repr_pretty_ = pretty_by_repr


def _history(log: Any) -> tuple[Move, ...]:
    moves = []
    while log is not None:
        move, log = log
        moves.append(move)
    moves.reverse()
    return tuple(moves)


@attrs.frozen(repr=False)
class GameState:
    """One moment of one game (R7–R17).  Immutable and hashable.

    Read it through the properties; make the next one with :func:`goat.play`.
    Two states are equal when they hold the same deal, the same history and
    the same match context.
    """

    # The engine's representation.  Seats are 0–3, cards are indices into DECK.
    _hands: tuple[int, int, int, int]  # a 36-bit mask per seat
    _stock: tuple[int, ...]  # top first
    _trump_card: int
    _dealer: int
    _leader: int  # leads the current trick; after a molodka, its owner
    _table: tuple[Move, ...]  # plays of the current trick since its lead
    _tricks: tuple[Trick, ...]
    # Seats that held a molodka when this trick started, in priority order from
    # the trick's original leader (R14); empty once the trick has its molodka.
    _holders: tuple[int, ...]
    _waited: int  # how many of the holders to be asked before this play have waited
    _to_move: int  # -1 once the game is over
    _log: Any  # every move as a linked list (move, previous) | None: O(1) to extend
    _deck: tuple[int, ...]  # the order this game was dealt from (R7)
    _defeat: tuple[int, int]  # the match's defeat-scores before this game (R21, R23)
    # legal_moves() fills this cache on first use; it is not part of the value.
    _legal: tuple[Move, ...] | None = attrs.field(default=None, eq=False, hash=False)

    @property
    def hands(self) -> tuple[frozenset[Card], ...]:
        """Each seat's hand, by seat."""
        return tuple(cards_of(mask) for mask in self._hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (R7)."""
        return tuple(_CARDS[i] for i in self._stock)

    @property
    def trump(self) -> Suit:
        """The trump suit: the suit of :attr:`trump_card` (R8)."""
        return _SUITS[SUIT_OF[self._trump_card]]

    @property
    def trump_card(self) -> Card:
        """The card the dealer showed (R8)."""
        return _CARDS[self._trump_card]

    @property
    def dealer(self) -> int:
        """The seat that dealt this game."""
        return self._dealer

    @property
    def leader(self) -> int:
        """The seat that leads the current trick (after a molodka, its owner)."""
        return self._leader

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over.

        This is either the seat due to play (:attr:`to_play`) or a molodka
        holder being asked to declare or wait before that play (R14).
        """
        return None if self._to_move < 0 else self._to_move

    @property
    def to_play(self) -> int | None:
        """The seat due to make the next play of the trick, or ``None`` once the game is over."""
        return None if self._to_move < 0 else (self._leader + len(self._table)) % 4

    @property
    def table(self) -> tuple[Move, ...]:
        """The plays of the current trick since its lead (or molodka), in order."""
        return self._table

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this game, in order."""
        return self._tricks

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: stock and hands are empty (R17)."""
        return self._to_move < 0

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move of this game in order, waits and withdrawn plays included."""
        return _history(self._log)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order this game was dealt from, top first (R7)."""
        return tuple(_CARDS[i] for i in self._deck)

    @property
    def defeat(self) -> tuple[int, int]:
        """The match's defeat-scores by team before this game (R21); ``(0, 0)`` outside a match."""
        return self._defeat

    @property
    def molodka_made(self) -> bool:
        """Whether the current trick already has its molodka (R14: at most one per trick)."""
        # A molodka, or a four-card lead, which is necessarily of one suit (R10).
        return bool(self._table) and self._table[0].mask.bit_count() == 4

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
        defeat = f", defeat={self._defeat}" if self._defeat != (0, 0) else ""
        moves = f", moves={[str(move) for move in self.history]}" if self._log is not None else ""
        deck = " ".join(str(_CARDS[i]) for i in self._deck)
        return f"new_game(deck='{deck}', trump_card='{self.trump_card}', dealer={self._dealer}{defeat}{moves})"

    def __str__(self) -> str:
        """The state at a glance: whose turn, the trump card, every hand, the stock and the table."""
        where = "game over" if self.is_over else f"trick {len(self._tricks) + 1}, seat {self._to_move} to move"
        hands = " | ".join(f"{seat}: {describe(mask) or '-'}" for seat, mask in enumerate(self._hands))
        table = ", ".join(str(play) for play in self._table) or "-"
        return (
            f"{where}; trump card {self.trump_card}; dealer {self._dealer}, leader {self._leader}; "
            f"hands {hands}; stock {len(self._stock)}; table {table}"
        )

    _repr_pretty_ = pretty_by_repr
