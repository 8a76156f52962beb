"""Many uniformly random games, for studies of the game: :func:`random_playouts`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from goat.batch.games import Results, from_stream
from goat.batch.seeds import SeedStream, check_count
from goat.errors import shown

__all__ = ["Playouts", "random_playouts"]


@dataclass(frozen=True, slots=True)
class Playouts:
    """The results of :func:`random_playouts`: row ``j`` is game ``j``, teams by column (team 0 = seats 0, 2)."""

    seeds: NDArray[np.int64]  #: (n,) the seed game ``j`` was dealt with (``goat.new_game(seed=...)``)
    dealer: NDArray[np.int8]  #: (n,) who dealt it
    first_leader: NDArray[np.int8]  #: (n,) who led the first trick: the seat after the dealer (R9)
    points: NDArray[np.int16]  #: (n, 2) card points (R18)
    tricks: NDArray[np.int8]  #: (n, 2) tricks won
    defeat: NDArray[np.int8]  #: (n, 2) defeat-scores gained (R19)
    winner: NDArray[np.int8]  #: (n,) the winning team; -1 for balls (R20)
    last_trick_winner: NDArray[np.int8]  #: (n,) the seat that won the last trick (R22)
    decisions: NDArray[np.int16]  #: (n,) decisions in the game, waits and declarations included
    molodkas: NDArray[np.int8]  #: (n, 2) molodkas declared out of turn, by team (R14)
    molodka_dealt: NDArray[np.bool_]  #: (n, 2) whether the deal gave the team a molodka (R14)

    def __len__(self) -> int:
        return int(self.seeds.shape[0])


def random_playouts(
    n: int,
    *,
    seed: int = 0,
    batch_size: int = 10_000,
    dealer: int | Literal["rotate"] = "rotate",
) -> Playouts:
    """Play ``n`` games in which every seat picks uniformly among its legal actions, in batches.

    Game ``j`` is dealt as ``goat.new_game(seed=seed * 2**32 + j, dealer=j % 4)`` (with ``dealer="rotate"``,
    the default; a seat 0–3 deals every game); the random choices come from ``numpy.random.default_rng(seed)``,
    so equal arguments give equal results.  Runs on one core at about two million decisions per second (see
    the documentation's batch page for the measurements).

    >>> from goat.batch import random_playouts
    >>> games = random_playouts(200, seed=1, batch_size=50)
    >>> games.points.shape, bool((games.points.sum(axis=1) == 120).all())
    ((200, 2), True)
    """
    # Game j's seed is seed * 2**32 + j, a 63-bit number as the results hold it: so j and seed have 32 and 31 bits.
    if type(n) is not int or not 1 <= n <= 2**32:
        raise ValueError(f"n must be an int of at least 1 and at most 2**32, not {shown(n)}")
    check_count(batch_size, "batch_size")
    if type(seed) is not int or not 0 <= seed < 2**31:
        raise ValueError(f"seed must be an int of at least 0 and at most 2**31 - 1, not {shown(seed)}")
    size = min(n, batch_size)
    base = seed << 32
    stream = SeedStream(range(base, base + n), dealer=dealer)
    rng = np.random.default_rng(seed)
    batch = from_stream(stream, size)
    found: list[Results] = []
    while True:
        if n - stream.taken >= size:  # enough seeds left to re-deal every slot: auto-reset
            batch = batch.step(batch.sample(rng), redeal=stream)
            if batch.redealt is not None:
                found.append(batch.redealt)
            continue
        if batch.all_over:
            break
        batch = batch.step(batch.sample(rng))
        over = np.flatnonzero(batch.is_over)
        if stream.taken < n and over.size:  # re-deal as many of the finished games as seeds are left
            batch = batch.redeal(stream, games=over[: n - stream.taken])
            if batch.redealt is not None:
                found.append(batch.redealt)
    found.append(batch.results())
    return _collect(found, n, base)


def _collect(found: list[Results], n: int, base: int) -> Playouts:
    numbers = np.concatenate([r.numbers for r in found])
    order = np.argsort(numbers, kind="stable")
    if numbers.shape[0] != n or not (numbers[order] == np.arange(n)).all():
        raise AssertionError(f"random_playouts collected {numbers.shape[0]} results for {n} games")

    def column(name: str) -> NDArray[Any]:
        return np.concatenate([getattr(r, name) for r in found])[order]

    return Playouts(
        seeds=base + np.arange(n, dtype=np.int64),
        dealer=column("dealer"),
        first_leader=column("first_leader"),
        points=column("points"),
        tricks=column("tricks"),
        defeat=column("defeat"),
        winner=column("winner"),
        last_trick_winner=column("last_trick_winner"),
        decisions=column("decisions"),
        molodkas=column("molodkas"),
        molodka_dealt=column("molodka_dealt"),
    )
