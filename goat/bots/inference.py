"""Inference: worlds weighted by how likely the other seats were to play as they did (policy-based inference).

:func:`goat.sample_world` draws the hidden cards uniformly among the worlds consistent with a view, so a
search on its worlds learns nothing from what the others did.  Policy-based inference (Rebstock, Solinas,
Buro and Sturtevant 2019, arXiv:1905.10911) weights each world by the probability that the other seats
would have made, in that world, the moves they made.  The prior over worlds is uniform (a shuffled deck,
R7-R8), so the posterior of a world ``w`` given the view is proportional to

    L(w) = product over every earlier decision of another seat in w of P(move made | that seat's view then)

with ``P`` a :class:`~goat.bots.model.MoveModel` (the hand-written :class:`~goat.bots.model.PlayerModel` by
default, or the :class:`~goat.bots.learned.LearnedModel`): face-up plays and, in ``w``, the cards of the
others' face-down passes and the waits of their molodka holders (R14).  The view's own seat's decisions
are the same in every world and do not count.

:func:`log_likelihood` computes ``log L(w)`` by replaying the world's history and asking the model at every
decision of another seat, from :func:`goat.view` of that seat then (R23): what a bot in that seat was shown.
:func:`weighted_worlds` draws worlds with :func:`goat.sample_world` and gives each its importance weight,
``L`` normalised over the draws: a weighted average over them estimates any expectation under the
posterior, and drawing from them in proportion to weight (``random.choices``) resamples it.

>>> import random, goat
>>> from goat.bots.inference import weighted_worlds
>>> state = goat.new_game(seed=4)
>>> for _ in range(9):
...     state = goat.play(state, goat.legal_moves(state)[0])
>>> seen = goat.view(state, state.to_move)
>>> drawn = weighted_worlds(seen, 20, random.Random(1))
>>> all(goat.view(w.world, seen.seat) == seen for w in drawn), round(sum(w.weight for w in drawn), 9)
(True, 1.0)
"""

from __future__ import annotations

import math
import numbers
import random
import time
from typing import Any

import attrs

from goat._core import deal, step
from goat.bots.model import MoveModel, PlayerModel
from goat.bots.worlds import sample_world
from goat.errors import IllegalMoveError, finite, shown
from goat.seats import check_seat
from goat.state import GameState, state_of
from goat.view import PlayerView
from goat.view import view as view_of

__all__ = ["WeightedWorld", "log_likelihood", "weighted_worlds"]

#: The most worlds :func:`weighted_worlds` draws at once.
MAX_WORLDS = 1_000_000


@attrs.frozen
class WeightedWorld:
    """A world drawn for a view, with its importance weight (the weights of one draw add up to 1)."""

    world: GameState
    weight: float


def _model(model: MoveModel | None) -> MoveModel:
    if model is None:
        return PlayerModel()
    if not isinstance(model, MoveModel):
        raise TypeError(f"model must be a MoveModel (a PlayerModel or a LearnedModel), not {type(model).__name__}")
    return model


def log_likelihood(world: GameState, seat: int, model: MoveModel | None = None) -> float:
    """``log L``: the log of the probability, under ``model`` (by default :class:`PlayerModel()
    <goat.bots.model.PlayerModel>`), that every seat but ``seat`` made the moves of ``world``'s history,
    each decided from what that seat saw then (R23).  See the module docs."""
    if not isinstance(world, GameState):
        raise TypeError(f"log_likelihood() takes a GameState, not {type(world).__name__}")
    check_seat(seat, "log_likelihood()'s seat")
    chooser = _model(model)
    core: Any = deal(tuple(card.index for card in world.deck), world.trump_card.index, world.dealer, world.defeat)
    total = 0.0
    for move in world.history:
        key = move.key
        mover = key & 3
        if mover != seat:
            # The model reads what a bot in that seat was shown: goat.view of the replayed position.
            seen = view_of(state_of(core), mover)
            if move not in seen.legal_moves:  # a hand-made GameState is checked, so only a broken one gets here
                raise IllegalMoveError(f"{move} is not legal in the world's replay")
            total += math.log(chooser.probabilities(seen)[seen.legal_moves.index(move)])
        core = step(core, key)
    return total


def weighted_worlds(
    view: PlayerView,
    n: int,
    rng: random.Random,
    *,
    model: MoveModel | None = None,
    deadline: float | None = None,
) -> tuple[WeightedWorld, ...]:
    """``n`` worlds drawn by :func:`goat.sample_world` for ``view``, each with its importance weight:
    its likelihood under ``model`` (see :func:`log_likelihood`) divided by their sum.

    With a ``deadline`` (a :func:`time.perf_counter` time), fewer once it has passed, but at least one.

    Every world is consistent with the view (``goat.view(w.world, view.seat) == view``).  The weighted
    draws estimate the posterior over worlds given the others' moves; resample them with
    ``rng.choices([w.world for w in drawn], [w.weight for w in drawn])``.

    Raises what :func:`goat.sample_world` raises for a view no world fits
    (:class:`~goat.bots.worlds.WorldSamplingError`).
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"weighted_worlds() takes a PlayerView, not {type(view).__name__}")
    if type(n) is not int or not 1 <= n <= MAX_WORLDS:
        raise ValueError(f"n must be an int from 1 to {MAX_WORLDS}, not {shown(n)}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    if deadline is not None and finite(deadline) is None:
        error = ValueError if isinstance(deadline, numbers.Real) else TypeError  # a NaN is a number, just no time
        raise error(f"deadline must be a finite time.perf_counter() time or None, not {shown(deadline)}")
    chooser = _model(model)
    worlds: list[GameState] = []
    logs: list[float] = []
    while len(worlds) < n and (deadline is None or not worlds or time.perf_counter() < deadline):
        world = sample_world(view, rng)
        worlds.append(world)
        logs.append(log_likelihood(world, view.seat, chooser))
    top = max(logs)
    weights = [math.exp(value - top) for value in logs]
    total = sum(weights)
    return tuple(WeightedWorld(world, weight / total) for world, weight in zip(worlds, weights, strict=True))
