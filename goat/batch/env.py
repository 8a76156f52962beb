"""A Gymnasium vector environment for one learning seat: :class:`GoatVectorEnv` (:func:`goat.batch.vector_env`).

Each sub-environment is one game at a time.  Seat ``seat`` is the agent; the three other seats — partner
included — play ``opponents``: ``"random"`` (uniform among legal actions) or ``"greedy-lite"`` (the rule of
``goat.batch.policies``).  An agent's step is one of its decisions (a play, or declare/wait when it is asked
about its molodka, R14); the other seats' decisions are made inside the step, all games in lockstep.

- **Actions**: ``Discrete(47)`` per game (:mod:`goat.adapters.encoding`); the legal ones are
  ``infos["action_mask"]`` (``(num_envs, 47)`` bool), for the observation returned with them (all ``False``
  for a sub-environment whose episode has just ended, as in ``goat/Goat-v0``).
- **Illegal actions** are treated as ``goat/Goat-v0`` treats them (``illegal="end"``, the default): the episode
  ends, terminated, with ``illegal_reward`` (:data:`goat.adapters.encoding.ILLEGAL_REWARD`, -7, worse than any
  legal outcome) and ``infos["illegal"]``; the observation is the one the action was chosen from.  With
  ``illegal="raise"`` they raise :class:`goat.batch.IllegalActionError` instead and nothing changes.  An
  action outside ``0 … 46`` (or not an integer) is no action at all: :class:`ValueError`, nothing changes.
- **Observations**: ``Box(0, 1, (310,), float32)`` per game, the agent's view in the encoding's layout.
- **Rewards**: at the end of a game, by ``reward``: ``"defeat"`` (the default, as the PettingZoo adapter) the
  other team's defeat-scores minus the agent's team's (R19: +6 … -6, 0 for balls); ``"win"`` +1, -1 or 0;
  ``"points"`` (the team's points - 60) / 60.  Every other step rewards 0.  Games never truncate.  A game's
  result — ``points``, ``tricks``, ``defeat``, ``winner`` by the agent's team first; ``winner`` is 1 for a
  win, -1 for a loss, 0 for balls — is in the info of the step that ended it (each with its ``_`` mask).
- **Autoreset** (``autoreset_mode``, also ``metadata["autoreset_mode"]``; see Gymnasium's
  ``AutoresetMode``):

  - ``NEXT_STEP`` (the default, as Gymnasium's own vector environments): the step that ends an episode returns
    its last observation; the next step deals the sub-environment a new game, ignores its action and returns
    the new game's first observation, reward 0, not terminated.
  - ``SAME_STEP``: a game that ends is dealt again in the same step; the returned observation is the new
    game's first, and ``infos["final_obs"]`` / ``infos["final_info"]`` (masks ``infos["_final_obs"]``,
    ``infos["_final_info"]``) hold the finished episode's last observation and its info (the result, or
    ``illegal``).
  - ``DISABLED``: nothing is dealt by itself; ``reset(options={"reset_mask": mask})`` deals the sub-environments
    of the boolean mask again, and ``step()`` refuses to run while an episode that has ended is not reset.

- **Seeds**: ``reset(seed=s)`` (an int or a NumPy integer) deals game ``k`` of the run (counting every
  sub-environment's games, in the order they are dealt) with ``goat.new_game(seed=s * 2**32 + k,
  dealer=...)`` and seeds the opponents' choices with ``s``.  ``reset(seed=[s0, s1, …])``, one seed per
  sub-environment as Gymnasium's vector environments take them, deals sub-environment ``i``'s first game with
  ``goat.new_game(seed=si)`` — the game ``goat/Goat-v0`` deals for ``reset(seed=si)`` — and the run's later
  games and the opponents from a seed that the list determines; a ``None`` in the list, or ``seed=None``,
  draws the seed from ``np_random``.
- **Options**: ``{"dealer": d}`` sets the dealer (a seat or ``"rotate"``, the default 0); ``{"reset_mask":
  mask}`` deals only the sub-environments of the mask again (a game going on there is abandoned), from the run's
  seeds or from ``seed``'s list; other keys are ignored, as ``goat/Goat-v0`` ignores them, except
  ``"defeat"``: these games have no match score.
- **Rendering**: ``render_mode="rgb_array"``: ``render()`` returns one ``(560, 760, 3)`` uint8 frame per
  sub-environment, as ``goat/Goat-v0`` draws it (extra ``goat-cards[render]``).

Needs Gymnasium 1.0 or later: ``pip install 'goat-cards[batch,gymnasium]'``.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from goat.errors import InvalidSeatError, MissingExtraError, finite, shown

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.batch.vector_env", "Gymnasium 1.0 or later", "batch,gymnasium", error) from None

from goat.adapters.encoding import ILLEGAL_REWARD, NUM_ACTIONS, OBSERVATION_SIZE
from goat.batch.games import Batch, Results, from_stream
from goat.batch.policies import greedy_lite_actions, uniform_actions
from goat.batch.seeds import SeedStream, check_count

__all__ = ["GoatVectorEnv"]

_OPPONENTS = ("random", "greedy-lite")
_REWARDS = ("defeat", "win", "points")
_ILLEGAL = ("end", "raise")


def _autoreset_mode(value: object) -> AutoresetMode:
    """An :class:`AutoresetMode` or its value (``"NextStep"``), as Gymnasium's vector environments take it."""
    if isinstance(value, AutoresetMode):
        return value
    try:
        return AutoresetMode(value)
    except ValueError:
        names = ", ".join(f"AutoresetMode.{mode.name} ({mode.value!r})" for mode in AutoresetMode)
        raise ValueError(f"autoreset_mode must be one of {names}, not {value!r}") from None


def _seed(value: object, what: str) -> int:
    """A seed as a plain int: an int or a NumPy integer, not negative (as Gymnasium's seeding takes them)."""
    try:
        number = None if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        number = None
    if number is None or number < 0:
        raise ValueError(f"{what} must be a non-negative int, not {value!r}")
    return number


class GoatVectorEnv(VectorEnv):
    """``num_envs`` games in which seat ``seat`` learns; see the module documentation."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - as VectorEnv declares it
        "autoreset_mode": AutoresetMode.NEXT_STEP,
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
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        illegal: str = "end",
        illegal_reward: float = ILLEGAL_REWARD,
        render_mode: str | None = None,
    ) -> None:
        check_count(num_envs, "num_envs")
        if type(seat) is not int or not 0 <= seat <= 3:
            raise InvalidSeatError(f"seat must be a seat 0–3, not {seat!r}")
        if opponents not in _OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(_OPPONENTS)}, not {opponents!r}")
        if reward not in _REWARDS:
            raise ValueError(f"reward must be one of {', '.join(_REWARDS)}, not {reward!r}")
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(_ILLEGAL)}, not {illegal!r}")
        if finite(illegal_reward) is None:  # a NaN or infinite reward would poison every return it enters
            raise ValueError(f"illegal_reward must be a finite number, not {shown(illegal_reward)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.reward = reward
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._batch: Batch | None = None
        self._stream: SeedStream | None = None
        self._rng = np.random.default_rng()
        # The sub-environments whose episode ended at the last step and that are not dealt again yet.
        self._ended = np.zeros(num_envs, dtype=np.bool_)

    # --- gymnasium ---------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset()'s options are a dict, not {type(options).__name__}")
        options = options or {}
        if "defeat" in options:
            raise ValueError("options['defeat'] is goat/Goat-v0's: the vector environment's games have no match score")
        dealer = options.get("dealer", 0)
        if dealer != "rotate" and (type(dealer) is not int or not 0 <= dealer <= 3):
            raise ValueError(f"options['dealer'] is a seat 0–3 or 'rotate', not {dealer!r}")
        if isinstance(seed, np.ndarray) and seed.ndim == 1:
            seed = seed.tolist()
        seeds = self._seed_list(seed) if isinstance(seed, Sequence) else None
        if "reset_mask" in options:
            return self._reset_some(options["reset_mask"], seed, seeds, options.get("dealer"))
        first: list[int] = []
        if seeds is not None:
            # each sub-environment's first game from its own seed; the run's seed is the list's digest
            first = [int(self.np_random.integers(2**63 - 1)) if s is None else s for s in seeds]
            run = int(np.random.SeedSequence(first).generate_state(1)[0])
            super().reset(seed=run)
        elif seed is not None:
            run = _seed(seed, "seed")
            super().reset(seed=run)
        else:
            run = int(self.np_random.integers(0, 2**31))
        self._rng = np.random.default_rng(run)
        later = itertools.count((run << 32) + len(first))
        self._stream = SeedStream(itertools.chain(first, later) if first else run << 32, dealer=dealer)
        batch = from_stream(self._stream, self.num_envs, dealer=0 if dealer == "rotate" else dealer)
        self._batch = self._advance(batch)
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observe(), self._infos({})

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        if self._batch is None or self._stream is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step() takes one action per environment, shape ({self.num_envs},), not {chosen.shape}")
        if chosen.dtype.kind not in "iu":
            raise ValueError(f"actions are integers 0–{NUM_ACTIONS - 1}, not an array of {chosen.dtype}")
        resetting = self._ended if self.autoreset_mode is AutoresetMode.NEXT_STEP else np.zeros_like(self._ended)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended.any():
            raise RuntimeError(
                f"the episodes of sub-environments {np.flatnonzero(self._ended).tolist()} have ended: with "
                "autoreset_mode DISABLED, deal them again with reset(options={'reset_mask': mask}) before step()"
            )
        acting = ~resetting
        outside = acting & ((chosen < 0) | (chosen >= NUM_ACTIONS))
        if outside.any():
            game = int(np.flatnonzero(outside)[0])
            raise ValueError(
                f"action {chosen[game]!r} of sub-environment {game} is not in the action space, "
                f"integers 0–{NUM_ACTIONS - 1}"
            )
        moves = np.where(acting, chosen, -1)
        illegal = np.zeros(self.num_envs, dtype=np.bool_)
        if self.illegal == "end":
            legal = (self._batch.legal_bits() >> np.maximum(moves, 0).astype(np.uint64)) & np.uint64(1)
            illegal = acting & (legal == 0)
            moves = np.where(illegal, -1, moves)
        batch = self._batch.step(moves)  # with illegal="raise", an illegal action raises here, nothing changed
        if resetting.any():
            batch = self._redeal(batch, resetting, self._stream)
        batch = self._advance(batch)
        finished = batch.is_over  # only games that ended in this step: those of earlier steps were dealt again
        ended = finished | illegal
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        infos: dict[str, Any] = {}
        ending: dict[str, Any] = {}
        if finished.any():
            results = batch.results()
            rewards[results.games] = self._rewards(results)
            ending.update(self._result_info(results))
        if illegal.any():
            rewards[illegal] = self.illegal_reward
            ending["illegal"] = illegal.copy()
            ending["_illegal"] = illegal.copy()
        observations = batch.observations(self.seat)
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            if ended.any():
                infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
                for game in np.flatnonzero(ended).tolist():
                    infos["final_obs"][game] = observations[game]
                infos["_final_obs"] = ended.copy()
                infos["final_info"] = ending
                infos["_final_info"] = ended.copy()
                batch = self._advance(self._redeal(batch, ended, self._stream))
                observations = batch.observations(self.seat)
        else:
            infos.update(ending)
            self._ended = ended
        self._batch = batch
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        return observations, rewards, ended.copy(), truncations, self._infos(infos)

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
        """The games as they are now: each at a decision of the agent's seat, or, for a sub-environment whose
        episode has just ended, at its end (or at the illegal action that ended it)."""
        if self._batch is None:
            raise RuntimeError("call reset() first")
        return self._batch

    def _seed_list(self, seeds: Sequence[Any]) -> list[int | None]:
        if isinstance(seeds, (str, bytes)) or len(seeds) != self.num_envs:
            raise ValueError(f"seed is an int, None or a list of one seed or None per sub-environment, {self.num_envs}")
        return [None if s is None else _seed(s, f"seed[{i}]") for i, s in enumerate(seeds)]

    def _reset_some(
        self, mask: object, seed: object, seeds: list[int | None] | None, dealer: int | str | None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """``reset(options={"reset_mask": mask})``: deal the masked sub-environments again, the others unchanged."""
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] is a bool array of shape ({self.num_envs},), not {mask!r}")
        if not mask.any():
            raise ValueError("options['reset_mask'] must select at least one sub-environment")
        if seed is not None and seeds is None:
            raise ValueError("with options['reset_mask'], seed is None or a list of one seed per sub-environment")
        if dealer == "rotate":
            raise ValueError("options['dealer'] 'rotate' is a rule of the run: give it to a reset without reset_mask")
        if self._batch is None or self._stream is None:
            raise RuntimeError("call reset() without options['reset_mask'] first")
        chosen = np.flatnonzero(mask)
        source: SeedStream | list[int] = self._stream
        if seeds is not None:
            wanted = [seeds[game] for game in chosen.tolist()]
            drawn = iter(self._stream.take(wanted.count(None)).seeds)
            source = [next(drawn) if s is None else s for s in wanted]
        batch = self._redeal(self._batch, mask, source, dealer=dealer if isinstance(dealer, int) else None)
        self._batch = self._advance(batch)
        self._ended = self._ended & ~mask
        return self._observe(), self._infos({})

    def _redeal(
        self, batch: Batch, games: NDArray[np.bool_], seeds: SeedStream | list[int], *, dealer: int | None = None
    ) -> Batch:
        """``batch`` with the sub-environments ``games`` dealt again from ``seeds``.  A game among them that is not
        over (its episode ended by an illegal action, or abandoned by a reset) is first played to its end,
        unseen, by greedy-lite at every seat: a batch deals again only finished games."""
        going = games & ~batch.is_over
        while going.any():
            batch = batch.step(np.where(going, greedy_lite_actions(batch), -1))
            going &= ~batch.is_over
        return batch.redeal(seeds, games=np.flatnonzero(games), dealer=dealer)

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
        mask = self.batch.legal_mask()
        if self._ended.any():  # an episode ended by an illegal action: its game still has legal actions
            mask = mask.copy()
            mask[self._ended] = False
        infos["action_mask"] = mask
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

    def _result_info(self, results: Results) -> dict[str, Any]:
        """The results of the finished games, one row per sub-environment, each key with its ``_`` mask."""
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
        return (
            f"GoatVectorEnv(num_envs={self.num_envs}, seat={self.seat}, opponents={self.opponents!r}, "
            f"autoreset_mode={self.autoreset_mode.name})"
        )
