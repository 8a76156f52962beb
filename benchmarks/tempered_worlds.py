"""An experiment, not a strategy: ``ismcts[worlds=weighted]`` with its pool's weights flattened to ``L ** beta``.

``beta=1`` is ``ismcts[worlds=weighted]`` itself, ``beta=0`` a pool of equally weighted uniform worlds.  Played
by ``benchmarks/strength.py`` through an import path (docs/bots.md, "How strong"):

    PYTHONPATH=benchmarks python benchmarks/strength.py 'tempered_worlds:factory[beta=0.3,iterations=1000]' \\
        'ismcts[iterations=1000]'
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable
from typing import Any

from goat import PlayerView
from goat.bots.inference import weighted_worlds
from goat.bots.ismcts import ISMCTSBot


class TemperedBot(ISMCTSBot):
    """ISMCTS on a weighted pool whose weights are raised to the power ``beta``."""

    def __init__(self, seed: int | None = None, *, beta: float = 1.0, **options: Any) -> None:
        if not (beta.__class__ in (int, float) and 0 <= beta <= 1):
            raise ValueError(f"beta must be a number from 0 to 1, not {beta!r}")
        if "worlds" in options:
            raise TypeError("tempered_worlds takes ismcts's options and beta, but not worlds (always weighted)")
        super().__init__(seed, worlds="weighted", **options)
        self.beta = float(beta)
        self.pool_rng = random.Random(None if seed is None else f"pool {seed}")  # a stream apart from the search's

    def world_source(self, view: PlayerView, start: float) -> Callable[[], Any]:
        rng = self.pool_rng
        draw = rng.random
        half = None if self.time_ms is None else start + self.time_ms / 2000
        drawn = weighted_worlds(view, self.pool, rng, model=self.model, deadline=half)
        cores = [w.world.core for w in drawn]
        top = max(w.weight for w in drawn)
        cumulative = list(itertools.accumulate((w.weight / top) ** self.beta for w in drawn))
        last = len(cores) - 1

        def tempered() -> Any:
            return cores[min(bisect.bisect_right(cumulative, draw() * cumulative[-1]), last)]

        return tempered


def factory(*, seed: int | None = None, **options: Any) -> TemperedBot:
    """``ismcts[worlds=weighted, ...]`` with ``beta``; the other options are ismcts's."""
    return TemperedBot(seed, **options)
