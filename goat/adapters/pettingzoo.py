"""Goat as a PettingZoo AEC environment (extra ``goat-cards[pettingzoo]``).

>>> from goat.adapters.pettingzoo import env
>>> game = env()
>>> game.reset(seed=42)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
>>> sum(game._cumulative_rewards.values()) == 0
True

One episode is one game.  Agents ``seat_0`` … ``seat_3`` (seats 0 and 2 are a team, R1) act when the game
asks them: the seat due to play, or a molodka holder being asked before it (R14).  Actions and observations
follow :mod:`goat.adapters.encoding`: ``Discrete(47)`` hand-relative actions, and an observation dict with
``observation`` (310 numbers in [0, 1], an encoding of the agent's :class:`~goat.PlayerView` — hand, trump,
table, public history summary) and ``action_mask`` (47 int8, all zero unless the agent is to act).  At the
end of the game each agent is rewarded with the defeat-scores of R19: the other team's minus its own
(+6 … −6; 0 for balls).  ``reset(seed=...)`` deals with that seed; ``options={"dealer": d, "defeat": (a, b)}``
sets the dealer and the match's score.  ``render_mode="ansi"`` renders the table as text.
"""

from __future__ import annotations

from typing import Any, ClassVar

from goat.errors import MissingExtraError

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.pettingzoo", "PettingZoo", "pettingzoo", error) from None

import goat
from goat.adapters import encoding
from goat.state import GameState

__all__ = ["env", "raw_env"]


def env(render_mode: str | None = None) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (illegal moves end the game with -1)."""
    wrapped: AECEnv = raw_env(render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC environment; see the module documentation."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "goat_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
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

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        assert self.state_ is not None, "call reset() first"
        seen = goat.view(self.state_, self._seat(agent))
        mask = np.zeros(encoding.NUM_ACTIONS, dtype=np.int8)
        if self.state_.to_move == seen.seat:
            mask[encoding.legal_actions(seen)] = 1
        return {"observation": np.asarray(encoding.observation(seen), dtype=np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = options or {}
        self.state_ = goat.new_game(
            seed=seed, dealer=options.get("dealer", 0), defeat=tuple(options.get("defeat", (0, 0)))
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_to_move()

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
        seen = goat.view(self.state_, self._seat(agent))
        self.state_ = goat.play(self.state_, encoding.decode(int(action), seen))  # type: ignore[arg-type]
        self._clear_rewards()
        if self.state_.is_over:
            defeat = goat.score(self.state_).defeat
            for seat, name in enumerate(self.possible_agents):
                team = seat % 2
                self.rewards[name] = defeat[1 - team] - defeat[team]
                self.terminations[name] = True
        self._cumulative_rewards[agent] = 0
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.state_ is not None
        state = self.state_
        lines = [
            f"trump card {state.trump_card.symbol}  stock {len(state.stock)}  dealer {state.dealer}  "
            f"leader {state.leader}  to move {state.to_move}"
        ]
        for seat, hand in enumerate(state.hands):
            lines.append(f"seat {seat}: " + " ".join(card.symbol for card in sorted(hand)))
        lines.append("table: " + (", ".join(str(play) for play in state.table) or "-"))
        won = [sum(1 for t in state.tricks if t.winner % 2 == team) for team in (0, 1)]
        lines.append(f"tricks: team 0 {won[0]}, team 1 {won[1]}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
