"""What one player may see (R23).

:func:`view` is the only door through which a bot sees a game.  A
:class:`PlayerView` holds the seat's own hand, the trump card, sizes of the
stock and hands, the public history (face-up cards with who played them, the
size but not the cards of other seats' passes, trick winners), the seat's own
passes, tricks per team, the match's defeat-scores, and the seat's legal moves.
It never holds another hand, the stock order, another seat's passed cards, or
any sign that another seat was asked about a molodka and waited.

>>> import goat
>>> state = goat.new_game(seed=3)
>>> seen = goat.view(state, 2)
>>> len(seen.hand), seen.stock_size, seen.hand_sizes
(4, 20, (4, 4, 4, 4))
"""

from __future__ import annotations

import operator
from typing import Any, Final

import attrs

from goat._core import (
    DEALER,
    DEFEAT,
    FIXED,
    HANDS,
    LEADER,
    LOG,
    MOLODKA,
    PASS,
    STOCK,
    TABLE,
    TO_MOVE,
    TRICKS,
    TRUMP_CARD,
    plays,
)
from goat.cards import DECK, Card, Suit, cards_of
from goat.errors import InvalidMoveError
from goat.moves import Move, MoveKind, move_by_key
from goat.rules import legal_moves
from goat.seats import check_seat
from goat.state import GameState

__all__ = ["PlayerView", "SeenMove", "SeenTrick", "view"]


@attrs.frozen
class SeenMove:
    """A move as one seat saw it: another seat's pass shows its size, not its cards."""

    kind: MoveKind
    seat: int
    size: int  #: number of cards played
    cards: frozenset[Card]  #: the cards, or empty when they were passed face down by another seat

    @property
    def hidden(self) -> bool:
        """Whether the cards were passed face down by another seat and stay unknown."""
        return len(self.cards) < self.size

    def __str__(self) -> str:
        if self.hidden:
            return f"{self.seat} pass {' '.join('??' for _ in range(self.size))}"
        return str(Move(self.kind, self.seat, self.cards))

    @classmethod
    def from_str(cls, text: str) -> SeenMove:
        """Parse a seen move's notation: a move's (:meth:`Move.from_str`), or ``??`` for each card of a
        face-down pass.  ``SeenMove.from_str(str(seen)) == seen``.

        >>> SeenMove.from_str("2 pass ?? ??")
        SeenMove(kind=MoveKind.PASS, seat=2, size=2, cards=frozenset())
        >>> str(SeenMove.from_str("1 beat 10h qh"))  # cards in rank order (R3): the queen is below the ten
        '1 beat QH 10H'

        Raises :class:`~goat.InvalidMoveError` (a :class:`ValueError`) quoting the text.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"not a seen move: {text!r:.80} (expected text such as '1 lead 10H' or '2 pass ??')")
        words = text.split()
        if "??" in words:
            # A face-down pass shows how many cards, never which: every card is "??" (R11, R23).
            if len(words) < 3 or len(words) > 6 or words[0] not in ("0", "1", "2", "3") or words[1].lower() != "pass":
                raise InvalidMoveError(f"not a seen move: {text!r:.80} (only a pass of 1-4 cards is written '?? ...')")
            if any(word != "??" for word in words[2:]):
                raise InvalidMoveError(f"not a seen move: {text!r:.80} (a face-down pass shows no card, only '??')")
            return cls(MoveKind.PASS, int(words[0]), len(words) - 2, frozenset())
        move = Move.from_str(text)
        if len(move.cards) > 4:
            raise InvalidMoveError(f"not a seen move: {text!r:.80} (a play holds at most four cards: R7, R15)")
        return cls(move.kind, move.seat, len(move.cards), move.cards)


@attrs.frozen
class SeenTrick:
    """A finished trick as one seat saw it."""

    plays: tuple[SeenMove, ...]
    winner: int


@attrs.frozen
class PlayerView:
    """Everything seat :attr:`seat` may know about the game (R23), and nothing more."""

    seat: int
    hand: frozenset[Card]
    trump_card: Card
    dealer: int
    leader: int  #: leads the current trick (after a molodka, its owner)
    to_play: int | None  #: the seat due to make the next play; ``None`` once the game is over
    stock_size: int
    hand_sizes: tuple[int, int, int, int]
    table: tuple[SeenMove, ...]  #: plays of the current trick since its lead
    tricks: tuple[SeenTrick, ...]  #: finished tricks of this game
    history: tuple[SeenMove, ...]  #: every move of the game this seat saw, withdrawn plays included
    defeat: tuple[int, int]  #: the match's defeat-scores by team before this game
    #: This seat's moves: when it must decide, or when it is due to play (R14:
    #: whether holders are being asked first is not for this seat to know).
    legal_moves: tuple[Move, ...]

    @property
    def trump(self) -> Suit:
        """The trump suit (R8)."""
        return self.trump_card.suit

    @property
    def team(self) -> int:
        """This seat's team: seat % 2 (R1)."""
        return self.seat % 2

    @property
    def partner(self) -> int:
        """The seat opposite (R1)."""
        return (self.seat + 2) % 4

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won by each team so far."""
        won = [0, 0]
        for trick in self.tricks:
            won[trick.winner % 2] += 1
        return (won[0], won[1])

    @property
    def passed(self) -> frozenset[Card]:
        """The cards this seat has passed face down this game (still in tricks or on the table)."""
        mine = [m.cards for m in self.history if m.seat == self.seat and m.kind is MoveKind.PASS]
        return frozenset().union(*mine)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R17)."""
        return self.to_play is None

    def _repr_svg_(self) -> str:
        """What this seat sees, as a picture (other hands as backs): how Jupyter and IPython-based tools
        show a view (see :func:`goat.svg.view`)."""
        from goat import svg  # imported when drawn: goat.svg builds on this module

        return svg.view(self)


# Seen moves and tricks are shared between views: they are values, and building them afresh costs.
# Each object is chosen by what its viewer may know, never by a hidden card: whether two views hold the
# same object must not tell a bot whether two face-down passes held the same cards (R23).  _SEEN holds
# the objects, by a code of what is seen: a face-up move's kernel key, or for another seat's pass a
# negative number made of its seat and size alone.  _SEEN_BY finds a viewer's object fast: by
# ``key << 2 | viewer`` (_DROPPED for another seat's WAIT, which leaves no trace).  The seen tricks are
# _SEEN_TRICKS', by the codes of their plays and the winner.
_SEEN: dict[int, SeenMove] = {}
_SEEN_BY: dict[int, SeenMove] = {}
_SEEN_TRICKS: dict[tuple[int, ...], SeenTrick] = {}
_LIMIT = 200_000  # entries per cache: bounded memory for long simulations


def _seen_move(code: int) -> SeenMove:
    """The shared seen move of a ``_SEEN`` code."""
    found = _SEEN.get(code)
    if found is None:
        if code < 0:
            found = SeenMove(MoveKind.PASS, ~code & 3, ~code >> 2, frozenset())
        else:
            move = move_by_key(code)
            found = SeenMove(move.kind, move.seat, len(move.cards), move.cards)
        if len(_SEEN) > _LIMIT:
            _SEEN.clear()
        _SEEN[code] = found
    return found


def _seen(key: int, seat: int) -> SeenMove:
    """What ``seat`` sees of the move ``key``: :data:`_DROPPED` for another seat's WAIT (R14, R23)."""
    found = _SEEN_BY.get(key << 2 | seat)
    if found is None:
        kind = key >> 2 & 7
        if key & 3 == seat or kind < PASS or kind == MOLODKA:  # seen face up
            found = _SEEN.get(key) or _seen_move(key)
        elif kind == PASS:
            found = _seen_move(-1 - ((key >> 5).bit_count() << 2 | key & 3))
        else:  # another seat's WAIT
            found = _DROPPED
        if len(_SEEN_BY) > _LIMIT:
            _SEEN_BY.clear()
        _SEEN_BY[key << 2 | seat] = found
    return found


#: Stands for a move a viewer does not see at all; never in a view.
_DROPPED: Final = SeenMove(MoveKind.WAIT, -1, 0, frozenset())


def _seen_trick(trick: tuple[tuple[int, ...], int], seat: int) -> SeenTrick:
    """What ``seat`` sees of a finished trick, a kernel ``(keys, winner)`` entry."""
    keys, winner = trick
    # The _SEEN codes of the plays (see above; inline: this runs once per trick and seat), then the winner.
    codes = tuple(
        [
            key if key >> 2 & 7 != PASS or key & 3 == seat else -1 - ((key >> 5).bit_count() << 2 | key & 3)
            for key in keys
        ]
        + [winner]
    )
    found = _SEEN_TRICKS.get(codes)
    if found is None:
        # Most tricks of a game are new (the cache above finds mostly repeats): made without attrs' __init__.
        found = _new(SeenTrick)
        _set_plays(found, tuple([_seen_move(code) for code in codes[:-1]]))
        _set_winner(found, winner)
        if len(_SEEN_TRICKS) > _LIMIT:
            _SEEN_TRICKS.clear()
        _SEEN_TRICKS[codes] = found
    return found


# A seat's seen history at a state, and its seen tricks, kept for its next view of a later state of the same
# game (a referee asks for one at every decision): by ``id(part) << 2 | seat`` of the kernel's log node or
# last trick entry, with the part itself (or the whole tuple of tricks), which keeps the id from being reused
# while the entry lives.
_HISTORIES: dict[int, tuple[object, tuple[SeenMove, ...]]] = {}
_TRICKS_SEEN: dict[int, tuple[tuple[object, ...], tuple[SeenTrick, ...]]] = {}
_PARTS_LIMIT = 4096  # entries: a few dozen games at a time (each entry keeps its game's log alive)


def _history(log: Any, seat: int) -> tuple[SeenMove, ...]:
    """What ``seat`` sees of the moves of a kernel log (newest first): from the longest one it saw before."""
    histories = _HISTORIES
    seen_by = _SEEN_BY.get
    end = log
    new = []
    history: tuple[SeenMove, ...] = ()
    while log is not None:
        known = histories.get(id(log) << 2 | seat)
        if known is not None and known[0] is log:
            history = known[1]
            break
        key, log = log
        found = seen_by(key << 2 | seat) or _seen(key, seat)
        if found is not _DROPPED:
            new.append(found)
    if not new:
        return history
    new.reverse()
    history += tuple(new)
    if len(histories) > _PARTS_LIMIT:
        histories.clear()
    histories[id(end) << 2 | seat] = (end, history)
    return history


def _tricks(tricks: tuple[tuple[tuple[int, ...], int], ...], seat: int) -> tuple[SeenTrick, ...]:
    """What ``seat`` sees of a position's finished tricks: from the longest run of them it saw before.

    While a trick runs, the position's tuple of tricks is the same object: one look-up finds it.  A referee
    asks each seat about once a trick, so the usual miss is a seat whose last view was one trick ago.
    """
    count = len(tricks)
    if not count:
        return ()
    known = _TRICKS_SEEN.get(id(tricks[-1]) << 2 | seat)
    if known is not None and known[0] is tricks:
        return known[1]
    seen: tuple[SeenTrick, ...] = ()
    for end in range(count - 1, 0, -1):  # the latest earlier tuple of tricks this seat saw, entry by entry
        known = _TRICKS_SEEN.get(id(tricks[end - 1]) << 2 | seat)
        if known is not None and len(known[0]) == end and all(map(_is, known[0], tricks)):
            seen = known[1]
            break
    seen += tuple([_seen_by_all(trick)[seat] for trick in tricks[len(seen) :]])
    if len(_TRICKS_SEEN) > _PARTS_LIMIT:
        _TRICKS_SEEN.clear()
    _TRICKS_SEEN[id(tricks[-1]) << 2 | seat] = (tricks, seen)
    return seen


# A finished trick as each of the four seats sees it, made when the first of them is asked about it (each
# seat's view of it comes in turn): by ``id(entry)`` of the kernel's (keys, winner) entry, with the entry.
_BY_ALL: dict[int, tuple[object, tuple[SeenTrick, ...]]] = {}
_is = operator.is_


def _seen_by_all(trick: tuple[tuple[int, ...], int]) -> tuple[SeenTrick, ...]:
    known = _BY_ALL.get(id(trick))
    if known is not None and known[0] is trick:
        return known[1]
    keys = trick[0]
    if any(key >> 2 & 7 == PASS for key in keys):  # each seat sees its own pass, and the others' as sizes
        every = (_seen_trick(trick, 0), _seen_trick(trick, 1), _seen_trick(trick, 2), _seen_trick(trick, 3))
    else:  # every seat sees the same trick
        one = _seen_trick(trick, 0)
        every = (one, one, one, one)
    if len(_BY_ALL) > _PARTS_LIMIT:
        _BY_ALL.clear()
    _BY_ALL[id(trick)] = (trick, every)
    return every


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (R23)."""
    if not isinstance(state, GameState):
        raise TypeError(f"view() takes a GameState, not {type(state).__name__}")
    if seat.__class__ is not int or not 0 <= seat <= 3:
        check_seat(seat, "view()'s seat")
    core = state._core
    history = _history(core[LOG], seat)
    to_move = core[TO_MOVE]
    table = core[TABLE]
    to_play = None if to_move < 0 else (core[LEADER] + len(table)) & 3
    if to_move == seat:
        moves = legal_moves(state)
    elif to_play == seat:  # due to play while another seat is asked about its molodka (R14)
        moves = tuple(map(move_by_key, plays(core, seat)))
    else:
        moves = ()
    hands = core[HANDS]
    fixed = core[FIXED]
    seen_by = _SEEN_BY.get
    # Made without attrs' __init__, by the slots' own setters (a third of the cost of a view otherwise);
    # every value is built above as __init__ would store it.
    seen = _new(PlayerView)
    _set_seat(seen, seat)
    _set_hand(seen, cards_of(hands[seat]))
    _set_trump_card(seen, DECK[fixed[TRUMP_CARD]])
    _set_dealer(seen, fixed[DEALER])
    _set_leader(seen, core[LEADER])
    _set_to_play(seen, to_play)
    _set_stock_size(seen, len(core[STOCK]))
    _set_hand_sizes(seen, (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count()))
    _set_table(seen, tuple([seen_by(key << 2 | seat) or _seen(key, seat) for key in table]))
    _set_tricks(seen, _tricks(core[TRICKS], seat))
    _set_history(seen, history)
    _set_defeat(seen, fixed[DEFEAT])
    _set_legal_moves(seen, moves)
    return seen


_new = object.__new__
_set_plays, _set_winner = (SeenTrick.__dict__[field.name].__set__ for field in attrs.fields(SeenTrick))
(
    _set_seat,
    _set_hand,
    _set_trump_card,
    _set_dealer,
    _set_leader,
    _set_to_play,
    _set_stock_size,
    _set_hand_sizes,
    _set_table,
    _set_tricks,
    _set_history,
    _set_defeat,
    _set_legal_moves,
) = (PlayerView.__dict__[field.name].__set__ for field in attrs.fields(PlayerView))
