"""Goat as a single-agent Gymnasium environment: one learner against goat's bots (extra ``goat-cards[gymnasium]``).

Importing this module registers the id ``goat/Goat-v0``:

>>> import gymnasium
>>> import goat.adapters.gymnasium  # registers goat/Goat-v0
>>> env = gymnasium.make("goat/Goat-v0", seat=0, partner="greedy", opponents="greedy")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((310,), (47,))
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> terminated = False
>>> while not terminated:
...     action = int(rng.choice(np.flatnonzero(info["action_mask"])))
...     observation, reward, terminated, truncated, info = env.step(action)
>>> reward in (-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0)
True

The learner plays seat ``seat`` (0–3); its partner, seat ``seat + 2``, is played by the strategy ``partner``
and the two opponents by ``opponents``: any name :func:`goat.load_strategy` takes (``"random"``,
``"greedy"``, ``"ismcts[time_ms=5]"``, a plugin's).  The other seats see only their own views, as in goat's
arena.  One episode is one game; the learner is asked whenever the game asks its seat (its plays, and
whether to declare a molodka it holds, R14).

- **Observations** are the 310 numbers of :func:`goat.adapters.encoding.observation` of the learner's view
  (``Box(0, 1, (310,), float32)``).
- **Actions** are ``Discrete(47)``, the hand-relative actions of :mod:`goat.adapters.encoding`.  The legal
  ones are ``info["action_mask"]`` (47 int8; all zero once the game is over), and also ``action_masks()``,
  the method that maskable algorithms such as sb3-contrib's ``MaskablePPO`` call.
- **Rewards** come at the end: the defeat-scores of R19 as a float, the other team's minus the learner's
  (+6 … −6; 0 for balls).  An illegal action ends the game with
  :data:`~goat.adapters.encoding.ILLEGAL_REWARD` (−7, worse than any legal outcome) and ``info["illegal"]``,
  a NumPy ``True`` (every info value is a NumPy value, as torchrl's info reader wants them).
  Episodes terminate; they are never truncated.
- **Seeding** follows Gymnasium: ``reset(seed=s)`` deals ``goat.new_game(seed=s)`` and seeds ``np_random``
  and, from it, the three bots; ``reset()`` deals with a seed drawn from ``np_random``.
- **Rendering**: ``render_mode="ansi"`` (``render()`` returns the whole table as text), ``"human"`` (printed
  to standard output after each step) or ``"rgb_array"`` (``render()`` returns the picture of the whole table
  that :func:`goat.svg.table` draws, the learner's seat at the bottom, as a ``(560, 760, 3)`` uint8 frame:
  :func:`goat.raster.table`, extra ``goat-cards[render]``, part of ``goat-cards[gymnasium]``).  It is
  what stable-baselines3's ``make_vec_env`` asks for and what ``gymnasium.wrappers.RecordVideo`` records.

``reset(options={"dealer": d, "defeat": (a, b)})`` sets the dealer and the match's score.
``gymnasium.make_vec("goat/Goat-v0", num_envs=n, vectorization_mode="async")`` runs ``n`` of them in
worker processes.
"""

from __future__ import annotations

import operator
from typing import Any, SupportsFloat

from goat.errors import InvalidSeatError, MissingExtraError

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.adapters.gymnasium", "Gymnasium", "gymnasium", error) from None

import goat
from goat.adapters import encoding
from goat.adapters.encoding import ILLEGAL_REWARD
from goat.state import GameState

__all__ = ["ENV_ID", "GoatEnv"]

#: The registered id.
ENV_ID = "goat/Goat-v0"


class GoatEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """One learner at seat ``seat``, the three other seats played by goat strategies; see the module docs."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        seat: int = 0,
        partner: str = "greedy",
        opponents: str = "greedy",
        render_mode: str | None = None,
    ) -> None:
        try:
            number = None if isinstance(seat, bool) else operator.index(seat)  # a numpy integer too, as a plain int
        except TypeError:
            number = None
        if number is None or number not in range(4):
            raise InvalidSeatError(f"seat must be 0–3, not {seat!r}")
        seat = number
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', not {render_mode!r}")
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (encoding.OBSERVATION_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(encoding.NUM_ACTIONS)
        self._names = {(seat + 2) % 4: partner, (seat + 1) % 4: opponents, (seat + 3) % 4: opponents}
        self._bots = self._load_bots(None)
        self.state_: GameState | None = None
        self._legal: dict[int, goat.Move] = {}
        self._ended = True  # until reset()

    def _load_bots(self, seed: int | None) -> dict[int, goat.Strategy]:
        bots = {}
        for other, name in sorted(self._names.items()):
            bot_seed = None if seed is None else seed + other
            bots[other] = goat.load_strategy(name, seed=bot_seed)
        return bots

    # --- the Gymnasium interface ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """Deal a game and let the bots play up to the learner's first decision: ``(observation, info)``."""
        if seed is not None:
            seed = operator.index(seed)  # a numpy integer too
        super().reset(seed=seed)
        if seed is not None:
            deal = seed
            self._bots = self._load_bots(int(self.np_random.integers(2**31)))
        else:
            deal = int(self.np_random.integers(2**63 - 1))
        state = encoding.deal_of(deal, options)
        for other, bot in self._bots.items():
            hook = getattr(bot, "start_game", None)
            if hook is not None:
                hook(goat.view(state, other))
        self._advance(state)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray[Any, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' moves up to its next decision or the end.

        Returns ``(observation, reward, terminated, truncated, info)``, Gymnasium's five.
        """
        state = self.state_
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError("the game is over: call reset()")
        if isinstance(action, bool) or not self.action_space.contains(action):
            # not an action at all (100, -1, 3.7): the agent's bug, not a move the rules refuse
            raise ValueError(f"action {action!r} is not in the action space, integers 0–{encoding.NUM_ACTIONS - 1}")
        move = self._legal.get(int(action))
        if move is None:  # illegal: the game ends, worse than any legal outcome
            self._legal = {}
            self._ended = True
            info = self._info()
            info["illegal"] = np.True_
            return self._observation(), ILLEGAL_REWARD, True, False, info
        self._advance(goat.play(state, move))
        reward = 0.0
        terminated = self._ended
        if terminated:
            assert self.state_ is not None
            result = goat.score(self.state_)
            team = self.seat % 2
            reward = float(result.defeat[1 - team] - result.defeat[team])
            for other, bot in self._bots.items():
                hook = getattr(bot, "end_game", None)
                if hook is not None:
                    hook(goat.view(self.state_, other), result)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as text (``"ansi"``), printed (``"human"``, returning ``None``) or as a picture
        (``"rgb_array"``: an ``(H, W, 3)`` uint8 frame; ``MissingExtraError`` without the
        ``render`` extra)."""
        if self.render_mode is None:
            return None
        if self.state_ is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            # imported here: stable-baselines3 makes every environment with "rgb_array", most never draw a frame
            from goat.raster import table

            return table(self.state_, bottom=self.seat)
        text = encoding.table_text(self.state_)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions now, as 47 booleans (what maskable algorithms ask the environment for)."""
        mask = np.zeros(encoding.NUM_ACTIONS, dtype=bool)
        mask[list(self._legal)] = True
        return mask

    # --- inside -----------------------------------------------------------------------------------------

    def _advance(self, state: GameState) -> None:
        """Let the bots play until the learner must decide or the game is over."""
        while not state.is_over and state.to_move != self.seat:
            other = state.to_move
            assert other is not None
            seen = goat.view(state, other)
            state = goat.play(state, self._bots[other].choose(seen, seen.legal_moves))
        self.state_ = state
        self._legal = encoding.actions_of(state)
        self._ended = state.is_over

    def _observation(self) -> np.ndarray[Any, Any]:
        assert self.state_ is not None
        return encoding.observation_array(self.state_, self.seat)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(encoding.NUM_ACTIONS, dtype=np.int8)
        mask[list(self._legal)] = 1
        return {"action_mask": mask}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="goat.adapters.gymnasium:GoatEnv")
