"""Goat as a PettingZoo AEC environment (extra ``goat-cards[pettingzoo]``).

>>> from goat.adapters.pettingzoo import env
>>> game = env()
>>> game.reset(seed=42)
>>> total = 0.0
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     total += reward  # 0 until the game ends; then each agent's reward, as it leaves
...     if termination or truncation:
...         action = None
...     else:
...         action = game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
>>> total
0.0

One episode is one game.  Agents ``seat_0`` … ``seat_3`` (seats 0 and 2 are a team, R1) act when the game
asks them: the seat due to play, or a molodka holder being asked before it (R14).  Actions and observations
are those of :mod:`goat.adapters.encoding`: ``Discrete(NUM_ACTIONS)`` hand-relative actions, and an
observation dict with ``observation`` (:func:`~goat.adapters.encoding.observation_array` of the agent's seat:
what its :class:`~goat.PlayerView` shows, ``OBSERVATION_SIZE`` numbers in [0, 1]) and ``action_mask``
(``NUM_ACTIONS`` int8, all zero unless the agent is to act).

**Rewards** come at the end of the game, as floats: each agent gets the defeat-scores of R19, the other
team's minus its own (+6 … −6; 0 for balls).  :func:`env` wraps the game in PettingZoo's own wrappers, as
PettingZoo's classic games are wrapped: an illegal action ends the game for everyone, with
:data:`~goat.adapters.encoding.ILLEGAL_REWARD` (−7, worse than the worst legal outcome, −6, so that breaking the
rules never pays) for the offender and 0 for the others.  As in those games, the wrapper judges an action by the
action mask it showed the agent, so an agent that changes its mask in place gets past it; the unwrapped
:class:`raw_env` then refuses the action with a :class:`ValueError` and keeps its state, as it refuses any action
that is not the integer of a legal one.

**Seeding** follows Gymnasium: ``reset(seed=s)`` deals ``goat.new_game(seed=s)`` and seeds the environment's
``np_random`` generator with ``s``; ``reset()`` without a seed deals with a seed drawn from ``np_random``, so
``reset(seed=42); reset()`` deals the same two games every time.  Seeds may be numpy integers.
``options={"dealer": d, "defeat": (a, b)}`` sets the dealer and the match's score.

**Rendering**, by Gymnasium's meaning of the modes: with ``render_mode="ansi"``, ``render()`` returns the
table as text; with ``render_mode="human"``, the table is printed to standard output after every step and
by ``render()``, which returns ``None``; with ``render_mode="rgb_array"``, ``render()`` returns the picture
of the table that :func:`goat.svg.table` draws (seat 0 at the bottom) as an ``(H, W, 3)`` uint8 frame
(:func:`goat.raster.table`, extra ``goat-cards[render]``).

Options of :func:`env` are passed on to :class:`raw_env`, as PettingZoo's classic environments do.
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

from goat.errors import MissingExtraError

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.pettingzoo", "PettingZoo", "pettingzoo", error) from None

import goat
from goat.adapters import encoding
from goat.adapters.encoding import ILLEGAL_REWARD
from goat.state import GameState

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are; ``kwargs`` go to :class:`raw_env`.

    PettingZoo's own wrappers, composed as in its classic games: ``TerminateIllegalWrapper`` (an illegal action
    ends the game, the offender rewarded :data:`~goat.adapters.encoding.ILLEGAL_REWARD`, the others 0),
    ``AssertOutOfBoundsWrapper`` (an action outside the action space fails an assertion) and
    ``OrderEnforcingWrapper`` (calls out of order are errors).
    """
    game: AECEnv = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=ILLEGAL_REWARD)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC environment; see the module documentation.

    ``render_mode`` is ``None`` (the default), ``"ansi"``, ``"human"`` or ``"rgb_array"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "goat_v1",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, render_mode: str | None = None) -> None:
        EzPickle.__init__(self, render_mode=render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(4)]
        self.agents = list(self.possible_agents)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (encoding.OBSERVATION_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (encoding.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {agent: spaces.Discrete(encoding.NUM_ACTIONS) for agent in self.possible_agents}
        self.state_: GameState | None = None
        self._np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        # Per state, built when first asked for: each agent's observation, the legal moves by action.
        self._observed: dict[str, dict[str, np.ndarray[Any, Any]]] = {}
        self._legal: dict[int, goat.Move] | None = None

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's random generator (Gymnasium's convention): seeded by ``reset(seed=...)``."""
        if self._np_random is None:
            self._np_random, self.np_random_seed = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value
        self.np_random_seed = -1  # Gymnasium's mark of a generator set from outside

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _actions(self) -> dict[int, goat.Move]:
        found = self._legal
        if found is None:
            assert self.state_ is not None, "call reset() first"
            found = self._legal = encoding.actions_of(self.state_)
        return found

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        found = self._observed.get(agent)
        if found is not None:  # copies: an agent that changes its observation in place changes only its own
            return {"observation": found["observation"].copy(), "action_mask": found["action_mask"].copy()}
        assert self.state_ is not None, "call reset() first"
        seat = self._seat(agent)
        mask = np.zeros(encoding.NUM_ACTIONS, dtype=np.int8)
        if self.state_.to_move == seat:
            mask[list(self._actions())] = 1
        found = {"observation": encoding.observation_array(self.state_, seat), "action_mask": mask}
        self._observed[agent] = found
        return {"observation": found["observation"].copy(), "action_mask": mask.copy()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            seed = operator.index(seed)  # a numpy integer too
            self._np_random, self.np_random_seed = seeding.np_random(seed)
            deal = seed
        else:
            deal = int(self.np_random.integers(2**63 - 1))
        self._set_state(encoding.deal_of(deal, options))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_move()
        if self.render_mode == "human":
            self.render()

    def _set_state(self, state: GameState) -> None:
        self.state_ = state
        self._observed = {}
        self._legal = None

    def _agent_to_move(self) -> str:
        assert self.state_ is not None
        seat = self.state_.to_move
        return self.possible_agents[seat if seat is not None else 0]

    def step(self, action: int | None) -> None:
        assert self.state_ is not None, "call reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:  # an integer (a numpy one too), not a float that int() would cut to another action
            move = self._actions().get(operator.index(action)) if action is not None else None
        except TypeError:
            move = None
        if move is None:
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self._set_state(goat.play(self.state_, move))
        if self.state_.is_over:  # the only rewards, as in PettingZoo's classic board games: 0 until the end
            defeat = goat.score(self.state_).defeat
            for seat, name in enumerate(self.possible_agents):
                team = seat % 2
                self.rewards[name] = float(defeat[1 - team] - defeat[team])
                self.terminations[name] = True
            self._accumulate_rewards()
        self.agent_selection = self._agent_to_move()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray[Any, Any] | None:
        if self.render_mode is None:
            return None
        assert self.state_ is not None, "call reset() first"
        if self.render_mode == "rgb_array":
            from goat.raster import table  # the render extra is needed only when a frame is drawn

            return table(self.state_)
        text = encoding.table_text(self.state_)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        pass
