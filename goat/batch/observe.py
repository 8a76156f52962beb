"""Observations of many games at once, in the 310-number layout of :mod:`goat.adapters.encoding`.

Each row equals ``np.asarray(encoding.observation(goat.view(state, seat)), dtype=np.float32)`` bit for bit:
the fractions are the same float64 divisions rounded once to float32 (:mod:`goat.batch.tables`).  The card
blocks are unpacked from 36-bit masks with :func:`numpy.unpackbits`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from goat.batch.position import PASS, Position, slots
from goat.batch.tables import BIT, FOURTHS, NINTHS, STOCK_SHARE

__all__ = ["OBSERVATION_SIZE", "observe"]

OBSERVATION_SIZE = 310
_RELATIVE = np.arange(4, dtype=np.intp)[:, None]


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
    out[:, :216] = bits[:, :6].reshape(n, 216)
    out[:, 228:300] = bits[:, 6:].reshape(n, 72)
    size = position.size
    out[:, 216:220] = np.where(hidden, FOURTHS.take(size), np.float32(0)).T
    live = np.flatnonzero(position.to_move >= 0)
    leader = position.leader.astype(np.intp)
    out[live, 220 + ((leader.take(live) - me.take(live)) & 3)] = 1
    due = leader + position.played
    out[live, 224 + ((due.take(live) - me.take(live)) & 3)] = 1
    in_hand = position.held - np.where(kinds != 0, size, np.uint8(0))
    out[:, 300:304] = FOURTHS.take(in_hand).T
    out[:, 304] = STOCK_SHARE.take(36 - position.drawn.astype(np.intp))
    team = me & 1
    tricks = position.tricks.reshape(-1)
    out[:, 305] = NINTHS.take(tricks.take(team * n + games))
    out[:, 306] = NINTHS.take(tricks.take((1 - team) * n + games))
    # 307, 308: the match's defeat-scores; a batch's games are single games: (0, 0).
    out[:, 309] = (size == 4) & (position.played > 0)
    return out
