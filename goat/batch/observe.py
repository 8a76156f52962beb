"""Observations of many games at once, in the layout of :mod:`goat.adapters.encoding` (its ``OBS_*`` offsets).

Each row equals ``np.asarray(encoding.observation(goat.view(state, seat)), dtype=np.float32)`` bit for bit:
the fractions are the same float64 divisions, by the encoding's scales, rounded once to float32.  The card
blocks are unpacked from 36-bit masks with :func:`numpy.unpackbits`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from goat._core import DEALT
from goat.adapters.encoding import (
    HAND_SCALE,
    OBS_FACE_DOWN,
    OBS_HAND,
    OBS_HAND_SIZES,
    OBS_LEADER,
    OBS_MOLODKA,
    OBS_PASSED,
    OBS_SEEN,
    OBS_STOCK,
    OBS_TABLE,
    OBS_TO_PLAY,
    OBS_TRICKS,
    OBS_TRUMP_CARD,
    OBSERVATION_SIZE,
    STOCK_SCALE,
    TRICKS_SCALE,
)
from goat.batch.position import PASS, Position, slots
from goat.batch.tables import BIT

__all__ = ["observe"]

_RELATIVE = np.arange(4, dtype=np.intp)[:, None]
# The offsets of the eight card blocks, in the order of observe()'s card masks.
_CARD_BLOCKS = (OBS_HAND, OBS_TRUMP_CARD, *(OBS_TABLE + 36 * seat for seat in range(4)), OBS_SEEN, OBS_PASSED)
# Counts as the encoding scales them: the same float64 divisions, rounded once to float32.
_HAND_SHARE = (np.arange(HAND_SCALE + 1) / HAND_SCALE).astype(np.float32)
_TRICK_SHARE = (np.arange(TRICKS_SCALE + 1) / TRICKS_SCALE).astype(np.float32)
_STOCK_SHARE = (np.arange(36 - DEALT + 1) / STOCK_SCALE).astype(np.float32)


def observe(position: Position, trump_card: NDArray[np.uint8], seats: NDArray[np.intp]) -> NDArray[np.float32]:
    """``(n, 310)`` float32: game ``i`` as seat ``seats[i]`` sees it (R23); a row of zeros where ``seats[i] < 0``."""
    n = seats.shape[0]
    out = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
    chosen = np.flatnonzero(seats >= 0)
    if chosen.size == 0:
        return out
    if chosen.size < n:
        out[chosen] = observe(position.select(chosen), trump_card.take(chosen), seats.take(chosen))
        return out
    games = np.arange(n)
    me = seats
    seat = (me + _RELATIVE) & 3  # (relative seat, game)
    flat = seat * n + games
    masks = np.empty((8, n), dtype=np.uint64)
    masks[0] = BIT.take(slots(position.hands.reshape(-1).take(flat[0]))).sum(axis=1, dtype=np.uint64)
    masks[1] = BIT.take(trump_card)
    kinds = position.kinds.reshape(-1).take(flat)  # (relative seat, game)
    hidden = kinds == PASS
    hidden[0] = False  # the observer's own pass is face up to it
    on_table = BIT.take(slots(position.table.reshape(-1).take(flat))).sum(axis=2, dtype=np.uint64)
    masks[2:6] = np.where(hidden, np.uint64(0), on_table)
    masks[6] = position.seen
    masks[7] = position.passed.reshape(-1).take(flat[0])
    rows = np.ascontiguousarray(masks.T, dtype="<u8").view(np.uint8).reshape(n, 64)
    bits = np.unpackbits(rows, axis=1, bitorder="little")
    bits = bits.reshape(n, 8, 64)[:, :, :36]
    for block, start in enumerate(_CARD_BLOCKS):
        out[:, start : start + 36] = bits[:, block]
    size = position.size
    out[:, OBS_FACE_DOWN : OBS_FACE_DOWN + 4] = np.where(hidden, _HAND_SHARE.take(size), np.float32(0)).T
    live = np.flatnonzero(position.to_move >= 0)
    leader = position.leader.astype(np.intp)
    out[live, OBS_LEADER + ((leader.take(live) - me.take(live)) & 3)] = 1
    due = leader + position.played
    out[live, OBS_TO_PLAY + ((due.take(live) - me.take(live)) & 3)] = 1
    in_hand = position.held - np.where(kinds != 0, size, np.uint8(0))
    out[:, OBS_HAND_SIZES : OBS_HAND_SIZES + 4] = _HAND_SHARE.take(in_hand).T
    out[:, OBS_STOCK] = _STOCK_SHARE.take(36 - position.drawn.astype(np.intp))
    team = me & 1
    tricks = position.tricks.reshape(-1)
    out[:, OBS_TRICKS] = _TRICK_SHARE.take(tricks.take(team * n + games))
    out[:, OBS_TRICKS + 1] = _TRICK_SHARE.take(tricks.take((1 - team) * n + games))
    # OBS_DEFEAT: the match's defeat-scores; a batch's games are single games: (0, 0).
    out[:, OBS_MOLODKA] = (size == 4) & (position.played > 0)
    return out
