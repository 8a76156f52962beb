"""The arrays that hold one moment of ``n`` games: what changes from decision to decision.

The game is every array's **last** axis, so that one seat's or one slot's values for all games are contiguous
and each rule is a few whole-array operations.  A hand or a play is four card slots packed in a little-endian
``uint32`` (byte ``p`` is slot ``p``): card indices in :data:`goat.DECK` order, :data:`~goat.batch.tables.EMPTY`
after the cards, so that the subset numbers of the action encoding are byte positions.  A :class:`Position` is
never changed once made: the step works on a copy (:meth:`Position.copy`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from goat._core import DEALT, receiver
from goat.batch.tables import DECIDER, EMPTY, SUIT

__all__ = [
    "BEAT",
    "FIRST_LEADER",
    "LEAD",
    "MOLODKA",
    "NONE",
    "PACKED",
    "PASS",
    "Position",
    "deal_into",
    "deal_position",
    "dealt_hands",
    "empty_position",
    "holders_of",
    "pack",
    "planes",
    "slots",
    "sort4",
]

# What each seat did in the current trick (Position.kinds).
NONE, LEAD, BEAT, PASS, MOLODKA = 0, 1, 2, 3, 4
#: Four card slots in one number: byte p is slot p.
PACKED = np.dtype("<u4")


def slots(packed: NDArray[Any]) -> NDArray[np.uint8]:
    """The four slots of packed cards as a ``(..., 4)`` uint8 view (of a copy, if they are not contiguous)."""
    return np.ascontiguousarray(packed).view(np.uint8).reshape((*packed.shape, 4))


def planes(packed: NDArray[Any]) -> NDArray[np.uint8]:
    """The four slots of packed cards as a contiguous ``(4, ...)`` uint8 array: slot ``p`` is ``planes[p]``.

    Arithmetic on a plane is several times faster than on the strided view of one slot.
    """
    return np.ascontiguousarray(np.moveaxis(slots(packed), -1, 0))


_U8, _U16, _U24 = np.uint32(8), np.uint32(16), np.uint32(24)


def pack(b0: NDArray[Any], b1: NDArray[Any], b2: NDArray[Any], b3: NDArray[Any]) -> NDArray[np.uint32]:
    """Four slot arrays (uint8, equal shapes) packed into uint32."""
    packed = b3.astype(PACKED) << _U24
    packed |= b2.astype(PACKED) << _U16
    packed |= b1.astype(PACKED) << _U8
    packed |= b0
    return packed


def sort4(packed: NDArray[Any]) -> NDArray[np.uint32]:
    """Packed cards with their four slots sorted ascending (EMPTY last): a five-comparator sorting network."""
    b0, b1, b2, b3 = planes(packed)
    b0, b1 = np.minimum(b0, b1), np.maximum(b0, b1)
    b2, b3 = np.minimum(b2, b3), np.maximum(b2, b3)
    b0, b2 = np.minimum(b0, b2), np.maximum(b0, b2)
    b1, b3 = np.minimum(b1, b3), np.maximum(b1, b3)
    b1, b2 = np.minimum(b1, b2), np.maximum(b1, b2)
    return pack(b0, b1, b2, b3)


@dataclass(slots=True)
class Position:
    """One moment of ``n`` games (R7–R17); the game is the last axis of every array."""

    hands: NDArray[np.uint32]  #: (4, n) each seat's cards, packed and sorted
    held: NDArray[np.uint8]  #: (n,) cards in every hand when the trick started (R15: all equal)
    table: NDArray[np.uint32]  #: (4, n) the cards each seat put on the table in this trick, packed
    kinds: NDArray[np.uint8]  #: (4, n) what each seat put there: NONE, LEAD, BEAT, PASS or MOLODKA
    top: NDArray[np.uint32]  #: (n,) the top play's cards, packed (R12)
    top_above: NDArray[np.uint32]  #: (n,) for each card of the top play, the ranks above it in its suit (R3), packed
    top_side: NDArray[np.uint32]  #: (n,) for each card of the top play, 9 if it is not a trump, packed (R5)
    top_seat: NDArray[np.uint8]  #: (n,) whose the top play is
    size: NDArray[np.uint8]  #: (n,) cards per play in this trick; 0 before the lead
    leader: NDArray[np.uint8]  #: (n,) the trick's leader (after a molodka, its owner)
    played: NDArray[np.uint8]  #: (n,) plays on the table (0–3)
    holders: NDArray[np.uint8]  #: (n,) seats (bit mask) that held a molodka at the trick's start, while it has none
    waited: NDArray[np.uint8]  #: (n,) holders that waited before this play (R14)
    to_move: NDArray[np.int8]  #: (n,) the seat to decide; -1 once the game is over
    drawn: NDArray[np.uint8]  #: (n,) cards dealt or drawn from the deck so far (16–36)
    seen: NDArray[np.uint64]  #: (n,) face-up cards of finished tricks (36-bit mask)
    passed: NDArray[np.uint64]  #: (4, n) each seat's face-down cards in finished tricks
    points: NDArray[np.uint8]  #: (2, n) card points of each team's tricks (R18)
    tricks: NDArray[np.uint8]  #: (2, n) tricks each team won
    molodkas: NDArray[np.uint8]  #: (2, n) molodkas each team declared out of turn (R14)
    decisions: NDArray[np.uint16]  #: (n,) decisions made in the game
    dealt_holders: NDArray[np.uint8]  #: (n,) seats (bit mask) dealt a molodka (R14), for statistics

    def copy(self) -> Position:
        """A writeable copy of every array (the step's scratch copy)."""
        return Position(*(getattr(self, f.name).copy() for f in fields(self)))

    def freeze(self) -> Position:
        """This position with every array made read-only; returns itself."""
        for f in fields(self):
            getattr(self, f.name).flags.writeable = False
        return self

    def select(self, games: NDArray[np.intp]) -> Position:
        """The games ``games`` (copies)."""
        return Position(*(getattr(self, f.name).take(games, axis=-1) for f in fields(self)))

    def assign(self, games: NDArray[np.intp], other: Position) -> None:
        """Put ``other``'s games in place of the games ``games`` (in this writeable position)."""
        for f in fields(self):
            getattr(self, f.name)[..., games] = getattr(other, f.name)

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return sum(getattr(self, f.name).nbytes for f in fields(self))


_WEIGHT = (1 << np.arange(4, dtype=np.uint8))[:, None]


def holders_of(hands: NDArray[np.uint32], held: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The seats (bit mask) whose hand is four cards of one suit (R14), from sorted packed hands ``(4, m)``."""
    molodka = SUIT.take(hands & np.uint32(0xFF)) == SUIT.take(hands >> _U24)
    molodka &= held == 4
    holders: NDArray[np.uint8] = (molodka.view(np.uint8) * _WEIGHT).sum(axis=0, dtype=np.uint8)
    return holders


# The deal by the kernel's receiver (R7).  Turn t is the seat that receives the deck's card t: the t-th seat from
# the dealer's left, whoever deals.
#: ``FIRST_LEADER[dealer]``: the seat that receives the first card, and so leads the first trick (R9).
FIRST_LEADER: Final = np.array([receiver(dealer, 0) for dealer in range(4)], dtype=np.uint8)
# _TURN[dealer, seat]: the seat's turn.
_TURN = np.array([[[receiver(d, t) for t in range(4)].index(seat) for seat in range(4)] for d in range(4)], np.uint8)
# _DEALT_TO[r, t]: the deck position of the r-th card dealt to turn t.
_DEALT_TO = np.array([[p for p in range(DEALT) if receiver(0, p) == receiver(0, t)] for t in range(4)], dtype=np.intp).T


def dealt_hands(decks: NDArray[np.uint8]) -> tuple[NDArray[np.uint32], NDArray[np.uint8]]:
    """The four hands dealt from each deck (``(m, 36)``, top first), by turn: hand ``t`` is the seat's that
    receives the deck's card ``t`` (R7), packed and sorted ``(4, m)``; and which turns hold a molodka (a bit
    mask, R14)."""
    m = decks.shape[0]
    by_round = np.ascontiguousarray(decks.take(_DEALT_TO, axis=1).transpose(1, 2, 0))  # (round, turn, game)
    hands = sort4(pack(by_round[0], by_round[1], by_round[2], by_round[3]))
    return hands, holders_of(hands, np.full(m, 4, dtype=np.uint8))


def deal_into(
    position: Position,
    games: NDArray[np.intp],
    hands: NDArray[np.uint32],
    holders: NDArray[np.uint8],
    dealers: NDArray[np.uint8],
) -> None:
    """Deal new games into the games ``games`` of a writeable position (R7–R9), from hands by turn and their
    molodka turns (:func:`dealt_hands`) and the dealers."""
    k = games.shape[0]
    n = position.held.shape[0]
    leader = FIRST_LEADER.take(dealers)
    turn = _TURN.take(dealers, axis=0).T  # (seat, game)
    seat_flat = _SEAT_ROWS.astype(np.intp) * n + games
    position.hands.reshape(-1)[seat_flat] = hands.reshape(-1).take(turn.astype(np.intp) * k + np.arange(k))
    # The turn mask as seats: seat s holds when its turn does.
    seats = (((holders >> turn) & np.uint8(1)) << _SEAT_ROWS).sum(axis=0, dtype=np.uint8)
    position.held[games] = 4
    position.table.reshape(-1)[seat_flat] = EMPTY * 0x01010101
    position.kinds.reshape(-1)[seat_flat] = 0
    position.top[games] = EMPTY * 0x01010101
    position.top_above[games] = 0
    position.top_side[games] = 0
    position.top_seat[games] = leader
    position.size[games] = 0
    position.leader[games] = leader
    position.played[games] = 0
    position.holders[games] = seats
    position.waited[games] = 0
    position.to_move[games] = DECIDER.take(leader.astype(np.intp) * 256 + seats.astype(np.intp) * 4)
    position.drawn[games] = DEALT
    position.seen[games] = 0
    position.passed.reshape(-1)[seat_flat] = 0
    position.points[:, games] = 0
    position.tricks[:, games] = 0
    position.molodkas[:, games] = 0
    position.decisions[games] = 0
    position.dealt_holders[games] = seats


_SEAT_ROWS = np.arange(4, dtype=np.uint8)[:, None]


def empty_position(n: int) -> Position:
    """A position of ``n`` games with arrays of the right shapes and types, to deal into."""
    one = np.zeros(n, dtype=np.uint8)
    four = np.zeros((4, n), dtype=np.uint8)
    return Position(
        hands=np.zeros((4, n), dtype=PACKED),
        held=one.copy(),
        table=np.zeros((4, n), dtype=PACKED),
        kinds=four.copy(),
        top=np.zeros(n, dtype=PACKED),
        top_above=np.zeros(n, dtype=PACKED),
        top_side=np.zeros(n, dtype=PACKED),
        top_seat=one.copy(),
        size=one.copy(),
        leader=one.copy(),
        played=one.copy(),
        holders=one.copy(),
        waited=one.copy(),
        to_move=np.zeros(n, dtype=np.int8),
        drawn=one.copy(),
        seen=np.zeros(n, dtype=np.uint64),
        passed=np.zeros((4, n), dtype=np.uint64),
        points=np.zeros((2, n), dtype=np.uint8),
        tricks=np.zeros((2, n), dtype=np.uint8),
        molodkas=np.zeros((2, n), dtype=np.uint8),
        decisions=np.zeros(n, dtype=np.uint16),
        dealt_holders=one.copy(),
    )


def deal_position(decks: NDArray[np.uint8], dealers: NDArray[np.uint8]) -> Position:
    """The first position of games dealt from these decks (``(m, 36)`` card indices, top first) by these
    dealers (R7–R9)."""
    m = decks.shape[0]
    position = empty_position(m)
    hands, holders = dealt_hands(decks)
    deal_into(position, np.arange(m), hands, holders, dealers)
    return position
