"""``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

Each iteration draws a fresh world consistent with the bot's view (the
placement of :func:`goat.sample_world`, built directly without the replay that
proves it reachable, for speed), walks down one tree shared by all worlds —
choosing by UCB among the moves that are legal in *this* world, each child
counting how often it was available — adds one node, finishes the game with a
fast rollout policy, and backs the result up.  The move played is the root
child visited most.  Molodka decisions are moves like any other.

Options: ``iterations`` (per decision), ``time_ms`` (per decision; either or
both, the first reached stops the search; default 200 iterations),
``exploration`` (the UCB constant, default 0.7) and ``seed``.  With a seed
and an iteration budget only, the bot is deterministic.

``worlds`` says which worlds the search draws: ``"uniform"`` (the default, as
above) or ``"weighted"`` (policy-based inference, :mod:`goat.bots.inference`):
at each decision it draws a pool of ``pool`` worlds (default
``DEFAULT_POOL``; with ``time_ms``, no longer than half the time) with
:func:`~goat.bots.inference.weighted_worlds`, weighted by how likely the other
seats' moves were in each under a model of how they play, and every iteration
plays in a world of the pool drawn in proportion to its weight.  ``model``
names the model: ``"learned"`` (the default, :class:`~goat.bots.learned.LearnedModel`)
or ``"hand"`` (:class:`~goat.bots.model.PlayerModel`, whose ``temperature`` and
``noise`` default to :data:`goat.bots.model.DEFAULT_TEMPERATURE` and
:data:`~goat.bots.model.DEFAULT_NOISE`).  Ask for it as
``ismcts[worlds=weighted]`` or ``ismcts[worlds=weighted,model=hand,temperature=4]``;
these four options with uniform worlds are refused, as they would change nothing.

The tree walk and the rollout run on the kernel's positions and move keys
(compiled with the rules where goat's compiled core is built), never building a
:class:`~goat.GameState` or a :class:`~goat.Move`.  The rollout policy: every
lead a single random card; an answer beats an opponent's top play with the
cheapest beating cards when it can, and otherwise passes the least valuable
cards — points onto a partner's trick.  Molodka holders wait.  All of these are
legal moves, so a rollout is a game the rules allow (tests/test_ismcts.py plays
the same policy through :func:`goat.play`).
"""

from __future__ import annotations

import bisect
import itertools
import random
import time
from collections.abc import Callable
from typing import Any, Final

from goat._core import search
from goat.bots.inference import weighted_worlds
from goat.bots.learned import LearnedModel
from goat.bots.model import DEFAULT_NOISE, DEFAULT_TEMPERATURE, MoveModel, PlayerModel
from goat.bots.worlds import WorldSampler
from goat.errors import finite, shown
from goat.moves import Move
from goat.scoring import defeat_scores
from goat.state import GameState
from goat.view import PlayerView

__all__ = ["ISMCTSBot", "factory", "game_rewards", "rollout"]

DEFAULT_ITERATIONS: Final = 200
#: The worlds ``worlds="weighted"`` draws and weighs per decision, by default.
DEFAULT_POOL: Final = 32
#: The models of how the others play that ``worlds="weighted"`` can weigh worlds with, by name.
MODELS: Final = ("hand", "learned")
#: The model ``worlds="weighted"`` weighs worlds with by default: the learned one, under which the true hidden
#: cards of ismcts's games came out far likelier than under the hand-written one (benchmarks/inference.py).
DEFAULT_MODEL: Final = "learned"
#: The most worlds a pool may hold.
MAX_POOL: Final = 100_000
#: The longest thinking time a decision may be given, in milliseconds: a day.
MAX_TIME_MS: Final = 86_400_000
#: The most iterations a decision may be given: some hours of search at the compiled core's speed.
MAX_ITERATIONS: Final = 1_000_000_000


def rollout(state: GameState, rng: random.Random) -> tuple[tuple[int, int], tuple[int, int]]:
    """Finish the game from ``state`` with the fast policy; return (points, tricks) by team.

    The policy is the search's (``goat.bots._search.playout``, compiled with the rules): see the module
    documentation.
    """
    points0, points1, tricks0, tricks1 = search.playout(state.core, rng.random)
    return (points0, points1), (tricks0, tricks1)


def _reward(team: int, points: tuple[int, int], tricks: tuple[int, int]) -> float:
    """How good the outcome is for ``team``, in [0, 1]: defeat-scores above all, then points."""
    mine = defeat_scores(points[team], tricks[team])
    theirs = defeat_scores(points[1 - team], tricks[1 - team])
    return 0.7 * (0.5 + (theirs - mine) / 12) + 0.3 * points[team] / 120


#: Rewards of both teams by outcome ``points0 << 8 | tricks0 << 4 | tricks1`` (a game has 121 x 9 x 9 at most).
_REWARDS: dict[int, tuple[float, float]] = {}


def game_rewards(outcome: tuple[int, int, int, int]) -> tuple[float, float]:
    """Both teams' rewards for a finished game's (points0, points1, tricks0, tricks1), in [0, 1]: defeat-scores
    above all, then points (R18-R19).

    >>> game_rewards((120, 0, 9, 0))
    (1.0, 0.0)
    """
    points0, points1, tricks0, tricks1 = outcome
    code = points0 << 8 | tricks0 << 4 | tricks1
    known = _REWARDS.get(code)
    if known is None:
        points, tricks = (points0, points1), (tricks0, tricks1)
        known = _REWARDS[code] = (_reward(0, points, tricks), _reward(1, points, tricks))
    return known


class ISMCTSBot:
    """The ``ismcts`` strategy; see the module documentation."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        exploration: float = 0.7,
        worlds: str = "uniform",
        pool: int | None = None,
        model: str | None = None,
        temperature: float | None = None,
        noise: float | None = None,
    ) -> None:
        if iterations is not None and (type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS):
            raise ValueError(f"iterations must be an int from 1 to {MAX_ITERATIONS:,}, not {shown(iterations)}")
        # Numbers of their own type only: text or null from a spec ('ismcts[time_ms=abc]') is no number.
        ms = None if time_ms is None else finite(time_ms)  # a float, whatever kind of number was given
        if time_ms is not None and not 0 < (ms or 0) <= MAX_TIME_MS:
            raise ValueError(
                f"time_ms must be a number above 0 and at most {MAX_TIME_MS:g} (a day), not {shown(time_ms)}"
            )
        c = finite(exploration)
        if c is None or c < 0:
            raise ValueError(f"exploration must be a finite number >= 0, not {shown(exploration)}")
        if worlds not in ("uniform", "weighted"):
            raise ValueError(f"worlds must be 'uniform' or 'weighted', not {shown(worlds)}")
        self.model: MoveModel | None = None  #: how the others play, for weighted worlds only
        if worlds == "uniform":
            options = {"pool": pool, "model": model, "temperature": temperature, "noise": noise}
            given = ", ".join(name for name, value in options.items() if value is not None)
            if given:  # an option that would change nothing is a mistake worth saying
                raise ValueError(f"{given}: options of weighted worlds, which need worlds=weighted")
        else:
            pool = DEFAULT_POOL if pool is None else pool
            model = DEFAULT_MODEL if model is None else model
            if type(pool) is not int or not 1 <= pool <= MAX_POOL:
                raise ValueError(f"pool must be an int from 1 to {MAX_POOL}, not {shown(pool)}")
            if model not in MODELS:
                raise ValueError(f"model must be 'hand' or 'learned', not {shown(model)}")
            if model == "learned":
                if temperature is not None or noise is not None:
                    raise ValueError("temperature and noise set the hand-written model (model=hand), not model=learned")
                self.model = LearnedModel()
            else:  # PlayerModel checks them
                self.model = PlayerModel(
                    DEFAULT_TEMPERATURE if temperature is None else temperature,
                    DEFAULT_NOISE if noise is None else noise,
                )
        self.worlds = worlds
        self.pool = DEFAULT_POOL if pool is None else pool  #: the weighted worlds drawn per decision
        self.iterations = DEFAULT_ITERATIONS if iterations is None and time_ms is None else iterations
        self.time_ms = ms
        self.exploration = c
        self._rng = random.Random(seed)
        self.last_iterations = 0  #: iterations the last decision ran (for benchmarks)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if len(legal) == 1:
            return legal[0]
        root = self._search(view)
        best = max(
            (root.children[m.key] for m in legal if m.key in root.children), key=lambda ch: ch.visits, default=None
        )
        if best is None:
            return legal[0]
        return next(m for m in legal if m.key == best.move)

    def world_source(self, view: PlayerView, start: float) -> Callable[[], Any]:
        """Where the search's worlds come from, for the decision at ``view`` whose clock started at ``start``
        (:func:`time.perf_counter`): a function giving each iteration its world as the kernel's position, as
        ``worlds`` says (see the module documentation).

        The one place a world is chosen: a subclass that overrides it runs the very same search in other
        worlds (``benchmarks/strength.py``'s research-only cheat searches the true one).
        """
        rng = self._rng
        draw = rng.random
        if self.model is not None:  # worlds="weighted"
            half = None if self.time_ms is None else start + self.time_ms / 2000
            drawn = weighted_worlds(view, self.pool, rng, model=self.model, deadline=half)
            cores = [w.world.core for w in drawn]
            cumulative = list(itertools.accumulate(w.weight for w in drawn))
            last = len(cores) - 1

            def weighted() -> Any:  # a world of the pool, in proportion to its weight
                return cores[min(bisect.bisect_right(cumulative, draw() * cumulative[-1]), last)]

            return weighted
        sampler = WorldSampler(view)

        def uniform() -> Any:  # the search never reads the history it plays: positions without a log
            return sampler.position(rng, history=False)

        return uniform

    def rewards(self, view: PlayerView) -> Callable[[tuple[int, int, int, int]], tuple[float, float]]:
        """How the search values a finished game for the decision at ``view``: a function from a rollout's
        (points0, points1, tricks0, tricks1) to both teams' rewards in [0, 1]; by default
        :func:`game_rewards`, whatever the match's score.

        The one place a reward is chosen: a subclass that overrides it runs the very same search toward another
        goal (``benchmarks/match_reward.py`` values the match instead).
        """
        return game_rewards

    def _search(self, view: PlayerView) -> search.SearchNode:
        """Run the search from ``view``; return the root of its tree.

        The walk and the rollouts run on the kernel's positions and move keys (the sampled world's
        core), never building a :class:`~goat.GameState` or a :class:`~goat.Move`.
        """
        draw = self._rng.random
        root = search.SearchNode(-1, 1 - view.team)
        start = time.perf_counter()
        deadline = None if self.time_ms is None else start + self.time_ms / 1000
        world = self.world_source(view, start)
        rewards = self.rewards(view)
        limit = self.iterations
        done = 0
        c = self.exploration
        clock = time.perf_counter
        while (limit is None or done < limit) and (deadline is None or clock() < deadline):
            done += 1
            path, end = search.descend(root, world(), draw, c)
            reward0, reward1 = rewards(search.playout(end, draw))
            search.back_up(path, reward0, reward1)
        self.last_iterations = done
        return root


def factory(*, seed: int | None = None, **options: Any) -> ISMCTSBot:
    """The ``ismcts`` strategy's factory: options ``iterations``, ``time_ms``, ``exploration``, ``worlds``,
    ``pool``, ``model``, ``temperature``, ``noise``."""
    unknown = set(options) - {"iterations", "time_ms", "exploration", "worlds", "pool", "model", "temperature", "noise"}
    if unknown:
        raise TypeError(
            "the ismcts strategy takes iterations, time_ms, exploration, worlds, pool, model, temperature and noise, "
            f"not {', '.join(sorted(unknown))}"
        )
    return ISMCTSBot(seed, **options)
