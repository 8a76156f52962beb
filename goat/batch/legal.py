"""Legal actions of every game's deciding seat (R10–R14), as four 15-bit blocks per game.

Block 0 holds the leads (bit ``s - 1`` for the subset ``s`` of the hand: action ``s - 1``), block 1 the beats
(actions 15–29), block 2 the passes (30–44), block 3 declare (bit 0: action 45) and wait (bit 1: action 46).
The blocks come from table look-ups keyed on per-hand codes, never from enumerating moves: the leads from the
suits of the four slots of the seat due to play (:data:`~goat.batch.tables.LEAD_SUBSETS`), the beats from the
16-bit relation "slot ``i`` beats the top play's card ``j``" (:data:`~goat.batch.tables.BEAT_SUBSETS`), the
passes from the hand's size and the trick's (:data:`~goat.batch.tables.PASS_SUBSETS`).  The relation is two
comparisons of card numbers per pair (R5): a higher card of the same suit — ``0 <= a - (b + 1) < 8 -
rank(b)`` in bytes — or a trump on a side card.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from goat.batch.position import Position, planes
from goat.batch.tables import BEAT_SUBSETS, LEAD_SUBSETS, PASS_SUBSETS, SUIT_PAIR

__all__ = ["Legal", "bits_of", "due_hands", "legal_blocks", "mask_array"]

_PAIR_WEIGHT = (1 << np.arange(16, dtype=np.uint16)).reshape(16, 1)  # bit 4 * slot + top card
_SHIFTS = (np.uint64(0), np.uint64(15), np.uint64(30), np.uint64(45))
_LOW16, _U16 = np.uint32(0xFFFF), np.uint32(16)
Legal = tuple[NDArray[np.uint16], NDArray[np.uint8], NDArray[np.uint32]]


def due_hands(position: Position) -> tuple[NDArray[np.uint8], NDArray[np.uint32]]:
    """The seat due to play in each game, and its packed hand."""
    n = position.leader.shape[0]
    due: NDArray[np.uint8] = (position.leader + position.played) & np.uint8(3)
    flat = due.astype(np.intp) * n + np.arange(n)
    hand: NDArray[np.uint32] = position.hands.reshape(-1).take(flat)
    return due, hand


def legal_blocks(position: Position, trump: NDArray[np.uint8]) -> Legal:
    """``(4, n)`` the deciding seat's legal actions in four blocks (all 0 for a finished game); and, for the
    step, the seat due to play and its packed hand."""
    due, hand = due_hands(position)
    cards = planes(hand)  # (slot, game)
    played = position.played
    # Leads (R10): the non-empty subsets of one suit.
    code = SUIT_PAIR.take(hand & _LOW16) + SUIT_PAIR.take(hand >> _U16) * np.uint16(25)
    leads = LEAD_SUBSETS.take(code)
    # Beats (R6, R11): the relation of each slot to each card of the top play, (slot, top card, game).
    after = planes(position.top) + np.uint8(1)
    above = planes(position.top_above)
    side = planes(position.top_side)
    trumps = cards - trump * np.uint8(9)  # below 9 for a trump
    pairs = np.empty((4, 4, played.shape[0]), dtype=np.bool_)
    for i in range(4):
        np.less(cards[i] - after, above, out=pairs[i])
        pairs[i] |= trumps[i] < side
    relation = (pairs.view(np.uint8).reshape(16, -1) * _PAIR_WEIGHT).sum(axis=0, dtype=np.uint16)
    size = position.size
    beats = BEAT_SUBSETS.take((size.astype(np.intp) << 16) | relation)
    passes = PASS_SUBSETS.take(position.held * np.uint8(5) + size)
    to_move = position.to_move
    playing = to_move == due  # the seat due to play decides (a finished game: to_move -1)
    asked = (to_move != due) & (to_move >= 0)  # a molodka holder asked before the play (R14)
    answering = playing & (played > 0)
    blocks = np.empty((4, played.shape[0]), dtype=np.uint16)
    np.multiply(leads, playing & (played == 0), out=blocks[0])
    np.multiply(beats, answering, out=blocks[1])
    np.multiply(passes, answering, out=blocks[2])
    np.bitwise_and(position.holders >> due, answering, out=blocks[3], casting="unsafe")
    blocks[3] |= asked * np.uint16(3)
    return blocks, due, hand


def bits_of(blocks: NDArray[np.uint16]) -> NDArray[np.uint64]:
    """``(n,)`` 47-bit masks, bit ``a`` for action ``a``, of four blocks."""
    bits: NDArray[np.uint64] = blocks[0].astype(np.uint64)
    for b in (1, 2, 3):
        bits |= blocks[b].astype(np.uint64) << _SHIFTS[b]
    return bits


def mask_array(bits: NDArray[np.uint64]) -> NDArray[np.bool_]:
    """``(n, 47)`` booleans of 47-bit masks."""
    n = bits.shape[0]
    unpacked = np.unpackbits(bits.astype("<u8").view(np.uint8).reshape(n, 8), axis=1, bitorder="little")
    return unpacked[:, :47].view(np.bool_)
