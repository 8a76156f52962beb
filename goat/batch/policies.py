"""Batched policies: one action for every game of a :class:`~goat.batch.Batch` at once.

:func:`uniform_actions` draws uniformly among each game's legal actions; :func:`greedy_lite_actions` is a
simple deterministic rule computed on the arrays (a much weaker cousin of the ``greedy`` bot):

- asked about its molodka before another seat's play, a holder declares it (R14); so does the seat due to
  answer when it holds one;
- leading, a seat leads its four cards of one suit if it has them, else its single weakest card — weakest by
  rank (R3), a trump counted nine ranks above every side card (R5);
- answering while its partner holds the top play, it passes the cards worth the most points (R4), the
  weakest first among equals;
- answering while an opponent holds the top play, it beats with the weakest cards that beat (R6), or, when it
  cannot beat, passes the cards worth the fewest points, the weakest among equals.

Ties go to the lowest subset of the hand.  Both functions return ``(n,)`` int16 actions, -1 for a game that
is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from goat.batch.position import planes
from goat.batch.tables import POINTS, POPCOUNT, SELECT, SUIT

if TYPE_CHECKING:
    from goat.batch.games import Batch

__all__ = ["greedy_lite_actions", "uniform_actions"]


def uniform_actions(batch: Batch, rng: np.random.Generator) -> NDArray[np.int16]:
    """``(n,)`` an action drawn uniformly from each game's legal actions (-1 for a finished game).

    The draw is ``floor(u * count)`` for a float64 ``u`` uniform in [0, 1), so each action's chance is within
    ``2 ** -52`` of ``1 / count``.
    """
    return uniform_from_blocks(batch._legal_found()[0], rng)


def uniform_from_blocks(blocks: NDArray[np.uint16], rng: np.random.Generator) -> NDArray[np.int16]:
    """:func:`uniform_actions` on the four 15-bit blocks of :func:`goat.batch.legal.legal_blocks`: the draw is
    found in its block with :data:`~goat.batch.tables.SELECT`."""
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
    action: NDArray[np.int16] = SELECT.take(chosen).astype(np.int16) + block * np.int16(15)
    action[total == 0] = -1
    return action


def _popcount(blocks: NDArray[np.uint16]) -> NDArray[np.int16]:
    """The number of set bits of each 15-bit block, as int16 (numpy 2's ``bitwise_count`` when there is one)."""
    count = getattr(np, "bitwise_count", None)
    found: NDArray[np.int16] = (POPCOUNT.take(blocks) if count is None else count(blocks)).astype(np.int16)
    return found


# _MEMBERS[s - 1, p]: whether slot p is in subset s.
_MEMBERS = ((np.arange(1, 16)[:, None] >> np.arange(4)) & 1).astype(np.float32)
_SUBSET_BITS = np.arange(15, dtype=np.uint16)[:, None]
_SINGLES = np.isin(np.arange(1, 16), [1, 2, 4, 8])[:, None]
_RANK = np.where(np.arange(37) < 36, np.arange(37) % 9, 0).astype(np.float32)
_NEVER = np.float32(-1e9)


def greedy_lite_actions(batch: Batch) -> NDArray[np.int16]:
    """``(n,)`` the greedy-lite rule's action for each game (see the module documentation)."""
    blocks, due, hand = batch._legal_found()
    position = batch._position
    cards = planes(hand)  # (slot, game): the hand of the seat due to play
    points = POINTS.take(cards).astype(np.float32)
    strength = _RANK.take(cards) + 9 * (SUIT.take(cards) == batch._trump).astype(np.float32)
    strength[cards == 36] = 100
    total_points = _MEMBERS @ points  # (subset - 1, game)
    total_strength = _MEMBERS @ strength
    legal = [((blocks[b] >> _SUBSET_BITS) & 1).astype(np.bool_) for b in range(3)]  # (subset - 1, game)

    def best(score: NDArray[np.float32], allowed: NDArray[np.bool_]) -> NDArray[np.intp]:
        found: NDArray[np.intp] = np.argmax(np.where(allowed, score, _NEVER), axis=0)
        return found

    lead_score = np.where(_SINGLES, -total_strength, _NEVER)
    lead_score[14] = 1e6  # the four cards of one suit, when they are a legal lead
    lead = best(lead_score, legal[0])
    beat = best(-total_strength, legal[1]) + 15
    partner = (position.top_seat & 1) == (due & 1)
    loading = 100 * total_points - total_strength
    shedding = -(100 * total_points + total_strength)
    passing = best(np.where(partner, loading, shedding), legal[2]) + 30
    action = np.where(legal[1].any(axis=0) & ~partner, beat, passing)
    action = np.where(blocks[0] > 0, lead, action)
    action = np.where(blocks[3] & 1, 45, action)  # declare whenever it may (R14)
    action = np.where(position.to_move < 0, -1, action)
    return action.astype(np.int16)
