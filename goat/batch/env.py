"""A Gymnasium vector environment for one learning seat: :class:`GoatVectorEnv` (:func:`goat.batch.vector_env`).

Each sub-environment is one game at a time.  Seat ``seat`` is the agent; the three other seats — partner
included — play ``opponents``: ``"random"`` (uniform among legal actions) or ``"greedy-lite"`` (the rule of
:mod:`goat.batch.policies`).  An agent's step is one of its decisions (a play, or declare/wait when it is asked
about its molodka, R14); the other seats' decisions are made inside the step, all games in lockstep.

- **Actions**: ``Discrete(47)`` per game (:mod:`goat.adapters.encoding`); the legal ones are
  ``infos["action_mask"]`` (``(num_envs, 47)`` bool), for the observation returned with them.  An illegal
  action raises :class:`goat.batch.IllegalActionError`.
- **Observations**: ``Box(0, 1, (310,), float32)`` per game, the agent's view in the encoding's layout.
- **Rewards**: at the end of a game, by ``reward``: ``"defeat"`` (the default, as the PettingZoo adapter) the
  other team's defeat-scores minus the agent's team's (R19: +6 … -6, 0 for balls); ``"win"`` +1, -1 or 0;
  ``"points"`` (the team's points - 60) / 60.  Every other step rewards 0.  Games never truncate.
- **Autoreset**: ``AutoresetMode.SAME_STEP``: a game that ends is dealt again in the same step; the returned
  observation is the new game's first, and ``infos["final_obs"]`` / ``infos["final_info"]`` (with masks
  ``infos["_final_obs"]``, ``infos["_final_info"]``) hold the finished game's last observation and its result
  (``points``, ``tricks``, ``defeat``, ``winner`` by the agent's team first; ``winner`` is 1 for a win, -1 for a
  loss, 0 for balls).
- **Seeds**: ``reset(seed=s)`` deals game ``k`` of the run (counting every sub-environment's games, in the
  order they are dealt) with ``goat.new_game(seed=s * 2**32 + k, dealer=...)`` and seeds the opponents' choices
  with ``s``; ``options={"dealer": d}`` sets the dealer (a seat or ``"rotate"``, the default 0).
- **Rendering**: ``render_mode="rgb_array"``: ``render()`` returns one ``(560, 760, 3)`` uint8 frame per
  sub-environment, as ``goat/Goat-v0`` draws it (extra ``goat-cards[render]``).

Needs Gymnasium 1.0 or later: ``pip install 'goat-cards[batch,gymnasium]'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from goat.errors import InvalidSeatError, MissingExtraError

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.batch.vector_env", "Gymnasium 1.0 or later", "batch,gymnasium", error) from None

from goat.adapters.encoding import NUM_ACTIONS, OBSERVATION_SIZE
from goat.batch.games import Batch, Results, from_stream
from goat.batch.policies import greedy_lite_actions, uniform_actions
from goat.batch.seeds import SeedStream, check_count

__all__ = ["GoatVectorEnv"]

_OPPONENTS = ("random", "greedy-lite")
_REWARDS = ("defeat", "win", "points")


class GoatVectorEnv(VectorEnv):
    """``num_envs`` games in which seat ``seat`` learns; see the module documentation."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - as VectorEnv declares it
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["rgb_array"],
        "render_fps": 4,
    }

    def __init__(
        self,
        num_envs: int,
        *,
        seat: int = 0,
        opponents: str = "random",
        reward: str = "defeat",
        render_mode: str | None = None,
    ) -> None:
        check_count(num_envs, "num_envs")
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidSeatError(f"seat must be a seat 0–3, not {seat!r}")
        if opponents not in _OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(_OPPONENTS)}, not {opponents!r}")
        if reward not in _REWARDS:
            raise ValueError(f"reward must be one of {', '.join(_REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self.render_mode = render_mode
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.reward = reward
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._batch: Batch | None = None
        self._stream: SeedStream | None = None
        self._rng = np.random.default_rng()

    # --- gymnasium ---------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        dealer = options.pop("dealer", 0)
        if dealer != "rotate" and (type(dealer) is not int or not 0 <= dealer <= 3):
            raise ValueError(f"options['dealer'] is a seat 0–3 or 'rotate', not {dealer!r}")
        if options:
            raise ValueError(f"unknown reset options: {', '.join(sorted(options))} (only 'dealer')")
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        if type(seed) is not int or seed < 0:
            raise ValueError(f"seed must be a non-negative int, not {seed!r}")
        self._rng = np.random.default_rng(seed)
        self._stream = SeedStream(seed << 32, dealer=dealer)
        batch = from_stream(self._stream, self.num_envs, dealer=0 if dealer == "rotate" else dealer)
        self._batch = self._advance(batch)
        return self._observe(), self._infos({})

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        if self._batch is None or self._stream is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step() takes one action per environment, shape ({self.num_envs},), not {chosen.shape}")
        batch = self._batch.step(chosen)  # every game is at a decision of the agent's seat
        batch = self._advance(batch)
        ended = batch.is_over
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        infos: dict[str, Any] = {}
        if ended.any():
            results = batch.results()
            rewards[results.games] = self._rewards(results)
            final_obs = batch.observations(self.seat)
            infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
            for game in results.games.tolist():
                infos["final_obs"][game] = final_obs[game]
            infos["_final_obs"] = ended.copy()
            infos["final_info"] = self._final_info(results)
            infos["_final_info"] = ended.copy()
            batch = self._advance(batch.redeal(self._stream))
        self._batch = batch
        terminations = ended.copy()
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observe(), rewards, terminations, truncations, self._infos(infos)

    def render(self) -> tuple[NDArray[np.uint8], ...] | None:
        """With ``render_mode="rgb_array"``, each sub-environment's table as ``goat/Goat-v0`` draws it: one
        ``(H, W, 3)`` uint8 frame per sub-environment (:func:`goat.raster.table`, the agent's seat at the
        bottom); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        batch = self.batch
        from goat.raster import table  # the render extra is needed only when a frame is drawn

        return tuple(table(batch.state(game), bottom=self.seat) for game in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        self._batch = None

    # --- inside ------------------------------------------------------------------------------------

    @property
    def batch(self) -> Batch:
        """The games as they are now: every one at a decision of the agent's seat."""
        if self._batch is None:
            raise RuntimeError("call reset() first")
        return self._batch

    def _advance(self, batch: Batch) -> Batch:
        """The batch after the other seats' decisions, until each game waits for the agent's seat or is over."""
        while True:
            others = (batch.to_move >= 0) & (batch.to_move != self.seat)
            if not others.any():
                return batch
            random = self.opponents == "random"
            actions = uniform_actions(batch, self._rng) if random else greedy_lite_actions(batch)
            batch = batch.step(np.where(others, actions, -1))

    def _observe(self) -> NDArray[np.float32]:
        return self.batch.observations(self.seat)

    def _infos(self, infos: dict[str, Any]) -> dict[str, Any]:
        infos["action_mask"] = self.batch.legal_mask()
        infos["_action_mask"] = np.ones(self.num_envs, dtype=np.bool_)
        return infos

    def _by_agent(self, pairs: NDArray[Any]) -> NDArray[Any]:
        """Team columns reordered: the agent's team first."""
        team = self.seat % 2
        return pairs[:, [team, 1 - team]]

    def _rewards(self, results: Results) -> NDArray[np.float64]:
        team = self.seat % 2
        if self.reward == "defeat":
            return (results.defeat[:, 1 - team] - results.defeat[:, team]).astype(np.float64)
        if self.reward == "win":
            return np.where(results.winner < 0, 0.0, np.where(results.winner == team, 1.0, -1.0))
        return (results.points[:, team].astype(np.float64) - 60.0) / 60.0

    def _final_info(self, results: Results) -> dict[str, Any]:
        team = self.seat % 2
        fields = {
            "points": self._by_agent(results.points),
            "tricks": self._by_agent(results.tricks),
            "defeat": self._by_agent(results.defeat),
            "winner": np.where(results.winner < 0, 0, np.where(results.winner == team, 1, -1)).astype(np.int8),
        }
        info: dict[str, Any] = {}
        for key, values in fields.items():
            array = np.zeros((self.num_envs, *values.shape[1:]), dtype=values.dtype)
            array[results.games] = values
            info[key] = array
            info["_" + key] = np.zeros(self.num_envs, dtype=np.bool_)
            info["_" + key][results.games] = True
        return info

    def __repr__(self) -> str:
        return f"GoatVectorEnv(num_envs={self.num_envs}, seat={self.seat}, opponents={self.opponents!r})"
