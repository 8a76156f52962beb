"""Streams of seeds for re-dealing finished games (auto-reset), dealt ahead in chunks."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from goat.batch.deal import deal_decks
from goat.batch.position import dealt_hands
from goat.errors import InvalidSeatError

#: The most games one batch, one chunk of a stream or one take holds: about 1.2 KB each, so 5 GB at most, refused
#: before anything is allocated (a count of 10**12 would exhaust any machine's memory first).
MAX_GAMES = 1 << 22


def check_count(value: object, what: str, *, low: int = 1) -> int:
    """``value`` if it is an int from ``low`` to :data:`MAX_GAMES`, else the error that says so."""
    if type(value) is not int:
        raise TypeError(f"{what} must be an int, not {value!r}")
    if not low <= value <= MAX_GAMES:
        raise ValueError(f"{what} must be {low} to {MAX_GAMES:,} (games held at once), not {value!r}")
    return value


__all__ = ["Deals", "SeedStream"]


class Deals(NamedTuple):
    """Games dealt from the next seeds of a :class:`SeedStream`."""

    seeds: list[int]  #: the seeds
    decks: NDArray[np.uint8]  #: (k, 36) their deck orders, card indices top first (R7)
    trump_cards: NDArray[np.uint8]  #: (k,) their trump cards (R8)
    dealers: NDArray[np.uint8] | None  #: (k,) who deals each, or None: the slot's own dealer
    hands: NDArray[np.uint32]  #: (4, k) the hands by turn after the dealer, packed and sorted
    holders: NDArray[np.uint8]  #: (k,) the turns dealt a molodka (bit mask, R14)


class SeedStream:
    """The seeds that deal new games, in order: ``start, start + 1, …`` or the ints of an iterable.

    Each seed deals exactly ``goat.new_game(seed=seed, dealer=...)``.  ``dealer`` says who deals: ``None``
    (the default) keeps the dealer of the slot a game is dealt into, a seat 0–3 deals every game, and
    ``"rotate"`` deals the ``k``-th seed taken (from 0) by seat ``k % 4``.  The stream deals ``chunk`` seeds
    ahead at a time (dealing is cheapest per seed for thousands of seeds at once).  A stream is the one
    stateful object of :mod:`goat.batch`: every :meth:`take` moves it on.

    >>> from goat.batch import SeedStream
    >>> stream = SeedStream(100)
    >>> stream.take(3).seeds
    [100, 101, 102]
    >>> stream.take(1).seeds, stream.taken
    ([103], 4)
    """

    def __init__(
        self,
        seeds: int | Iterable[int] = 0,
        *,
        dealer: int | Literal["rotate"] | None = None,
        chunk: int = 8192,
    ) -> None:
        if isinstance(seeds, bool) or not isinstance(seeds, (int, Iterable)) or isinstance(seeds, (str, bytes)):
            raise TypeError(f"SeedStream takes a first seed (int) or an iterable of int seeds, not {seeds!r}")
        check_count(chunk, "chunk")
        if not (dealer is None or dealer == "rotate" or (type(dealer) is int and 0 <= dealer <= 3)):
            raise InvalidSeatError(f"dealer must be None, a seat 0–3 or 'rotate', not {dealer!r}")
        self._source: Iterator[int] = itertools.count(seeds) if isinstance(seeds, int) else iter(seeds)
        self._dealer = dealer
        self._chunk = chunk
        self._seeds: list[int] = []
        self._decks = np.empty((0, 36), dtype=np.uint8)
        self._trumps = np.empty(0, dtype=np.uint8)
        self._hands = np.empty((4, 0), dtype="<u4")
        self._holders = np.empty(0, dtype=np.uint8)
        self._at = 0
        #: Seeds taken so far.
        self.taken = 0

    def _refill(self, need: int) -> None:
        fresh = list(itertools.islice(self._source, max(need, self._chunk)))
        for seed in fresh:
            if type(seed) is not int:
                raise TypeError(f"a seed is an int, not {seed!r}")
        decks, trumps = deal_decks(fresh)
        hands, holders = dealt_hands(decks)
        self._seeds = self._seeds[self._at :] + fresh
        self._decks = np.concatenate([self._decks[self._at :], decks])
        self._trumps = np.concatenate([self._trumps[self._at :], trumps])
        self._hands = np.concatenate([self._hands[:, self._at :], hands], axis=1)
        self._holders = np.concatenate([self._holders[self._at :], holders])
        self._at = 0

    def take(self, count: int) -> Deals:
        """The games of the next ``count`` seeds.

        Raises :class:`ValueError` when a finite iterable runs out; then nothing is taken.
        """
        check_count(count, "count", low=0)
        if len(self._seeds) - self._at < count:
            self._refill(count - (len(self._seeds) - self._at))
            if len(self._seeds) < count:
                raise ValueError(f"the seed stream ran out: {count} seeds needed, {len(self._seeds)} left")
        at, end = self._at, self._at + count
        dealers: NDArray[np.uint8] | None = None
        if self._dealer == "rotate":
            dealers = (np.arange(self.taken, self.taken + count) % 4).astype(np.uint8)
        elif self._dealer is not None:
            dealers = np.full(count, self._dealer, dtype=np.uint8)
        self._at = end
        self.taken += count
        return Deals(
            self._seeds[at:end],
            self._decks[at:end],
            self._trumps[at:end],
            dealers,
            self._hands[:, at:end],
            self._holders[at:end],
        )
