"""Legal actions of every game's deciding seat (R10–R14), as four 15-bit blocks per game.

Block 0 holds the leads (bit ``s - 1`` for the subset ``s`` of the hand), block 1 the beats, block 2 the passes,
block 3 declare (bit 0) and wait (bit 1); bit ``b`` of block ``k`` is the action ``BLOCK_START[k] + b`` of
:mod:`goat.adapters.encoding` (:data:`~goat.batch.tables.BLOCK_START`).
The blocks come from table look-ups keyed on per-hand codes, never from enumerating moves: the leads from the
suits of the four slots of the seat due to play (:data:`~goat.batch.tables.LEAD_SUBSETS`), the beats from the
16-bit relation "slot ``i`` beats the top play's card ``j``" (:data:`~goat.batch.tables.BEAT_SUBSETS`), the
passes from the hand's size and the trick's (:data:`~goat.batch.tables.PASS_SUBSETS`).  The relation is two
comparisons of card numbers per pair (R5): a higher card of the same suit — ``0 <= a - (b + 1) < 8 -
rank(b)`` in bytes — or a trump on a side card.  :func:`uniform` draws one legal action per game from the
blocks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from goat.adapters.encoding import NUM_ACTIONS
from goat.batch.position import Position, planes
from goat.batch.tables import BEAT_SUBSETS, BLOCK_START, LEAD_SUBSETS, PASS_SUBSETS, POPCOUNT, SELECT, SUIT_PAIR

__all__ = ["Legal", "bits_of", "due_hands", "legal_blocks", "mask_array", "uniform"]

_PAIR_WEIGHT = (1 << np.arange(16, dtype=np.uint16)).reshape(16, 1)  # bit 4 * slot + top card
_SHIFTS = tuple(np.uint64(start) for start in BLOCK_START.tolist())  # each block's place in the action mask
_LOW16, _U16 = np.uint32(0xFFFF), np.uint32(16)


class Legal(NamedTuple):
    """The legal actions of every game's deciding seat, and what the step needs of the seat due to play."""

    blocks: NDArray[np.uint16]  #: (4, n) the legal actions in four 15-bit blocks (all 0 for a finished game)
    due: NDArray[np.uint8]  #: (n,) the seat due to play
    due_hand: NDArray[np.uint32]  #: (n,) its hand, packed


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
    return Legal(blocks, due, hand)


def bits_of(blocks: NDArray[np.uint16]) -> NDArray[np.uint64]:
    """``(n,)`` 47-bit masks, bit ``a`` for action ``a``, of four blocks."""
    bits: NDArray[np.uint64] = blocks[0].astype(np.uint64)
    for b in (1, 2, 3):
        bits |= blocks[b].astype(np.uint64) << _SHIFTS[b]
    return bits


def mask_array(bits: NDArray[np.uint64]) -> NDArray[np.bool_]:
    """``(n, NUM_ACTIONS)`` booleans of action masks."""
    n = bits.shape[0]
    unpacked = np.unpackbits(bits.astype("<u8").view(np.uint8).reshape(n, 8), axis=1, bitorder="little")
    return unpacked[:, :NUM_ACTIONS].view(np.bool_)


def uniform(blocks: NDArray[np.uint16], rng: np.random.Generator) -> NDArray[np.int16]:
    """``(n,)`` an action drawn uniformly from each game's legal actions in ``blocks`` (-1 for a game with none).

    The draw is ``floor(u * count)`` for a float64 ``u`` uniform in [0, 1), so each action's chance is within
    ``2 ** -52`` of ``1 / count``; it is found in its block with :data:`~goat.batch.tables.SELECT`.
    """
    n = blocks.shape[1]
    counts = _popcount(blocks)  # (block, game)
    ends = counts  # running ends of the blocks, in place
    ends[1] += ends[0]
    ends[2] += ends[1]
    ends[3] += ends[2]
    total = ends[3]
    draw = (rng.random(n) * total).astype(np.int16)
    block = (draw >= ends[0]).view(np.uint8) + (draw >= ends[1]) + (draw >= ends[2])
    starts = np.empty((4, n), dtype=np.int16)
    starts[0] = 0
    starts[1:] = ends[:3]
    at = block.astype(np.intp) * n + np.arange(n)
    rank = draw - starts.reshape(-1).take(at)
    chosen = blocks.reshape(-1).take(at).astype(np.intp) * 16 + rank
    action: NDArray[np.int16] = SELECT.take(chosen).astype(np.int16) + BLOCK_START.take(block)
    action[total == 0] = -1
    return action


def _popcount(blocks: NDArray[np.uint16]) -> NDArray[np.int16]:
    """The number of set bits of each 15-bit block, as int16 (numpy 2's ``bitwise_count`` when there is one)."""
    count = getattr(np, "bitwise_count", None)
    found: NDArray[np.int16] = (POPCOUNT.take(blocks) if count is None else count(blocks)).astype(np.int16)
    return found
