"""The lookup tables the batch engine runs on, built once with numpy at import (a few milliseconds).

Cards are their :attr:`goat.Card.index` (``suit * 9 + rank``, R2, R3); ``EMPTY`` (36) marks an empty slot of a
hand or a play, and every table answers for it too (no suit, no points, beats nothing, beaten by nothing).  A
hand is four slots in :data:`goat.DECK` order, empty slots last, so a *subset* of the hand is a 4-bit number
over slot positions, exactly the subsets of the action encoding (:mod:`goat.adapters.encoding`).

The rules' facts come from where they are stated: card points (R4) and suits from the kernel
(:mod:`goat._core`), who decides (R14) from the kernel's ``decider``, defeat-scores (R19) from
:func:`goat.defeat_scores`, the action numbers from :func:`goat.adapters.encoding.action_parts`.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Final

import numpy as np
from numpy.typing import NDArray

from goat._core import MOLODKAS, SUIT_OF, decider, holders_of
from goat._core import POINTS as CARD_POINTS
from goat.adapters.encoding import NUM_ACTIONS, action_parts
from goat.moves import MoveKind
from goat.scoring import defeat_scores

__all__ = [
    "ABOVE",
    "ABOVE2",
    "ACTION_BIT",
    "ACTION_BLOCK",
    "ACTION_SUBSET",
    "BEAT_SUBSETS",
    "BIT",
    "BIT2",
    "BLOCK_START",
    "DECIDER",
    "DEFEAT",
    "EMPTY",
    "KEEP",
    "KEEP_MASK",
    "KEEP_PAD",
    "KEEP_SHIFT",
    "LEAD_SUBSETS",
    "LOW_BYTES",
    "PAD_FROM",
    "PASS_SUBSETS",
    "POINTS",
    "POINTS2",
    "POPCOUNT",
    "SELECT",
    "SIDE2",
    "SIDE9",
    "SIZE",
    "SPLIT_MASK",
    "SPLIT_PAD",
    "SPLIT_SHIFT",
    "SUIT",
    "SUIT_PAIR",
    "TAKE",
    "TAKE_MASK",
    "TAKE_PAD",
    "TAKE_SHIFT",
]

EMPTY: Final = 36
_SLOTS = 37  # 36 cards and EMPTY

_card = np.arange(_SLOTS)
#: Suit of a card (0–3; 4 for EMPTY).
SUIT: Final[NDArray[np.uint8]] = np.array([*SUIT_OF, 4], dtype=np.uint8)
_RANK = np.where(_card < 36, _card % 9, -1)
#: Card points (R4); 0 for EMPTY.
POINTS: Final[NDArray[np.uint8]] = np.array([*CARD_POINTS, 0], dtype=np.uint8)
#: A card's bit in a 36-bit card mask; 0 for EMPTY.
BIT: Final[NDArray[np.uint64]] = np.array([1 << c for c in range(36)] + [0], dtype=np.uint64)


def _positions(subset: int) -> list[int]:
    return [p for p in range(4) if subset >> p & 1]


#: Population count of a 15-bit number.
_BITS15 = (np.arange(1 << 15)[:, None] >> np.arange(15)) & 1
POPCOUNT: Final[NDArray[np.uint8]] = _BITS15.sum(axis=1).astype(np.uint8)


def _select() -> NDArray[np.uint8]:
    """``SELECT[mask * 16 + r]``: the position of the ``r``-th set bit (from 0) of a 15-bit ``mask``."""
    table = np.zeros((1 << 15, 16), dtype=np.uint8)
    below = np.cumsum(_BITS15, axis=1) - _BITS15  # set bits below each bit
    masks, bits = np.nonzero(_BITS15)
    table[masks, below[masks, bits]] = bits
    return table.reshape(-1)


SELECT: Final = _select()


def _keep_take() -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """For each subset (0–15), the slot positions outside it and inside it, ascending, padded with 0."""
    keep = np.zeros((16, 4), dtype=np.intp)
    take = np.zeros((16, 4), dtype=np.intp)
    for subset in range(16):
        inside = _positions(subset)
        outside = [p for p in range(4) if p not in inside]
        keep[subset, : len(outside)] = outside
        take[subset, : len(inside)] = inside
    return keep, take


KEEP, TAKE = _keep_take()
#: Number of cards in a subset (0–15).
SIZE: Final[NDArray[np.uint8]] = POPCOUNT[:16].copy()
#: ``PAD_FROM[c]``: packed cards with EMPTY in bytes ``c`` to 3 and 0 below (c = 0–4).
PAD_FROM: Final = np.array([(EMPTY * 0x01010101) & ~((1 << 8 * c) - 1) & 0xFFFFFFFF for c in range(5)], "<u4")
#: ``LOW_BYTES[c]``: the mask of bytes 0 to ``c - 1`` (c = 0–4).
LOW_BYTES: Final = np.array([(1 << 8 * c) - 1 for c in range(5)], dtype="<u4")


def _gather(positions: NDArray[np.intp], counts: NDArray[np.intp]) -> tuple[NDArray[np.uint32], ...]:
    """Per subset: the shifts that move byte ``positions[subset, p]`` to the bottom byte, for each ``p``
    ``(16, 4)``; the mask of the first ``counts[subset]`` bytes and the EMPTY padding of the others ``(16,)``."""
    shift = (8 * positions).astype(np.uint32)
    mask = LOW_BYTES[counts]
    return shift, mask, PAD_FROM[counts]


#: Compacting a hand after a play: the cards outside the subset, in order (shifts, kept bytes, padding).
KEEP_SHIFT, KEEP_MASK, KEEP_PAD = _gather(KEEP, 4 - SIZE.astype(np.intp))
#: The cards of the subset, in order (shifts, kept bytes, padding).
TAKE_SHIFT, TAKE_MASK, TAKE_PAD = _gather(TAKE, SIZE.astype(np.intp))
#: Both at once, ``(16, 8)`` shifts: the kept cards' bytes, then the played cards'.
SPLIT_SHIFT: Final = np.concatenate([KEEP_SHIFT, TAKE_SHIFT], axis=1)
#: ``(16, 2)`` the kept bytes' masks and paddings of :data:`SPLIT_SHIFT`'s two halves.
SPLIT_MASK: Final = np.stack([KEEP_MASK, TAKE_MASK], axis=1)
SPLIT_PAD: Final = np.stack([KEEP_PAD, TAKE_PAD], axis=1)
_PARTS = [action_parts(action) for action in range(NUM_ACTIONS)]
# The legal-action blocks of goat.batch.legal: leads, beats, passes, then declare (bit 0) and wait (bit 1).
_BLOCK = {MoveKind.LEAD: 0, MoveKind.BEAT: 1, MoveKind.PASS: 2, MoveKind.MOLODKA: 3, MoveKind.WAIT: 3}
_BIT = {MoveKind.MOLODKA: 0, MoveKind.WAIT: 1}
#: ``ACTION_BLOCK[action]``, ``ACTION_BIT[action]``: an action's block (0 leads, 1 beats, 2 passes, 3 declare
#: and wait) and bit in it, in the legal-action blocks of :mod:`goat.batch.legal`.
ACTION_BLOCK: Final = np.array([_BLOCK[kind] for kind, _ in _PARTS], dtype=np.uint8)
ACTION_BIT: Final = np.array([_BIT.get(kind, subset - 1) for kind, subset in _PARTS], dtype=np.uint16)
#: ``ACTION_SUBSET[action]``: the subset (1–15) of the hand a lead, beat or pass plays (0 for declare, wait).
ACTION_SUBSET: Final = np.array([subset for _, subset in _PARTS], dtype=np.intp)
#: ``BLOCK_START[block]``: the action of bit 0 of a block; the action of bit ``b`` is ``BLOCK_START[block] + b``.
BLOCK_START: Final = np.array([int(np.flatnonzero(block == ACTION_BLOCK)[0]) for block in range(4)], dtype=np.int16)
# The blocks are runs of consecutive actions, so that a block shifted by its start is a run of the action mask.
assert (BLOCK_START[ACTION_BLOCK] + ACTION_BIT == np.arange(NUM_ACTIONS)).all(), "actions in runs by block"
#: ``SUIT_PAIR[two slots]``: the suits (4 for EMPTY) of half a packed hand (a uint16) in base 5, low slot first:
#: a hand's :data:`LEAD_SUBSETS` code is ``SUIT_PAIR[low half] + 25 * SUIT_PAIR[high half]``.
SUIT_PAIR: Final = (
    SUIT[np.minimum(np.arange(1 << 16) & 0xFF, EMPTY)].astype(np.uint16)
    + 5 * SUIT[np.minimum(np.arange(1 << 16) >> 8, EMPTY)].astype(np.uint16)
).astype(np.uint16)
#: ``ABOVE[card]``: ranks above the card in its suit (R3), 8 - rank; 0 for EMPTY.
ABOVE: Final = np.where(_card < 36, 8 - _card % 9, 0).astype(np.uint8)
#: ``SIDE9[trump * 37 + card]``: 9 when the card is a real card outside the trump suit, else 0 (R5).
SIDE9: Final = np.array([9 if c < 36 and c // 9 != t else 0 for t in range(4) for c in range(_SLOTS)], dtype=np.uint8)


def _lead_subsets() -> NDArray[np.uint16]:
    """``LEAD_SUBSETS[code]``: the leads (R10) of a hand whose slot suits are ``code`` (base 5, slot 0 lowest):
    every non-empty subset of its cards that are all of one suit, as a 15-bit mask over subsets 1–15."""
    table = np.zeros(5**4, dtype=np.uint16)
    for code in range(5**4):
        suits = [code // 5**p % 5 for p in range(4)]
        mask = 0
        for subset in range(1, 16):
            chosen = {suits[p] for p in _positions(subset)}
            if len(chosen) == 1 and 4 not in chosen:
                mask |= 1 << (subset - 1)
        table[code] = mask
    return table


LEAD_SUBSETS: Final = _lead_subsets()


def _pass_subsets() -> NDArray[np.uint16]:
    """``PASS_SUBSETS[held * 5 + k]``: every ``k``-card subset of a hand of ``held`` cards (R11)."""
    table = np.zeros(25, dtype=np.uint16)
    for held in range(5):
        for k in range(1, 5):
            for subset in range(1, 16):
                if SIZE[subset] == k and subset < 1 << held:
                    table[held * 5 + k] |= 1 << (subset - 1)
    return table


PASS_SUBSETS: Final = _pass_subsets()


def _beat_subsets() -> NDArray[np.uint16]:
    """``BEAT_SUBSETS[k * 65536 + relation]``: the ``k``-card subsets of a hand that beat a ``k``-card top play (R6).

    ``relation`` has bit ``4 * i + j`` set when the hand's slot ``i`` beats the top play's card ``j`` (R5); a
    subset beats the play when its cards can be paired one to one with the play's cards, each beating its own.
    """
    relation = np.arange(1 << 16, dtype=np.int64)
    table = np.zeros((5, 1 << 16), dtype=np.uint16)
    for k in range(1, 5):
        for chosen in combinations(range(4), k):
            subset = sum(1 << p for p in chosen)
            matched = np.zeros(1 << 16, dtype=bool)
            for columns in permutations(range(k)):
                pairs = np.ones(1 << 16, dtype=bool)
                for slot, column in zip(chosen, columns, strict=True):
                    pairs &= (relation >> (4 * slot + column)) & 1 == 1
                matched |= pairs
            table[k, matched] |= 1 << (subset - 1)
    return table.reshape(-1)


BEAT_SUBSETS: Final = _beat_subsets()


def _decider() -> NDArray[np.int8]:
    """``DECIDER[over * 1024 + ((leader * 4 + played) * 16 + holders) * 4 + waited]``: who decides now (R14),
    the kernel's ``decider`` for each molodka holders' seat mask ``holders`` after ``waited`` waits.

    Once the game is over (``over`` = 1), nobody: -1.
    """
    molodka = min(MOLODKAS)  # any molodka: the kernel's holders_of orders the seats that hold one (R14)
    table = np.full(2 * 4 * 4 * 16 * 4, -1, dtype=np.int8)
    for leader in range(4):
        for holders in range(16):
            seats = holders_of(tuple(molodka if holders >> s & 1 else 0 for s in range(4)), leader)
            for played in range(4):
                for waited in range(4):
                    index = ((leader * 4 + played) * 16 + holders) * 4 + waited
                    table[index] = decider(leader, played, seats, waited)
    return table


DECIDER: Final = _decider()


def _defeat() -> NDArray[np.uint8]:
    """``DEFEAT[points * 2 + (tricks > 0)]``: defeat-scores a team gains (R19, R20), by :func:`goat.defeat_scores`."""
    table = np.zeros(121 * 2, dtype=np.uint8)
    for points in range(121):
        for any_trick in (0, 1):
            # Points without a trick never occur: those entries are filled as for one trick.
            table[points * 2 + any_trick] = defeat_scores(points, int(any_trick or points > 0))
    return table


DEFEAT: Final = _defeat()


def _pairs() -> tuple[NDArray[np.uint8], NDArray[np.uint64]]:
    """``POINTS2``, ``BIT2``: the points and the card mask of two slots packed in a uint16 (low byte first)."""
    low = np.arange(1 << 16) & 0xFF
    high = np.arange(1 << 16) >> 8
    valid = (low <= EMPTY) & (high <= EMPTY)
    low = np.where(valid, low, EMPTY)
    high = np.where(valid, high, EMPTY)
    return (POINTS[low] + POINTS[high]).astype(np.uint8), BIT[low] | BIT[high]


#: ``POINTS2[two slots]``, ``BIT2[two slots]``: for half of a packed play (a uint16), its points and card mask.
POINTS2, BIT2 = _pairs()


_SUITS = range(4)


def _pair_codes() -> tuple[NDArray[np.uint16], NDArray[np.uint16]]:
    """``ABOVE2[two slots]`` and ``SIDE2[trump * 65536 + two slots]``: :data:`ABOVE` and :data:`SIDE9` of both
    slots of half a packed play, packed the same way."""
    low = np.minimum(np.arange(1 << 16) & 0xFF, EMPTY)
    high = np.minimum(np.arange(1 << 16) >> 8, EMPTY)
    above = ABOVE[low].astype(np.uint16) | ABOVE[high].astype(np.uint16) << 8
    side = [
        SIDE9[t * _SLOTS + low].astype(np.uint16) | SIDE9[t * _SLOTS + high].astype(np.uint16) << 8 for t in range(4)
    ]
    return above, np.concatenate(side)


ABOVE2, SIDE2 = _pair_codes()
