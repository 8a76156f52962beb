"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import goat
from goat.adapters import encoding
from goat.adapters.pettingzoo import env, raw_env

# PettingZoo warns that dict observations (observation + action mask) are not plain arrays: intended.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=300)


def play_out(game: object, rng: np.random.Generator) -> dict[str, float]:
    """Play random legal actions to the end; the rewards each agent was given, in all."""
    totals: dict[str, float] = {}
    for agent in game.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _info = game.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0) + reward
        action = None
        if not (termination or truncation):
            legal = np.flatnonzero(observation["action_mask"])
            action = int(rng.choice(legal))
        game.step(action)  # type: ignore[attr-defined]
    return totals


def test_a_game_ends_with_the_defeat_scores_as_rewards() -> None:
    game = raw_env()
    game.reset(seed=7)
    expected = goat.new_game(seed=7)
    assert game.state_ == expected
    rewards = play_out(game, np.random.default_rng(1))
    assert game.state_ is not None and game.state_.is_over
    defeat = goat.score(game.state_).defeat
    for seat in range(4):
        assert rewards[f"seat_{seat}"] == defeat[1 - seat % 2] - defeat[seat % 2]
    assert sum(rewards.values()) == 0


def test_masks_match_the_legal_moves_and_observations_fit_the_space() -> None:
    game = raw_env()
    game.reset(seed=3, options={"dealer": 2, "defeat": (4, 2)})
    assert game.state_ is not None and game.state_.dealer == 2 and game.state_.defeat == (4, 2)
    rng = np.random.default_rng(0)
    for _ in range(25):
        agent = game.agent_selection
        seat = int(agent.split("_")[1])
        for other in game.agents:
            observation = game.observe(other)
            assert game.observation_space(other).contains(observation)
            assert observation["action_mask"].any() == (other == agent)
        seen = goat.view(game.state_, seat)
        mask = game.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == encoding.legal_actions(seen)
        game.step(int(rng.choice(np.flatnonzero(mask))))


def test_an_illegal_action_ends_the_game_for_the_offender() -> None:
    game = env()
    game.reset(seed=5)
    agent = game.agent_selection
    mask = game.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    game.step(illegal)
    assert game.rewards[agent] == -1 and all(game.terminations.values())


def test_ansi_rendering_shows_the_table() -> None:
    game = raw_env(render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text is not None and "trump card" in text and "seat 3:" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")


def test_the_adapter_without_its_extra_names_it() -> None:
    code = "import sys; sys.modules['pettingzoo'] = None; import goat.adapters.pettingzoo"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'goat-cards[pettingzoo]'" in done.stderr
    assert "During handling" not in done.stderr  # one message, not a chained traceback
