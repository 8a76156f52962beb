"""Many games at once on numpy arrays: simulation for studies and for training agents (extra ``goat-cards[batch]``).

>>> import numpy as np
>>> import goat
>>> from goat.batch import new_games
>>> batch = new_games(range(1000))  # game i is goat.new_game(seed=i)
>>> rng = np.random.default_rng(0)
>>> while not batch.all_over:
...     batch = batch.step(batch.sample(rng))  # one uniformly random legal action per game
>>> results = batch.results()
>>> bool((results.points.sum(axis=1) == 120).all()), batch.result(7) == goat.score(batch.state(7))
(True, True)

A :class:`Batch` holds ``n`` games in lockstep: every game's deciding seat (:attr:`Batch.to_move`), its legal
actions as a ``(n, 47)`` mask in the action encoding of :mod:`goat.adapters.encoding`
(:meth:`Batch.legal_mask`), its observation in the encoding's 310 numbers (:meth:`Batch.observations`), and
:meth:`Batch.step` to play one action per game — every rule of R7–R22, the molodka's declarations, waits and
returned cards included.  :meth:`Batch.state` turns any game into the :class:`goat.GameState` the scalar
engine reaches with the same moves, and finished games can be re-dealt in place from a :class:`SeedStream`
(``step(actions, redeal=stream)``), so that a batch runs forever.  :func:`random_playouts` plays millions of
random games; :func:`vector_env` is a Gymnasium vector environment on top (it needs Gymnasium as well).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goat.errors import MissingExtraError

try:
    import numpy  # noqa: F401 - every part of the batch engine is numpy arrays
except ImportError as error:
    raise MissingExtraError("goat.batch", "numpy", "batch", error) from None

from goat.batch.games import Batch, IllegalActionError, Results, from_decks, from_stream, new_games
from goat.batch.playouts import Playouts, random_playouts
from goat.batch.policies import greedy_lite_actions, uniform_actions
from goat.batch.seeds import SeedStream

if TYPE_CHECKING:
    from goat.batch.env import GoatVectorEnv

__all__ = [
    "Batch",
    "IllegalActionError",
    "Playouts",
    "Results",
    "SeedStream",
    "from_decks",
    "from_stream",
    "greedy_lite_actions",
    "new_games",
    "random_playouts",
    "uniform_actions",
    "vector_env",
]


def vector_env(num_envs: int, seat: int = 0, opponents: str = "random", **options: Any) -> GoatVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` games in which seat ``seat`` learns and the three other
    seats play ``opponents`` (``"random"`` or ``"greedy-lite"``); see :class:`goat.batch.env.GoatVectorEnv`.

    Needs Gymnasium 1.0 or later (``pip install 'goat-cards[batch,gymnasium]'``); without it, raises
    ``goat.errors.MissingExtraError`` naming the extra.
    """
    from goat.batch.env import GoatVectorEnv

    return GoatVectorEnv(num_envs, seat=seat, opponents=opponents, **options)
