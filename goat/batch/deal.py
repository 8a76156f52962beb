"""Deals for many seeds at once, exactly as :func:`goat.new_game` deals them (R7, R8).

``goat.new_game(seed=s)`` shuffles ``list(range(36))`` with ``random.Random(s).shuffle`` and then takes the
trump card at ``randrange(20)`` of the stock.  Both draw from CPython's Mersenne Twister (MT19937): each draw
below ``n`` takes one 32-bit word, keeps its top ``n.bit_length()`` bits and throws the word away when that is
``n`` or more.  Seeding the generator (``init_by_array`` over the seed's 32-bit words) costs more than the whole
shuffle, so it is done here for many seeds at once, as numpy operations over a ``(624, m)`` state; the first
words of the stream come from the first twist, and the shuffle replays the draws on them, vectorized.  Seeds
that need more words than were made (rare), or whose value has more than eight 32-bit words, are dealt with
:class:`random.Random` itself.  The test suite checks this against :func:`goat.new_game` for many seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from goat._core import DEALT, shuffled

__all__ = ["WORDS", "deal_decks", "python_deck"]

_N = 624
_M = 397
#: Stream words made per seed: the shuffle and the trump card need 55 on average; a seed that needs more is
#: dealt by :func:`python_deck` (about one in 10^9 with 128).
WORDS = 128
_MAX_KEY = 8  # seeds of up to 8 words (below 2**256) are seeded here; larger ones by random.Random
_CHUNK = 8192  # seeds seeded together: the (624, chunk) uint32 state is 20 MB
_STOCK = 36 - DEALT  # the trump card is drawn among the stock's cards (R8)


def _init_genrand(seed: int) -> list[int]:
    state = [seed]
    for i in range(1, _N):
        previous = state[-1]
        state.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    return state


_BASE = np.array(_init_genrand(19650218), dtype=np.uint32)


def _key_words(seed: int) -> list[int]:
    """The key CPython seeds with: ``abs(seed)`` as 32-bit words, least significant first (``[0]`` for 0)."""
    value = abs(seed)
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return words


_U30 = np.uint32(30)
_MUL1 = np.uint32(1664525)
_MUL2 = np.uint32(1566083941)
_INDEX = np.arange(_N, dtype=np.uint32)  # numpy scalars: a Python int operand costs a conversion per call


def _stream(keys: NDArray[np.uint32]) -> NDArray[np.uint32]:
    """The first ``WORDS`` outputs ``(WORDS, m)`` of ``random.Random`` seeded with each row's key
    (``(m, length)`` words).

    CPython's ``init_by_array`` step for step, each step one row of the state for every seed at once.  The
    first pass of its first loop reads the state that ``init_genrand(19650218)`` left, the same for every
    seed, as constants.
    """
    m, length = keys.shape
    mt = np.empty((_N, m), dtype=np.uint32)
    row = list(mt)  # the rows as views, made once: a numpy index per use costs more than the arithmetic
    plus = list((keys + np.arange(length, dtype=np.uint32)).T.copy())  # init_key[j] + j, by j
    t = np.empty(m, dtype=np.uint32)
    shift, xor, multiply, add, subtract = np.right_shift, np.bitwise_xor, np.multiply, np.add, np.subtract
    base = list(_BASE)
    previous = np.full(m, _BASE[0], dtype=np.uint32)
    j = 0
    for i in range(1, _N):  # the first loop's first pass
        shift(previous, _U30, out=t)
        xor(t, previous, out=t)
        multiply(t, _MUL1, out=t)
        xor(t, base[i], out=t)
        add(t, plus[j], out=row[i])
        previous = row[i]
        j = j + 1 if j + 1 < length else 0
    row[0][:] = row[_N - 1]
    i = 1
    for _ in range(max(_N, length) - (_N - 1)):  # the rest of the first loop
        previous = row[i - 1]
        current = row[i]
        shift(previous, _U30, out=t)
        xor(t, previous, out=t)
        multiply(t, _MUL1, out=t)
        xor(t, current, out=t)
        add(t, plus[j], out=current)
        i += 1
        j = j + 1 if j + 1 < length else 0
        if i >= _N:
            row[0][:] = row[_N - 1]
            i = 1
    index = list(_INDEX)
    for _ in range(_N - 1):
        previous = row[i - 1]
        current = row[i]
        shift(previous, _U30, out=t)
        xor(t, previous, out=t)
        multiply(t, _MUL2, out=t)
        xor(t, current, out=t)
        subtract(t, index[i], out=current)
        i += 1
        if i >= _N:
            row[0][:] = row[_N - 1]
            i = 1
    mt[0] = 0x80000000
    # The first twist, for the first WORDS (< N - M) words: they need only the seeded state.
    y = (mt[:WORDS] & np.uint32(0x80000000)) | (mt[1 : WORDS + 1] & np.uint32(0x7FFFFFFF))
    y = mt[_M : _M + WORDS] ^ (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * np.uint32(0x9908B0DF))
    # Tempering.
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    words: NDArray[np.uint32] = y
    return words


def _draw(words: NDArray[np.uint32], at: NDArray[np.intp], n: int) -> NDArray[np.intp]:
    """One ``_randbelow(n)`` per seed from the flat ``(word, seed)`` words at the flat positions ``at``
    (advanced past the words used: by ``m``, the number of seeds, per word)."""
    m = at.shape[0]
    shift = np.uint32(32 - n.bit_length())
    limit = np.uint32(n)
    drawn = words.take(at) >> shift
    redo = np.flatnonzero(drawn >= limit)
    while redo.size:
        at[redo] += m
        again = words.take(at.take(redo)) >> shift
        drawn[redo] = again
        redo = redo[again >= limit]
    at += m
    return drawn.astype(np.intp)


def _shuffle(words: NDArray[np.uint32]) -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.bool_]]:
    """Deck orders and trump cards drawn from the words ``(WORDS, m)``; and which seeds ran out of words.

    Past its words a seed reads zeros (always accepted), and the caller deals it again with
    :func:`python_deck`.
    """
    m = words.shape[1]
    flat = np.concatenate([words.reshape(-1), np.zeros(m * 40, dtype=np.uint32)])  # zeros: a stop for any seed
    rows = np.arange(m)
    order = np.tile(np.arange(36, dtype=np.uint8), (m, 1))
    flat_order = order.reshape(-1)
    base36 = rows * 36
    at = rows.copy()
    end = WORDS * m
    for i in range(35, 0, -1):
        j = _draw(flat, at, i + 1)
        np.minimum(j, i, out=j)
        where = base36 + j
        chosen = flat_order.take(where)
        flat_order[where] = order[:, i]
        order[:, i] = chosen
    pick = _draw(flat, at, _STOCK)
    spent = at > end  # a word at or past the end was needed
    trump = order[rows, DEALT + np.minimum(pick, _STOCK - 1)]
    return order, trump, spent


def python_deck(seed: int) -> tuple[list[int], int]:
    """The deck order and trump card of ``goat.new_game(seed=seed)``, drawn by the kernel from
    :class:`random.Random` as ``new_game`` draws them."""
    order, at = shuffled(random.Random(seed).getrandbits)
    return list(order), order[DEALT + at]


def _keys(seeds: Sequence[int]) -> tuple[list[NDArray[np.uint32]], list[NDArray[np.intp]], list[int]]:
    """The seeds' keys grouped by length: key arrays ``(k, length)``, the rows they belong to, and the rows
    left to :func:`python_deck` (keys longer than ``_MAX_KEY`` words)."""
    m = len(seeds)
    try:
        values = np.abs(np.array(seeds, dtype=np.int64))  # OverflowError beyond 64 bits; abs(-2**63) < 0
    except OverflowError:
        values = None
    if values is not None and (values >= 0).all():
        small = values < 1 << 32
        rows1 = np.flatnonzero(small)
        rows2 = np.flatnonzero(~small)
        wide = values.take(rows2)
        keys = [values.take(rows1).astype(np.uint32)[:, None], np.stack([wide & 0xFFFFFFFF, wide >> 32], 1)]
        return [k.astype(np.uint32) for k in keys], [rows1, rows2], []
    words = [_key_words(seed) for seed in seeds]
    lengths = np.fromiter((len(key) for key in words), dtype=np.intp, count=m)
    found: tuple[list[NDArray[np.uint32]], list[NDArray[np.intp]], list[int]] = ([], [], [])
    for length in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == length)
        if length > _MAX_KEY:
            found[2].extend(rows.tolist())
        else:
            found[0].append(np.array([words[row] for row in rows.tolist()], dtype=np.uint32).reshape(-1, length))
            found[1].append(rows)
    return found


def deal_decks(seeds: Sequence[int]) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The deck orders ``(m, 36)`` and trump cards ``(m,)`` (card indices) that these seeds deal.

    Exactly those of ``goat.new_game(seed=s)`` for every seed ``s`` (a Python ``int``; its sign is ignored,
    as :class:`random.Random` ignores it).
    """
    m = len(seeds)
    decks = np.empty((m, 36), dtype=np.uint8)
    trumps = np.empty(m, dtype=np.uint8)
    keys, rows, slow = _keys(seeds)
    for key, chosen in zip(keys, rows, strict=True):
        for start in range(0, len(chosen), _CHUNK):
            part = chosen[start : start + _CHUNK]
            order, trump, spent = _shuffle(_stream(key[start : start + _CHUNK]))
            decks[part] = order
            trumps[part] = trump
            slow.extend(part[spent].tolist())
    for row in slow:
        order_list, trump_card = python_deck(seeds[row])
        decks[row] = order_list
        trumps[row] = trump_card
    return decks, trumps
