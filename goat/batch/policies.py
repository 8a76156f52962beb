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

import numpy as np
from numpy.typing import NDArray

from goat.adapters.encoding import MOLODKA_ACTION
from goat.batch.games import Batch
from goat.batch.position import planes
from goat.batch.tables import ACTION_BIT, BLOCK_START, POINTS, SUIT

__all__ = ["greedy_lite_actions", "uniform_actions"]


def uniform_actions(batch: Batch, rng: np.random.Generator) -> NDArray[np.int16]:
    """``(n,)`` an action drawn uniformly from each game's legal actions (-1 for a finished game):
    :meth:`Batch.sample <goat.batch.Batch.sample>`."""
    return batch.sample(rng)


# _MEMBERS[s - 1, p]: whether slot p is in subset s.
_MEMBERS = ((np.arange(1, 16)[:, None] >> np.arange(4)) & 1).astype(np.float32)
_SUBSET_BITS = np.arange(15, dtype=np.uint16)[:, None]
_SINGLES = np.isin(np.arange(1, 16), [1, 2, 4, 8])[:, None]
_RANK = np.where(np.arange(37) < 36, np.arange(37) % 9, 0).astype(np.float32)
_NEVER = np.float32(-1e9)
_DECLARE = ACTION_BIT[MOLODKA_ACTION]  # the declaration's bit in block 3


def greedy_lite_actions(batch: Batch) -> NDArray[np.int16]:
    """``(n,)`` the greedy-lite rule's action for each game (see the module documentation)."""
    blocks, due, hand = batch.legal_blocks()
    position = batch.position
    cards = planes(hand)  # (slot, game): the hand of the seat due to play
    points = POINTS.take(cards).astype(np.float32)
    strength = _RANK.take(cards) + 9 * (SUIT.take(cards) == batch.trump).astype(np.float32)
    strength[cards == 36] = 100
    total_points = _MEMBERS @ points  # (subset - 1, game)
    total_strength = _MEMBERS @ strength
    legal = [((blocks[b] >> _SUBSET_BITS) & 1).astype(np.bool_) for b in range(3)]  # (subset - 1, game)

    def best(score: NDArray[np.float32], allowed: NDArray[np.bool_]) -> NDArray[np.intp]:
        found: NDArray[np.intp] = np.argmax(np.where(allowed, score, _NEVER), axis=0)
        return found

    lead_score = np.where(_SINGLES, -total_strength, _NEVER)
    lead_score[14] = 1e6  # the four cards of one suit, when they are a legal lead
    lead = best(lead_score, legal[0]) + BLOCK_START[0]
    beat = best(-total_strength, legal[1]) + BLOCK_START[1]
    partner = (position.top_seat & 1) == (due & 1)
    loading = 100 * total_points - total_strength
    shedding = -(100 * total_points + total_strength)
    passing = best(np.where(partner, loading, shedding), legal[2]) + BLOCK_START[2]
    action = np.where(legal[1].any(axis=0) & ~partner, beat, passing)
    action = np.where(blocks[0] > 0, lead, action)
    action = np.where((blocks[3] >> _DECLARE) & 1, MOLODKA_ACTION, action)  # declare whenever it may (R14)
    action = np.where(position.to_move < 0, -1, action)
    return action.astype(np.int16)
